import type { Executor } from '../database.js';
import type { SigningKeysTable } from '../schema.js';

export type SigningKeyRow = SigningKeysTable;

/** The newest key that still signs, if any. */
export async function findActiveSigningKey(db: Executor): Promise<SigningKeyRow | undefined> {
  return db
    .selectFrom('signing_keys')
    .selectAll()
    .where('retired_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('kid', 'desc')
    .executeTakeFirst();
}

export async function findSigningKey(db: Executor, kid: string): Promise<SigningKeyRow | undefined> {
  return db.selectFrom('signing_keys').selectAll().where('kid', '=', kid).executeTakeFirst();
}

export async function listSigningKeys(db: Executor): Promise<SigningKeyRow[]> {
  return db.selectFrom('signing_keys').selectAll().orderBy('created_at').orderBy('kid').execute();
}

export async function insertSigningKey(db: Executor, key: SigningKeyRow): Promise<void> {
  await db.insertInto('signing_keys').values(key).execute();
}

/** Stops every key except `keepKid` from signing; they keep verifying until their tokens expire. */
export async function retireSigningKeysExcept(db: Executor, keepKid: string, at: number): Promise<void> {
  await db.updateTable('signing_keys').set({ retired_at: at }).where('kid', '!=', keepKid).where('retired_at', 'is', null).execute();
}
