import type { IdempotencyClaim, IdempotencyPort } from '../../core/ports.js';
import type { Capabilities, Executor } from '../database.js';

/**
 * Idempotency keys on the `idempotency_keys` table. `claim` reads, then writes: call it inside a
 * transaction (Store.transaction) so the decision and the claim are one.
 */
export function idempotencyStore(db: Executor, capabilities: Pick<Capabilities, 'rowLocks'>): IdempotencyPort {
  return {
    async claim({ accountId, key, fingerprint, now, lockMs, ttlMs }) {
      const read = () => {
        let select = db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key);
        if (capabilities.rowLocks) select = select.forUpdate();
        return select.executeTakeFirst();
      };
      const decide = async (row: NonNullable<Awaited<ReturnType<typeof read>>>): Promise<IdempotencyClaim> => {
        const released = row.state === 'released';
        if (!released && row.fingerprint !== fingerprint) return { kind: 'mismatch' };
        if (row.state === 'done') {
          return {
            kind: 'replay',
            response: { statusCode: Number(row.status_code), contentType: row.content_type, body: row.body ?? '' },
          };
        }
        if (!released && Number(row.locked_until) > now) return { kind: 'in_use' };
        // The first request's process went away mid-request, or it ran past its claim, or it failed
        // on our side: this one takes the key over. Leases of one key only ever grow (a released
        // key's row is kept for that), so a request that lost the key can never hold it again.
        const lease = Math.max(now + lockMs, Number(row.locked_until) + 1);
        await db
          .updateTable('idempotency_keys')
          // A released key is a new request's: it gets the key's whole life again, as a new key would.
          .set(
            released
              ? { state: 'running', fingerprint, locked_until: lease, created_at: now, expires_at: now + ttlMs }
              : { locked_until: lease },
          )
          .where('account_id', '=', accountId)
          .where('key', '=', key)
          .execute();
        return { kind: 'claimed', lease };
      };

      const existing = await read();
      if (existing && Number(existing.expires_at) > now) return decide(existing);
      if (existing) await db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).execute();
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({
          account_id: accountId,
          key,
          fingerprint,
          state: 'running',
          status_code: null,
          content_type: null,
          body: null,
          locked_until: now + lockMs,
          created_at: now,
          expires_at: now + ttlMs,
        })
        .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'claimed', lease: now + lockMs };
      // Another request inserted it first (PostgreSQL waited for its commit): decide on its row.
      const winner = await read();
      return winner ? decide(winner) : { kind: 'in_use' };
    },

    async complete(accountId, key, lease, response) {
      const result = await db
        .updateTable('idempotency_keys')
        .set({ state: 'done', status_code: response.statusCode, content_type: response.contentType, body: response.body })
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .where('state', '=', 'running')
        .where('locked_until', '=', lease)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async release(accountId, key, lease) {
      await db
        .updateTable('idempotency_keys')
        .set({ state: 'released' })
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .where('state', '=', 'running')
        .where('locked_until', '=', lease)
        .execute();
    },

    async deleteExpired(now, limit) {
      const expired = await db
        .selectFrom('idempotency_keys')
        .select(['account_id', 'key'])
        .where('expires_at', '<=', now)
        .limit(limit)
        .execute();
      let deleted = 0;
      for (const row of expired) {
        const result = await db
          .deleteFrom('idempotency_keys')
          .where('account_id', '=', row.account_id)
          .where('key', '=', row.key)
          .where('expires_at', '<=', now)
          .executeTakeFirst();
        deleted += Number(result.numDeletedRows);
      }
      return deleted;
    },
  };
}
