import { sql } from 'kysely';
import { DEFAULT_ROUTE } from '../../core/delivery/provider.js';
import type { ChannelAddress, InboundMessage } from '../../core/inbound/inbound-message.js';
import type { InboundPort } from '../../core/ports.js';
import { type Executor, isPostgres } from '../database.js';
import type { ChannelAddressesTable, InboundMessagesTable } from '../schema.js';

/** How long the parts of a long message wait for the rest. */
const STALE_PART_MS = 24 * 3600_000;

const toInbound = (row: InboundMessagesTable): InboundMessage => ({
  id: row.id,
  accountId: row.account_id,
  channel: row.channel,
  from: row.sender,
  to: row.recipient,
  text: row.body,
  receivedAt: Number(row.received_at),
  providerMessageId: row.provider_message_id ?? undefined,
  details: row.payload ? (JSON.parse(row.payload) as Record<string, unknown>) : undefined,
  createdAt: Number(row.created_at),
});

const toAddress = (row: ChannelAddressesTable): ChannelAddress => ({
  channel: row.channel,
  address: row.address,
  accountId: row.account_id,
  createdAt: Number(row.created_at),
});

/** Messages recipients send to accounts, the addresses that lead them there, long SMS parts, keyword replies (migration 0022). */
export function inboundStore(db: Executor): InboundPort {
  return {
    async recordInbound(accountId, phone, at) {
      await db
        .insertInto('whatsapp_inbound')
        .values({ account_id: accountId, phone, last_inbound_at: at })
        .onConflict((oc) =>
          // A message that arrives late (a webhook retried) never moves the window back.
          oc.columns(['account_id', 'phone']).doUpdateSet({ last_inbound_at: at }).where('whatsapp_inbound.last_inbound_at', '<', at),
        )
        .execute();
    },
    async lastInboundAt(accountId, phone) {
      const row = await db
        .selectFrom('whatsapp_inbound')
        .select('last_inbound_at')
        .where('account_id', '=', accountId)
        .where('phone', '=', phone)
        .executeTakeFirst();
      return row?.last_inbound_at;
    },
    async insertMessage(message) {
      const rows = await db
        .insertInto('inbound_messages')
        .values({
          id: message.id,
          account_id: message.accountId,
          channel: message.channel,
          sender: message.from,
          recipient: message.to,
          body: message.text,
          payload: message.details ? JSON.stringify(message.details) : null,
          provider_message_id: message.providerMessageId ?? null,
          received_at: message.receivedAt,
          created_at: message.createdAt,
        })
        .onConflict((oc) => oc.columns(['account_id', 'channel', 'provider_message_id']).doNothing())
        .returning('id')
        .execute();
      return rows.length === 1;
    },
    async findForAccount(id, accountId) {
      const row = await db
        .selectFrom('inbound_messages')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row ? toInbound(row) : undefined;
    },
    async list(query) {
      if (query.channels.length === 0) return { messages: [], total: 0 };
      let filtered = db
        .selectFrom('inbound_messages')
        .where('account_id', '=', query.accountId)
        .where('channel', 'in', [...query.channels]);
      if (query.from !== undefined) filtered = filtered.where('created_at', '>=', query.from);
      if (query.to !== undefined) filtered = filtered.where('created_at', '<', query.to);
      const [rows, total] = await Promise.all([
        filtered.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).offset(query.offset).execute(),
        filtered
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.total)),
      ]);
      return { messages: rows.map(toInbound), total };
    },
    async accountOfAddress(channel, forms) {
      if (forms.length === 0) return undefined;
      const rows = await db
        .selectFrom('channel_addresses')
        .select(['address', 'account_id'])
        .where('channel', '=', channel)
        .where('address', 'in', [...forms])
        .execute();
      for (const form of forms) {
        const row = rows.find((r) => r.address === form);
        if (row) return row.account_id;
      }
      return undefined;
    },
    async insertAddress(address) {
      const rows = await db
        .insertInto('channel_addresses')
        .values({ channel: address.channel, address: address.address, account_id: address.accountId, created_at: address.createdAt })
        .onConflict((oc) => oc.columns(['channel', 'address']).doNothing())
        .returning('address')
        .execute();
      return rows.length === 1;
    },
    async removeAddress(channel, address) {
      const result = await db
        .deleteFrom('channel_addresses')
        .where('channel', '=', channel)
        .where('address', '=', address)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    async listAddresses(accountId) {
      let query = db.selectFrom('channel_addresses').selectAll();
      if (accountId !== undefined) query = query.where('account_id', '=', accountId);
      return (await query.orderBy('channel').orderBy('address').execute()).map(toAddress);
    },
    async addPart(part) {
      // Each route's parts apart: two SMSCs may each pass on a message with the same sender,
      // number and reference, and a part of one must never complete the other.
      const route = part.route ?? DEFAULT_ROUTE;
      // Under read committed, the last two parts taken side by side (two nodes, two binds) would
      // each miss the other's uncommitted row, and the message would never be found whole: one
      // lock per message, held until commit, has them take turns. SQLite has a single writer.
      if (isPostgres(db)) {
        const key = `inbound_parts:${part.channel}:${route}:${part.from}:${part.to}:${part.reference}`;
        await sql`select pg_advisory_xact_lock(hashtext(current_schema() || ${key}))`.execute(db);
      }
      // Parts of an earlier message with the same reference that never completed (a handset's
      // 8-bit references come round again) are not this message's: dropped once a day old.
      await db
        .deleteFrom('inbound_parts')
        .where('channel', '=', part.channel)
        .where('route', '=', route)
        .where('sender', '=', part.from)
        .where('recipient', '=', part.to)
        .where('reference', '=', part.reference)
        .where('received_at', '<', part.receivedAt - STALE_PART_MS)
        .execute();
      await db
        .insertInto('inbound_parts')
        .values({
          channel: part.channel,
          route,
          sender: part.from,
          recipient: part.to,
          reference: part.reference,
          total: part.total,
          part: part.part,
          body: part.text,
          received_at: part.receivedAt,
        })
        .onConflict((oc) => oc.columns(['channel', 'route', 'sender', 'recipient', 'reference', 'part']).doNothing())
        .execute();
      const key = db
        .selectFrom('inbound_parts')
        .where('channel', '=', part.channel)
        .where('route', '=', route)
        .where('sender', '=', part.from)
        .where('recipient', '=', part.to)
        .where('reference', '=', part.reference);
      const rows = await key.select(['part', 'total', 'body']).orderBy('part').execute();
      // Parts of one message name the same total; parts left by an earlier message with the same
      // reference (never completed) are not counted with it.
      const ours = rows.filter((row) => Number(row.total) === part.total);
      const parts = new Set(ours.map((row) => Number(row.part)));
      for (let i = 1; i <= part.total; i++) if (!parts.has(i)) return undefined;
      return ours.filter((row) => Number(row.part) <= part.total).map((row) => row.body);
    },
    async removeParts(channel, key) {
      const result = await db
        .deleteFrom('inbound_parts')
        .where('channel', '=', channel)
        .where('route', '=', key.route ?? DEFAULT_ROUTE)
        .where('sender', '=', key.from)
        .where('recipient', '=', key.to)
        .where('reference', '=', key.reference)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async keywordReplies(accountId) {
      const rows = await db.selectFrom('keyword_replies').selectAll().where('account_id', '=', accountId).orderBy('language').execute();
      return rows.map((row) => ({ language: row.language, stopReply: row.stop_reply, startReply: row.start_reply }));
    },
    async setKeywordReplies(accountId, replies, at) {
      await db
        .insertInto('keyword_replies')
        .values({
          account_id: accountId,
          language: replies.language,
          stop_reply: replies.stopReply,
          start_reply: replies.startReply,
          updated_at: at,
        })
        .onConflict((oc) =>
          oc
            .columns(['account_id', 'language'])
            .doUpdateSet({ stop_reply: replies.stopReply, start_reply: replies.startReply, updated_at: at }),
        )
        .execute();
    },
  };
}
