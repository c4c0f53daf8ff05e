import { sql } from 'kysely';
import type { SuppressionsPort } from '../../core/ports.js';
import { isSuppressionReason, type Suppression, type SuppressionSource } from '../../core/suppressions/suppression.js';
import type { Executor } from '../database.js';
import type { SuppressionsTable } from '../schema.js';
import { chunks } from './chunks.js';
import { jsonRows } from './json-rows.js';

const toSuppression = (row: SuppressionsTable): Suppression => {
  if (!isSuppressionReason(row.reason)) throw new Error(`unknown suppression reason '${row.reason}' in the store`);
  return {
    accountId: row.account_id,
    channel: row.channel,
    recipient: row.recipient,
    reason: row.reason,
    source: row.source as SuppressionSource,
    note: row.note,
    createdAt: row.created_at,
  };
};

/** Each account's suppression list (migration 0021). */
export function suppressionsStore(db: Executor): SuppressionsPort {
  /** The keys as a table joined to the primary key: one probe each, whatever the mix of accounts and channels. */
  const findAmongKeys: SuppressionsPort['findAmongKeys'] = async (keys) => {
    const found: Suppression[] = [];
    for (const chunk of chunks(keys, 1_000)) {
      const rows = await sql<SuppressionsTable>`select s.* from ${jsonRows(
        db,
        { account_id: 'text', channel: 'text', recipient: 'text' },
        chunk.map((key) => ({ account_id: key.accountId, channel: key.channel, recipient: key.recipient })),
      )}
        join suppressions s on s.account_id = v.account_id and s.channel = v.channel and s.recipient = v.recipient`.execute(db);
      for (const row of rows.rows) found.push(toSuppression(row));
    }
    return found;
  };
  return {
    async insert(entry) {
      const rows = await db
        .insertInto('suppressions')
        .values({
          account_id: entry.accountId,
          channel: entry.channel,
          recipient: entry.recipient,
          reason: entry.reason,
          source: entry.source,
          note: entry.note,
          created_at: entry.createdAt,
        })
        .onConflict((oc) => oc.columns(['account_id', 'channel', 'recipient']).doNothing())
        .returning('recipient')
        .execute();
      return rows.length === 1;
    },
    async remove(accountId, channel, recipient) {
      const result = await db
        .deleteFrom('suppressions')
        .where('account_id', '=', accountId)
        .where('channel', '=', channel)
        .where('recipient', '=', recipient)
        .returningAll()
        .executeTakeFirst();
      return result ? toSuppression(result) : undefined;
    },
    findAmong: (accountId, channel, recipients) => findAmongKeys(recipients.map((recipient) => ({ accountId, channel, recipient }))),
    findAmongKeys,
    async list({ accountId, channel, before, limit }) {
      let query = db.selectFrom('suppressions').selectAll().where('account_id', '=', accountId);
      if (channel) query = query.where('channel', '=', channel);
      if (before) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', before.createdAt),
            eb.and([eb('created_at', '=', before.createdAt), eb('channel', '<', before.channel)]),
            eb.and([eb('created_at', '=', before.createdAt), eb('channel', '=', before.channel), eb('recipient', '<', before.recipient)]),
          ]),
        );
      }
      const rows = await query.orderBy('created_at', 'desc').orderBy('channel', 'desc').orderBy('recipient', 'desc').limit(limit).execute();
      return rows.map(toSuppression);
    },
  };
}
