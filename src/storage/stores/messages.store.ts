import { type ExpressionBuilder, sql } from 'kysely';
import { receiptRoutes } from '../../core/delivery/provider.js';
import type { Channel } from '../../core/ids.js';
import { type DispatchState, MESSAGE_STATUSES, type Message, type MessageStatus, type StatusChange } from '../../core/messages/message.js';
import type {
  FailureReasonCount,
  MessageActivity,
  MessageActivityPeriod,
  MessagesPort,
  MovedMessage,
  Transition,
} from '../../core/ports.js';
import { type Capabilities, type Executor, isPostgres } from '../database.js';
import type { Database, MessagesTable } from '../schema.js';
import { chunks } from './chunks.js';
import { insertRows } from './insert-rows.js';
import { type JsonColumnType, jsonRows } from './json-rows.js';

type Routes = NonNullable<ReturnType<typeof receiptRoutes>>;

/** `message_parts.route` of a part recorded by a provider with no routes (the column is in the key, never null). */
const NO_ROUTE = '';

/** The messages a receipt of `routes` may be about: its route's, and for the default route those with none (receiptRoutes). */
const messagesOn =
  ({ route, orNone }: Routes) =>
  (eb: ExpressionBuilder<Database, 'messages'>) =>
    orNone ? eb.or([eb('route', '=', route), eb('route', 'is', null)]) : eb('route', '=', route);

/** The same of message_parts, whose parts recorded without a route hold NO_ROUTE. */
const partsOn =
  ({ route, orNone }: Routes) =>
  (eb: ExpressionBuilder<Database, 'message_parts'>) =>
    orNone ? eb('route', 'in', [route, NO_ROUTE]) : eb('route', '=', route);

/** The columns `transitionMany` returns: a MovedMessage and the counters. */
/**
 * Every column of a message row, named rather than `*`: a statement that names its columns gets
 * its rows made by Herald (storage/sqlite-statements.ts), and keeps its columns whatever order a
 * migration leaves the table in.
 */
const MESSAGE_COLUMNS = [
  'id',
  'account_id',
  'channel',
  'recipient',
  'sender',
  'body',
  'payload',
  'status',
  'segments',
  'cost_micros',
  'charge_state',
  'callback_url',
  'scheduled_at',
  'created_at',
  'updated_at',
  'sent_at',
  'delivered_at',
  'error_code',
  'error_message',
  'provider_message_id',
  'status_sequence',
  'dispatch_state',
  'attempts',
  'batch_id',
  'request_id',
  'trace_context',
  'event_sequence',
  'route',
] as const satisfies ReadonlyArray<keyof MessagesTable>;
/**
 * A column added to the table and not to the list fails to compile here, unless it is named below:
 * `suppression_exempt` is read by the hand-over alone (markInFlight).
 */
const everyColumnNamed: Exclude<keyof MessagesTable, (typeof MESSAGE_COLUMNS)[number] | 'suppression_exempt'> extends never ? true : never =
  true;
void everyColumnNamed;

/** PostgreSQL: each queued message's first history row written by the statement that inserts it. */
const QUEUED_WITH_HISTORY = {
  key: 'queued-history',
  sql: (insert: string) =>
    `with queued as (${insert} returning "id", "created_at") ` +
    `insert into "message_status_history" ("message_id", "sequence", "status", "detail", "occurred_at") ` +
    `select "id", 1, 'queued', null, "created_at" from queued`,
};

const MOVED_COLUMNS = [
  'id',
  'account_id',
  'channel',
  'recipient',
  'callback_url',
  'status',
  'cost_micros',
  'sent_at',
  'delivered_at',
  'status_sequence',
  'event_sequence',
  'request_id',
  'trace_context',
] as const satisfies ReadonlyArray<keyof MessagesTable>;
type MovedRow = Pick<MessagesTable, (typeof MOVED_COLUMNS)[number]>;

const toMovedMessage = (row: MovedRow): MovedMessage => ({
  id: row.id,
  accountId: row.account_id,
  channel: row.channel as Channel,
  to: row.recipient,
  callbackUrl: row.callback_url,
  status: row.status as MessageStatus,
  costMicros: row.cost_micros,
  sentAt: row.sent_at,
  deliveredAt: row.delivered_at,
  requestId: row.request_id,
  traceContext: row.trace_context,
});

const toMessage = (row: Omit<MessagesTable, 'suppression_exempt'>): Message =>
  Object.assign(toMovedMessage(row), {
    sender: row.sender,
    body: row.body,
    segments: row.segments,
    chargeState: row.charge_state,
    scheduledAt: row.scheduled_at,
    createdAt: row.created_at,
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
    providerMessageId: row.provider_message_id,
    dispatchState: row.dispatch_state,
    attempts: row.attempts,
    batchId: row.batch_id,
    route: row.route,
  });

/** The starts of the periods that cut [from, to) in pieces of periodMs; a span that does not divide is a caller's bug. */
function periodStarts(from: number, to: number, periodMs: number): number[] {
  const count = (to - from) / periodMs;
  if (
    !Number.isSafeInteger(from) ||
    !Number.isSafeInteger(periodMs) ||
    periodMs <= 0 ||
    !Number.isInteger(count) ||
    count < 0 ||
    count > 1_000
  ) {
    throw new Error(`activityByPeriod takes a span of at most 1,000 whole periods, not ${from}..${to} by ${periodMs} ms`);
  }
  return Array.from({ length: count }, (_, i) => from + i * periodMs);
}

/**
 * A row of activityByPeriod's statement: a count of the period starting at `lo`, of one status
 * (code null), or of the failed messages with one error code (status null). PostgreSQL's bigints
 * come as strings.
 */
type ActivityRow = { lo: number | string; status: MessageStatus | null; code: string | null; n: number | string };

/** The periods starting at `starts`, with the counts of the rows that fall in each (none: zero). */
function activityOf(starts: readonly number[], rows: readonly ActivityRow[], top: number): MessageActivity {
  const empty = (start: number): MessageActivityPeriod => ({
    start,
    created: 0,
    byStatus: Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, 0])) as Record<MessageStatus, number>,
    delivered: 0,
    failed: 0,
    failureReasons: [],
  });
  const byStart = new Map(starts.map((start) => [start, empty(start)]));
  for (const row of rows) {
    const period = byStart.get(Number(row.lo));
    const n = Number(row.n);
    if (!period || n === 0) continue;
    if (row.status === null) period.failureReasons.push({ code: row.code, count: n });
    else {
      period.byStatus[row.status] = n;
      period.created += n;
      if (row.status === 'delivered' || row.status === 'read') period.delivered += n;
      if (row.status === 'failed') period.failed = n;
    }
  }
  const span = new Map<string | null, number>();
  for (const period of byStart.values()) {
    // Failed without a code: those no code counted (the index holds codes; one statement, one snapshot).
    const uncoded = period.failed - period.failureReasons.reduce((sum, r) => sum + r.count, 0);
    if (uncoded > 0) period.failureReasons.push({ code: null, count: uncoded });
    for (const { code, count } of period.failureReasons) span.set(code, (span.get(code) ?? 0) + count);
    period.failureReasons = mostFrequent(period.failureReasons, top);
  }
  return {
    periods: [...byStart.values()],
    failureReasons: mostFrequent(
      [...span].map(([code, count]) => ({ code, count })),
      top,
    ),
  };
}

/** The `top` most frequent reasons, most first, ties by code (no code last). */
function mostFrequent(reasons: FailureReasonCount[], top: number): FailureReasonCount[] {
  const byCode = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);
  return [...reasons].sort((a, b) => b.count - a.count || byCode(a.code, b.code)).slice(0, Math.max(0, top));
}

export function messagesStore(db: Executor, capabilities: Pick<Capabilities, 'rowLocks'>, allChannels: number): MessagesPort {
  const countByChannel = async (accountId: string, channels: readonly Channel[]): Promise<number> => {
    if (channels.length === 0) return 0;
    const row = await db
      .selectFrom('account_message_counts')
      .select((eb) => eb.fn.sum<number | string | null>('messages').as('total'))
      .where('account_id', '=', accountId)
      .where('channel', 'in', [...channels])
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  };

  return {
    async insertQueued(entries) {
      const postgres = isPostgres(db);
      for (const chunk of chunks(entries, 500)) {
        await insertRows(
          db,
          'messages',
          chunk.map(({ message, payload, suppressionExempt }) => ({
            id: message.id,
            account_id: message.accountId,
            channel: message.channel,
            recipient: message.to,
            sender: message.sender,
            body: message.body,
            payload,
            status: 'queued',
            segments: message.segments,
            cost_micros: message.costMicros,
            charge_state: message.chargeState,
            callback_url: message.callbackUrl,
            scheduled_at: message.scheduledAt,
            created_at: message.createdAt,
            updated_at: message.createdAt,
            sent_at: null,
            delivered_at: null,
            error_code: null,
            error_message: null,
            provider_message_id: null,
            status_sequence: 1,
            dispatch_state: null,
            attempts: 0,
            batch_id: message.batchId,
            request_id: message.requestId,
            trace_context: message.traceContext,
            event_sequence: 0,
            route: null,
            suppression_exempt: suppressionExempt ? 1 : null,
          })),
          postgres ? QUEUED_WITH_HISTORY : undefined,
        );
        if (postgres) continue;
        await insertRows(
          db,
          'message_status_history',
          chunk.map(({ message }) => ({
            message_id: message.id,
            sequence: 1,
            status: 'queued',
            detail: null,
            occurred_at: message.createdAt,
          })),
        );
      }
    },

    async list(query) {
      const unfiltered = query.status === undefined && query.from === undefined && query.to === undefined;
      let filtered = db.selectFrom('messages').where('account_id', '=', query.accountId);
      // With every channel readable, no channel predicate: the (account, created_at) index serves.
      if (query.channels.length < allChannels) filtered = filtered.where('channel', 'in', [...query.channels]);
      if (query.status !== undefined) filtered = filtered.where('status', '=', query.status);
      if (query.from !== undefined) filtered = filtered.where('created_at', '>=', query.from);
      if (query.to !== undefined) filtered = filtered.where('created_at', '<', query.to);
      const [rows, total] = await Promise.all([
        filtered
          .select(MESSAGE_COLUMNS)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(query.limit)
          .offset(query.offset)
          .execute(),
        unfiltered
          ? countByChannel(query.accountId, query.channels)
          : filtered
              .select((eb) => eb.fn.countAll<number>().as('total'))
              .executeTakeFirstOrThrow()
              .then((r) => Number(r.total)),
      ]);
      return { messages: rows.map(toMessage), total };
    },

    async activityByPeriod({ accountId, from, to, periodMs, topReasons }) {
      const starts = periodStarts(from, to, periodMs);
      if (starts.length === 0) return { periods: [], failureReasons: [] };
      // The periods: bound, not written into the SQL, so the statement is the same every hour (SQLite
      // keeps it prepared); cast, so PostgreSQL compares integers. 'failed' is written into the SQL:
      // only then may SQLite read the partial index of failed messages.
      const periods = sql.join(starts.map((lo) => sql`(cast(${lo} as bigint), cast(${lo + periodMs} as bigint))`));
      const failed = sql.lit('failed');
      // Every count is a range of an index, and nothing is sorted: per status and period, a range of
      // (account, status, created_at); per error code and period, one of the failed messages' index,
      // whose codes are found by stepping from one to the next (a handful of seeks, not a scan).
      // Grouping the span's rows by (period, status) or (period, code) instead sorts or hashes every
      // one: on 1,000,000 messages (120,000 failed) in SQLite, 90 ms this way, 450 ms that way.
      const { rows } = await sql<ActivityRow>`with recursive
          p (lo, hi) as (values ${periods}),
          s (status) as (values ${sql.join(MESSAGE_STATUSES.map((status) => sql`(${sql.lit(status)})`))}),
          codes (code) as (
            select min(error_code) from messages where account_id = ${accountId} and status = ${failed}
            union all
            select (select min(m.error_code) from messages m where m.account_id = ${accountId} and m.status = ${failed} and m.error_code > codes.code)
            from codes where codes.code is not null
          )
        select p.lo, s.status, null as code, (select count(*) from messages m
          where m.account_id = ${accountId} and m.status = s.status and m.created_at >= p.lo and m.created_at < p.hi) as n
        from p cross join s
        union all
        select p.lo, null, codes.code, (select count(*) from messages m
          where m.account_id = ${accountId} and m.status = ${failed} and m.error_code = codes.code and m.created_at >= p.lo and m.created_at < p.hi)
        from p cross join codes where codes.code is not null`.execute(db);
      return activityOf(starts, rows, topReasons);
    },

    async queuedTo(accountId, channel, recipient, caseless, limit) {
      // The account's queued messages come from its (account, status, created_at) index; few are queued at once.
      const rows = await db
        .selectFrom('messages')
        .select(MESSAGE_COLUMNS)
        .where('account_id', '=', accountId)
        .where('status', '=', 'queued')
        .where('channel', '=', channel)
        // A STOP's confirmation goes to someone on the list on purpose: a later entry stops it no more than the first.
        .where('suppression_exempt', 'is', null)
        .where((eb) => (caseless ? eb(eb.fn('lower', ['recipient']), '=', recipient) : eb('recipient', '=', recipient)))
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(toMessage);
    },

    async findForAccount(messageId, accountId) {
      const row = await db
        .selectFrom('messages')
        .select(MESSAGE_COLUMNS)
        .where('id', '=', messageId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row && toMessage(row);
    },

    async findById(messageId) {
      const row = await db.selectFrom('messages').select(MESSAGE_COLUMNS).where('id', '=', messageId).executeTakeFirst();
      return row && toMessage(row);
    },

    async findByProviderId(channel, providerMessageId) {
      const row = await db
        .selectFrom('messages')
        .select(MESSAGE_COLUMNS)
        .where('channel', '=', channel)
        .where('provider_message_id', '=', providerMessageId)
        .executeTakeFirst();
      return row && toMessage(row);
    },

    async findByProviderIds(channel, ids, route) {
      const routes = receiptRoutes(route);
      // Each form in turn (see messageIdsByProviderIds): the first that names a part or a message.
      for (const id of ids) {
        // One part per route has the id (recordParts replaces a reused one). For the default route,
        // its own before one recorded with no route, which can only be older (sent before 0023).
        const part = await db
          .selectFrom('message_parts')
          .select(['message_id', 'provider_message_id', 'route'])
          .where('channel', '=', channel)
          .where('provider_message_id', '=', id)
          .$if(routes !== undefined, (q) => q.where(partsOn(routes as Routes)).orderBy('route', 'desc'))
          .executeTakeFirst();
        if (part) {
          const row = await db.selectFrom('messages').select(MESSAGE_COLUMNS).where('id', '=', part.message_id).executeTakeFirst();
          return row && { message: toMessage(row), part: { providerMessageId: part.provider_message_id, route: part.route || null } };
        }
        // SMSC ids are counters that wrap or restart: the newest message with the id is the one meant.
        const row = await db
          .selectFrom('messages')
          .select(MESSAGE_COLUMNS)
          .where('channel', '=', channel)
          .where('provider_message_id', '=', id)
          .$if(routes !== undefined, (q) => q.where(messagesOn(routes as Routes)))
          .orderBy('created_at', 'desc')
          .limit(1)
          .executeTakeFirst();
        if (row) return { message: toMessage(row) };
      }
      return undefined;
    },

    async messageIdsByProviderIds(channel, idGroups, route) {
      const routes = receiptRoutes(route);
      const forms = [...new Set(idGroups.flat())];
      const parts = new Set<string>();
      const newest = new Map<string, { id: string; createdAt: number }>();
      for (const chunk of chunks(forms, 500)) {
        const partRows = await db
          .selectFrom('message_parts')
          .select('provider_message_id')
          .where('channel', '=', channel)
          .where('provider_message_id', 'in', chunk)
          .$if(routes !== undefined, (q) => q.where(partsOn(routes as Routes)))
          .execute();
        for (const row of partRows) parts.add(row.provider_message_id);
        // Found through messages_provider_id (channel, provider_message_id): the route is checked on
        // the few rows with the id, so the index needs no route of its own (migration 0024).
        const rows = await db
          .selectFrom('messages')
          .select(['id', 'provider_message_id', 'created_at'])
          .where('channel', '=', channel)
          .where('provider_message_id', 'in', chunk)
          .$if(routes !== undefined, (q) => q.where(messagesOn(routes as Routes)))
          .execute();
        for (const row of rows) {
          const key = row.provider_message_id as string;
          const known = newest.get(key);
          if (!known || row.created_at > known.createdAt) newest.set(key, { id: row.id, createdAt: row.created_at });
        }
      }
      // Each form in turn, the one given first: an SMSC that counts in hex gives ids whose decimal
      // form is another message's id ("10" is also 16), so a later form is only a fallback.
      // SMSC ids are counters that wrap or restart: of the messages with one id, the newest is meant.
      return idGroups.map((group) => {
        for (const form of group) {
          if (parts.has(form)) return 'part';
          const match = newest.get(form);
          if (match) return match.id;
        }
        return undefined;
      });
    },

    async recordParts(messageId, channel, providerMessageIds, route) {
      if (providerMessageIds.length === 0) return;
      await db
        .insertInto('message_parts')
        .values(
          providerMessageIds.map((id, i) => ({
            channel,
            provider_message_id: id,
            route: route ?? NO_ROUTE,
            message_id: messageId,
            part: i + 1,
            status: null,
          })),
        )
        // An SMSC that reuses an id (its counter wrapped) means the new message from now on; another
        // route's SMSC giving the same id is another part altogether.
        .onConflict((oc) =>
          oc.columns(['channel', 'provider_message_id', 'route']).doUpdateSet((eb) => ({
            message_id: eb.ref('excluded.message_id'),
            part: eb.ref('excluded.part'),
            status: null,
          })),
        )
        .execute();
    },

    async settlePart(channel, { providerMessageId, route }, status) {
      const part = await db
        .selectFrom('message_parts')
        .select('message_id')
        .where('channel', '=', channel)
        .where('provider_message_id', '=', providerMessageId)
        .where('route', '=', route ?? NO_ROUTE)
        .executeTakeFirst();
      if (!part) return { undelivered: 0 };
      // Receipts of the other parts may be applied at the same moment: each takes the message's
      // row lock first, so the last to count sees every other part's state (else each would see
      // the others undelivered and none would deliver the message).
      if (capabilities.rowLocks) await db.selectFrom('messages').select('id').where('id', '=', part.message_id).forUpdate().execute();
      await db
        .updateTable('message_parts')
        .set({ status })
        .where('channel', '=', channel)
        .where('provider_message_id', '=', providerMessageId)
        .where('route', '=', route ?? NO_ROUTE)
        .execute();
      const left = await db
        .selectFrom('message_parts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('message_id', '=', part.message_id)
        .where((eb) => eb.or([eb('status', 'is', null), eb('status', '!=', 'delivered')]))
        .executeTakeFirstOrThrow();
      return { undelivered: Number(left.n) };
    },

    async whatsAppAccountsWriting(recipient) {
      // The channel written into the SQL, not bound: the planner sees at once that the index of
      // WhatsApp recipients (migration 0012, partial) covers the query, whatever it does with bound values.
      const rows = await db
        .selectFrom('messages')
        .select((eb) => ['account_id', eb.fn.max('created_at').as('last')])
        .where('channel', '=', sql.lit('whatsapp'))
        .where('recipient', '=', recipient)
        .groupBy('account_id')
        .orderBy('last', 'desc')
        .execute();
      return rows.map((row) => row.account_id);
    },

    async payload(messageId) {
      const row = await db.selectFrom('messages').select('payload').where('id', '=', messageId).executeTakeFirst();
      return row?.payload ?? null;
    },

    async transition(change: Transition) {
      let update = db
        .updateTable('messages')
        .set((eb) => ({
          status: change.to,
          status_sequence: eb('status_sequence', '+', 1),
          updated_at: change.at,
          ...(change.sentAt !== undefined ? { sent_at: change.sentAt } : {}),
          ...(change.deliveredAt !== undefined ? { delivered_at: change.deliveredAt } : {}),
          ...(change.providerMessageId !== undefined ? { provider_message_id: change.providerMessageId } : {}),
          ...(change.route !== undefined ? { route: change.route } : {}),
          ...(change.chargeState !== undefined ? { charge_state: change.chargeState } : {}),
          ...(change.error !== undefined ? { error_code: change.error?.code ?? null, error_message: change.error?.message ?? null } : {}),
          ...(change.clearInFlight ? { dispatch_state: null } : {}),
        }))
        .where('id', '=', change.messageId)
        .where('status', 'in', [...change.from]);
      if (change.requireNotInFlight) update = update.where('dispatch_state', 'is', null);
      const updated = await update.returning('status_sequence').executeTakeFirst();
      if (!updated) return false;
      await db
        .insertInto('message_status_history')
        .values({
          message_id: change.messageId,
          sequence: updated.status_sequence,
          status: change.to,
          detail: change.detail,
          occurred_at: change.at,
        })
        .execute();
      return true;
    },

    async transitionMany(changes, options) {
      const moved = new Map<string, { message: MovedMessage; eventSequence: number }>();
      const first = changes[0];
      if (!first) return moved;
      const sameKind = (c: Transition) =>
        c.to === first.to &&
        (c.from === first.from || (c.from.length === first.from.length && c.from.every((status, i) => status === first.from[i]))) &&
        c.chargeState === first.chargeState &&
        c.clearInFlight === first.clearInFlight &&
        c.requireNotInFlight === first.requireNotInFlight &&
        (c.sentAt === undefined) === (first.sentAt === undefined) &&
        (c.deliveredAt === undefined) === (first.deliveredAt === undefined) &&
        (c.providerMessageId === undefined) === (first.providerMessageId === undefined) &&
        (c.route === undefined) === (first.route === undefined) &&
        (c.error === undefined) === (first.error === undefined);
      if (!changes.every(sameKind)) throw new Error('transitionMany takes changes of one kind');
      // Values that differ from row to row come from one JSON parameter (see json-rows.ts).
      const perRow: Record<string, JsonColumnType> = { id: 'text', at: 'bigint' };
      if (first.sentAt !== undefined) perRow.sent_at = 'bigint';
      if (first.deliveredAt !== undefined) perRow.delivered_at = 'bigint';
      if (first.providerMessageId !== undefined) perRow.provider_message_id = 'text';
      if (first.route !== undefined) perRow.route = 'text';
      if (first.error !== undefined) Object.assign(perRow, { error_code: 'text', error_message: 'text' });
      const set = [
        sql`status = ${first.to}`,
        sql`status_sequence = status_sequence + 1`,
        sql`updated_at = v.at`,
        ...(options.countEvent ? [sql`event_sequence = event_sequence + 1`] : []),
        ...Object.keys(perRow)
          .filter((column) => column !== 'id' && column !== 'at')
          .map((column) => sql`${sql.ref(column)} = ${sql.ref(`v.${column}`)}`),
        ...(first.chargeState !== undefined ? [sql`charge_state = ${first.chargeState}`] : []),
        ...(first.clearInFlight ? [sql`dispatch_state = null`] : []),
      ];
      // In id order: two transactions on PostgreSQL moving overlapping messages then lock their rows
      // in the same order, and one waits for the other instead of both deadlocking.
      const ordered = [...changes].sort((a, b) => (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0));
      // Checked over all of them, before anything is written: a message twice in two chunks would move twice.
      const byId = new Map(changes.map((change) => [change.messageId, change]));
      if (byId.size !== changes.length) throw new Error('transitionMany takes each message once');
      const postgres = isPostgres(db);
      // PostgreSQL writes the history rows in the update's statement: each row's detail comes with
      // its values (after `set` is built, so it is never a column set on the message).
      if (postgres) perRow.detail = 'text';
      for (const chunk of chunks(ordered, 1000)) {
        const values = chunk.map((c) => ({
          id: c.messageId,
          at: c.at,
          detail: c.detail,
          sent_at: c.sentAt,
          delivered_at: c.deliveredAt,
          provider_message_id: c.providerMessageId,
          route: c.route,
          error_code: c.error?.code,
          error_message: c.error?.message,
        }));
        const update = sql<MovedRow>`update messages set ${sql.join(set)} from ${jsonRows(db, perRow, values)}
          where messages.id = v.id and messages.status in (${sql.join(first.from)})
          ${first.requireNotInFlight ? sql`and messages.dispatch_state is null` : sql``}
          returning ${sql.join(MOVED_COLUMNS.map((column) => sql.ref(`messages.${column}`)))}`;
        if (postgres) {
          // The history rows in the same statement: one round trip, not two, for every wave of
          // sent and every batch of delivered messages.
          const { rows } = await sql<MovedRow>`with moved as (${update}, v.detail as history_detail, v.at as history_at),
            history as (insert into message_status_history (message_id, sequence, status, detail, occurred_at)
              select id, status_sequence, ${first.to}, history_detail, history_at from moved)
            select * from moved`.execute(db);
          for (const row of rows) moved.set(row.id, { message: toMovedMessage(row), eventSequence: row.event_sequence });
          continue;
        }
        const { rows } = await update.execute(db);
        if (rows.length === 0) continue;
        await insertRows(
          db,
          'message_status_history',
          rows.map((row) => {
            const change = byId.get(row.id) as Transition;
            return { message_id: row.id, sequence: row.status_sequence, status: first.to, detail: change.detail, occurred_at: change.at };
          }),
        );
        for (const row of rows) moved.set(row.id, { message: toMovedMessage(row), eventSequence: row.event_sequence });
      }
      return moved;
    },

    async findByIds(messageIds) {
      const found: Message[] = [];
      for (const chunk of chunks(messageIds, 1000)) {
        const rows = await db.selectFrom('messages').select(MESSAGE_COLUMNS).where('id', 'in', chunk).execute();
        for (const row of rows) found.push(toMessage(row));
      }
      return found;
    },

    async markInFlight(messageIds, options = {}) {
      if (messageIds.length === 0) return [];
      let select = db
        .selectFrom('messages')
        .select([...MESSAGE_COLUMNS, 'suppression_exempt'])
        .where('id', 'in', [...messageIds])
        .where('status', '=', 'queued');
      // Locked until the caller's transaction ends, so a cancel committing in between cannot
      // leave a canceled message marked for hand-over (the lock makes the cancel wait, or us).
      if (capabilities.rowLocks) select = options.noWait ? select.forUpdate().noWait() : select.forUpdate();
      const before = await select.execute();
      if (before.length === 0) return [];
      const claimOnly = options.claimOnly ?? [];
      await db
        .updateTable('messages')
        .set((eb) => ({
          // One statement whatever the mix: a message left in flight by an earlier attempt stays in
          // flight (it may be at the provider), the others of claim-only channels are only claimed.
          dispatch_state:
            claimOnly.length === 0
              ? 'in_flight'
              : eb
                  .case()
                  .when(
                    eb.and([
                      eb('channel', 'in', [...claimOnly]),
                      eb.or([eb('dispatch_state', 'is', null), eb('dispatch_state', '!=', 'in_flight')]),
                    ]),
                  )
                  .then(sql.lit<DispatchState>('claimed'))
                  .else(sql.lit<DispatchState>('in_flight'))
                  .end(),
          attempts: eb('attempts', '+', 1),
        }))
        .where(
          'id',
          'in',
          before.map((row) => row.id),
        )
        .where('status', '=', 'queued')
        .execute();
      return before.map((row) => ({ message: toMessage(row), payload: row.payload, suppressionExempt: row.suppression_exempt === 1 }));
    },

    async markHandedOver(claims) {
      const moved = new Set<string>();
      for (const chunk of chunks(claims, 1000)) {
        const values = chunk.map((claim) => ({ id: claim.messageId, attempts: claim.attempts }));
        const { rows } = await sql<{ id: string }>`update messages set dispatch_state = ${sql.lit('in_flight')}
          from ${jsonRows(db, { id: 'text', attempts: 'bigint' }, values)}
          where messages.id = v.id and messages.attempts = v.attempts
            and messages.status = ${sql.lit('queued')} and messages.dispatch_state = ${sql.lit('claimed')}
          returning messages.id`.execute(db);
        for (const row of rows) moved.add(row.id);
      }
      return moved;
    },

    async noteWaiting(notes) {
      for (const chunk of chunks(notes, 1000)) {
        const values = chunk.map((note) => ({ id: note.messageId, code: note.error.code, message: note.error.message }));
        await sql`update messages set error_code = v.code, error_message = v.message
          from ${jsonRows(db, { id: 'text', code: 'text', message: 'text' }, values)}
          where messages.id = v.id and messages.status = ${sql.lit('queued')}`.execute(db);
      }
    },

    async clearInFlight(messageId, attempts) {
      await db.updateTable('messages').set({ dispatch_state: null }).where('id', '=', messageId).where('attempts', '=', attempts).execute();
    },

    async statusHistories(messageIds) {
      const histories = new Map<string, StatusChange[]>(messageIds.map((id) => [id, []]));
      if (messageIds.length === 0) return histories;
      const rows = await db
        .selectFrom('message_status_history')
        .select(['message_id', 'status', 'detail', 'occurred_at'])
        .where('message_id', 'in', [...messageIds])
        .orderBy('message_id')
        .orderBy('sequence')
        .execute();
      for (const row of rows) {
        histories.get(row.message_id)?.push({ status: row.status as MessageStatus, occurredAt: row.occurred_at, detail: row.detail });
      }
      return histories;
    },

    async statusHistory(messageId) {
      const rows = await db
        .selectFrom('message_status_history')
        .select(['status', 'detail', 'occurred_at'])
        .where('message_id', '=', messageId)
        .orderBy('sequence')
        .execute();
      return rows.map(
        (row): StatusChange => ({
          status: row.status as MessageStatus,
          occurredAt: row.occurred_at,
          detail: row.detail,
        }),
      );
    },
  };
}
