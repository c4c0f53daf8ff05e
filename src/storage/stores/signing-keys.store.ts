import type { SigningKeysPort, StoredSigningKey } from '../../core/ports.js';
import type { Executor } from '../database.js';
import type { SigningKeysTable } from '../schema.js';

const toKey = (row: SigningKeysTable): StoredSigningKey => ({
  kid: row.kid,
  algorithm: row.algorithm,
  publicJwk: row.public_jwk,
  privateJwk: row.private_jwk,
  createdAt: Number(row.created_at),
  retiredAt: row.retired_at === null ? null : Number(row.retired_at),
});

/** Token signing keys (auth/key-ring.ts keeps them in memory and asks here). */
export function signingKeysStore(db: Executor): SigningKeysPort {
  return {
    async findActive() {
      const row = await db
        .selectFrom('signing_keys')
        .selectAll()
        .where('retired_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('kid', 'desc')
        .executeTakeFirst();
      return row && toKey(row);
    },
    async find(kid) {
      const row = await db.selectFrom('signing_keys').selectAll().where('kid', '=', kid).executeTakeFirst();
      return row && toKey(row);
    },
    async list() {
      return (await db.selectFrom('signing_keys').selectAll().orderBy('created_at').orderBy('kid').execute()).map(toKey);
    },
    async insert(key) {
      await db
        .insertInto('signing_keys')
        .values({
          kid: key.kid,
          algorithm: key.algorithm,
          public_jwk: key.publicJwk,
          private_jwk: key.privateJwk,
          created_at: key.createdAt,
          retired_at: key.retiredAt,
        })
        .execute();
    },
    async retireAllExcept(keepKid, at) {
      await db.updateTable('signing_keys').set({ retired_at: at }).where('kid', '!=', keepKid).where('retired_at', 'is', null).execute();
    },
  };
}
