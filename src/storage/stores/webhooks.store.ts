import { sql } from 'kysely';
import type {
  DeliveryContext,
  DeliveryStatus,
  StoredEvent,
  Webhook,
  WebhookDelivery,
  WebhookSigningSecrets,
  WebhooksPort,
} from '../../core/ports.js';
import type { Executor } from '../database.js';
import type { EventsTable, WebhookDeliveriesTable, WebhookSecretsTable, WebhooksTable } from '../schema.js';
import { chunks } from './chunks.js';
import { type JsonColumnType, jsonRows } from './json-rows.js';

/** What `recordAttempts` writes of a delivery, keyed by its id. */
const ATTEMPT_COLUMNS: Readonly<Record<string, JsonColumnType>> = {
  id: 'text',
  status: 'text',
  attempts: 'bigint',
  last_status_code: 'bigint',
  last_error: 'text',
  last_latency_ms: 'bigint',
  last_attempt_at: 'bigint',
  next_attempt_at: 'bigint',
};

const fromEvent = (event: StoredEvent) => ({
  id: event.id,
  account_id: event.accountId,
  message_id: event.messageId,
  type: event.type,
  body: event.body,
  created_at: event.createdAt,
});

const toEvent = (row: EventsTable): StoredEvent => ({
  id: row.id,
  accountId: row.account_id,
  messageId: row.message_id,
  type: row.type,
  body: row.body,
  createdAt: row.created_at,
});

const toWebhook = (row: WebhooksTable): Webhook => ({
  id: row.id,
  accountId: row.account_id,
  url: row.url,
  events: JSON.parse(row.events) as string[],
  description: row.description,
  active: Number(row.active) === 1,
  disabledReason: row.disabled_reason,
  failingSince: row.failing_since,
  createdAt: row.created_at,
});

const toDelivery = (row: WebhookDeliveriesTable): WebhookDelivery => ({
  id: row.id,
  accountId: row.account_id,
  eventId: row.event_id,
  webhookId: row.webhook_id,
  url: row.url,
  status: row.status as DeliveryStatus,
  attempts: row.attempts,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  lastLatencyMs: row.last_latency_ms,
  lastAttemptAt: row.last_attempt_at,
  nextAttemptAt: row.next_attempt_at,
  createdAt: row.created_at,
});

const fromDelivery = (d: WebhookDelivery): WebhookDeliveriesTable => ({
  id: d.id,
  account_id: d.accountId,
  event_id: d.eventId,
  webhook_id: d.webhookId,
  url: d.url,
  status: d.status,
  attempts: d.attempts,
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  last_latency_ms: d.lastLatencyMs,
  last_attempt_at: d.lastAttemptAt,
  next_attempt_at: d.nextAttemptAt,
  created_at: d.createdAt,
});

const toSecrets = (row: WebhookSecretsTable): WebhookSigningSecrets => ({
  secret: row.secret,
  previousSecret: row.previous_secret,
  previousUntil: row.previous_until,
  rotatedAt: row.rotated_at,
});

export function webhooksStore(db: Executor): WebhooksPort {
  /** The attempt columns of many deliveries, one statement per thousand (ATTEMPT_COLUMNS). */
  const recordAttempts = async (deliveries: readonly WebhookDelivery[]): Promise<void> => {
    for (const chunk of chunks(deliveries, 1000)) {
      await sql`update webhook_deliveries set status = v.status, attempts = v.attempts, last_status_code = v.last_status_code,
          last_error = v.last_error, last_latency_ms = v.last_latency_ms, last_attempt_at = v.last_attempt_at,
          next_attempt_at = v.next_attempt_at
        from ${jsonRows(
          db,
          ATTEMPT_COLUMNS,
          chunk.map((d) => ({ ...fromDelivery(d) })),
        )} where webhook_deliveries.id = v.id`.execute(db);
    }
  };

  const activeForAccounts: WebhooksPort['activeForAccounts'] = async (accountIds) => {
    const byAccount = new Map<string, Webhook[]>();
    for (const chunk of chunks([...new Set(accountIds)], 1000)) {
      const rows = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('account_id', 'in', chunk)
        .where('active', '=', 1)
        .where('deleted_at', 'is', null)
        .execute();
      for (const row of rows) {
        const list = byAccount.get(row.account_id) ?? [];
        list.push(toWebhook(row));
        byAccount.set(row.account_id, list);
      }
    }
    return byAccount;
  };
  const signingSecrets: WebhooksPort['signingSecrets'] = async (accountId, create, at) => {
    // Read first: every delivery asks, and only an account's first one has to write.
    const existing = await db.selectFrom('webhook_secrets').selectAll().where('account_id', '=', accountId).executeTakeFirst();
    if (existing) return toSecrets(existing);
    await db
      .insertInto('webhook_secrets')
      .values({ account_id: accountId, secret: create(), previous_secret: null, previous_until: null, rotated_at: at })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .execute();
    return toSecrets(await db.selectFrom('webhook_secrets').selectAll().where('account_id', '=', accountId).executeTakeFirstOrThrow());
  };

  const find = async (accountId: string, webhookId: string) => {
    const row = await db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', webhookId)
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row && toWebhook(row);
  };

  return {
    async insertEvent(event) {
      await db.insertInto('events').values(fromEvent(event)).execute();
    },

    async insertEvents(events) {
      for (const chunk of chunks(events, 1000)) await db.insertInto('events').values(chunk.map(fromEvent)).execute();
    },

    async findEvent(eventId) {
      const row = await db.selectFrom('events').selectAll().where('id', '=', eventId).executeTakeFirst();
      return row && toEvent(row);
    },

    async nextEventSequence(messageId) {
      const row = await db
        .updateTable('messages')
        .set((eb) => ({ event_sequence: eb('event_sequence', '+', 1) }))
        .where('id', '=', messageId)
        .returning('event_sequence')
        .executeTakeFirstOrThrow();
      return row.event_sequence;
    },

    async create(webhook) {
      await db
        .insertInto('webhooks')
        .values({
          id: webhook.id,
          account_id: webhook.accountId,
          url: webhook.url,
          events: JSON.stringify(webhook.events),
          description: webhook.description,
          active: webhook.active ? 1 : 0,
          disabled_reason: webhook.disabledReason,
          failing_since: webhook.failingSince,
          created_at: webhook.createdAt,
          deleted_at: null,
        })
        .execute();
    },

    async list(accountId) {
      const rows = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('deleted_at', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toWebhook);
    },

    find,

    async delete(accountId, webhookId, at) {
      const result = await db
        .updateTable('webhooks')
        .set({ deleted_at: at, active: 0 })
        .where('id', '=', webhookId)
        .where('account_id', '=', accountId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'canceled', next_attempt_at: null })
        .where('webhook_id', '=', webhookId)
        .where('status', '=', 'pending')
        .execute();
      return true;
    },

    async setActive(webhookId, active, reason) {
      await db
        .updateTable('webhooks')
        .set({ active: active ? 1 : 0, disabled_reason: active ? null : reason, ...(active ? { failing_since: null } : {}) })
        .where('id', '=', webhookId)
        .execute();
    },

    async recordAttemptOutcome(webhookId, succeeded, at) {
      if (succeeded) {
        await db.updateTable('webhooks').set({ failing_since: null }).where('id', '=', webhookId).execute();
      } else {
        // The streak starts at the first failure after a success and is kept until the next success.
        await db
          .updateTable('webhooks')
          .set({ failing_since: at })
          .where('id', '=', webhookId)
          .where('failing_since', 'is', null)
          .execute();
      }
      const row = await db.selectFrom('webhooks').selectAll().where('id', '=', webhookId).executeTakeFirst();
      return row && toWebhook(row);
    },

    async succeededSince(webhookId, at) {
      // The webhook's deliveries through its (webhook_id, created_at) index: read only when a
      // streak is about to disable it.
      const row = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('webhook_id', '=', webhookId)
        .where('status', '=', 'succeeded')
        .where('last_attempt_at', '>=', at)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async active(accountId) {
      return (await activeForAccounts([accountId])).get(accountId) ?? [];
    },

    activeForAccounts,

    async insertDeliveries(deliveries) {
      for (const chunk of chunks(deliveries, 500)) await db.insertInto('webhook_deliveries').values(chunk.map(fromDelivery)).execute();
    },

    async findDelivery(deliveryId) {
      const row = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).executeTakeFirst();
      return row && toDelivery(row);
    },

    async deliveryContexts(deliveryIds) {
      const contexts = new Map<string, DeliveryContext>();
      // One statement for the deliveries that start together, with their event (and where its
      // message came from: request id and trace, for the log line and span), their webhook and
      // their account's signing secrets: four round trips a turn on PostgreSQL were a tenth of the
      // dispatch thread's queries with receipts.
      for (const chunk of chunks([...new Set(deliveryIds)], 500)) {
        const rows = await db
          .selectFrom('webhook_deliveries as d')
          .leftJoin('events as e', 'e.id', 'd.event_id')
          .leftJoin('messages as m', 'm.id', 'e.message_id')
          // A webhook of another account is no webhook of this delivery's.
          .leftJoin('webhooks as w', (join) =>
            join.onRef('w.id', '=', 'd.webhook_id').onRef('w.account_id', '=', 'd.account_id').on('w.deleted_at', 'is', null),
          )
          .leftJoin('webhook_secrets as s', 's.account_id', 'd.account_id')
          .selectAll('d')
          .select([
            'e.id as e_id',
            'e.account_id as e_account_id',
            'e.message_id as e_message_id',
            'e.type as e_type',
            'e.body as e_body',
            'e.created_at as e_created_at',
            'm.request_id as m_request_id',
            'm.trace_context as m_trace_context',
            'w.id as w_id',
            'w.url as w_url',
            'w.events as w_events',
            'w.description as w_description',
            'w.active as w_active',
            'w.disabled_reason as w_disabled_reason',
            'w.failing_since as w_failing_since',
            'w.created_at as w_created_at',
            's.secret as s_secret',
            's.previous_secret as s_previous_secret',
            's.previous_until as s_previous_until',
            's.rotated_at as s_rotated_at',
          ])
          .where('d.id', 'in', chunk)
          .execute();
        for (const row of rows) {
          const delivery = toDelivery(row);
          contexts.set(delivery.id, {
            delivery,
            webhook:
              row.w_id === null
                ? undefined
                : toWebhook({
                    id: row.w_id,
                    account_id: row.account_id,
                    url: row.w_url as string,
                    events: row.w_events as string,
                    description: row.w_description,
                    active: row.w_active as number,
                    disabled_reason: row.w_disabled_reason,
                    failing_since: row.w_failing_since,
                    created_at: row.w_created_at as number,
                    deleted_at: null,
                  }),
            event:
              row.e_id === null
                ? undefined
                : toEvent({
                    id: row.e_id,
                    account_id: row.e_account_id as string,
                    message_id: row.e_message_id,
                    type: row.e_type as string,
                    body: row.e_body as string,
                    created_at: row.e_created_at as number,
                  }),
            origin: row.e_message_id ? { requestId: row.m_request_id, traceContext: row.m_trace_context } : undefined,
            secrets:
              row.s_secret === null
                ? undefined
                : toSecrets({
                    account_id: row.account_id,
                    secret: row.s_secret,
                    previous_secret: row.s_previous_secret,
                    previous_until: row.s_previous_until,
                    rotated_at: row.s_rotated_at as number,
                  }),
          });
        }
      }
      return contexts;
    },

    async clearFailureStreaks(webhookIds) {
      for (const chunk of chunks([...new Set(webhookIds)], 1000)) {
        await db
          .updateTable('webhooks')
          .set({ failing_since: null })
          .where('id', 'in', chunk)
          .where('failing_since', 'is not', null)
          .execute();
      }
    },

    // A delivery's own columns never change: only what its attempts wrote is written again.
    updateDelivery: (delivery) => recordAttempts([delivery]),
    recordAttempts,

    async listDeliveries(query) {
      let filtered = db.selectFrom('webhook_deliveries').where('webhook_id', '=', query.webhookId);
      if (query.status) filtered = filtered.where('status', '=', query.status);
      const [rows, count] = await Promise.all([
        filtered
          .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
          .selectAll('webhook_deliveries')
          .select('events.type as event_type')
          .orderBy('webhook_deliveries.created_at', 'desc')
          .orderBy('webhook_deliveries.id', 'desc')
          .limit(query.limit)
          .offset(query.offset)
          .execute(),
        filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { deliveries: rows.map((row) => Object.assign(toDelivery(row), { eventType: row.event_type })), total: Number(count.total) };
    },

    async deliveriesOfMessage(accountId, messageId, limit) {
      const rows = await db
        .selectFrom('events')
        .innerJoin('webhook_deliveries', 'webhook_deliveries.event_id', 'events.id')
        .selectAll('webhook_deliveries')
        .select('events.type as event_type')
        .where('events.message_id', '=', messageId)
        .where('events.account_id', '=', accountId)
        .orderBy('webhook_deliveries.created_at', 'desc')
        .orderBy('webhook_deliveries.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => Object.assign(toDelivery(row), { eventType: row.event_type }));
    },

    async failedSince(webhookId, since, limit) {
      const rows = await db
        .selectFrom('webhook_deliveries as failed')
        .selectAll('failed')
        .where('failed.webhook_id', '=', webhookId)
        .where('failed.status', '=', 'failed')
        .where('failed.created_at', '>=', since)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('webhook_deliveries as other')
                .select('other.id')
                .whereRef('other.event_id', '=', 'failed.event_id')
                .where('other.webhook_id', '=', webhookId)
                .where('other.status', 'in', ['pending', 'succeeded']),
            ),
          ),
        )
        .orderBy('failed.created_at')
        .orderBy('failed.id')
        .limit(limit)
        .execute();
      return rows.map(toDelivery);
    },

    signingSecrets,

    async rotateSigningSecret(accountId, next, at, overlapMs) {
      const current = await signingSecrets(accountId, () => next, at);
      if (current.secret === next) return current; // first use: nothing to rotate from
      await db
        .updateTable('webhook_secrets')
        .set({ secret: next, previous_secret: current.secret, previous_until: at + overlapMs, rotated_at: at })
        .where('account_id', '=', accountId)
        .execute();
      return { secret: next, previousSecret: current.secret, previousUntil: at + overlapMs, rotatedAt: at };
    },
  };
}
