import type { Kysely } from 'kysely';

/**
 * Webhooks: registered endpoints, the account's signing secrets, the events (written in the same
 * transaction as the change they describe) and one delivery row per event and receiver.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Events of one message are numbered so receivers can put them back in order.
  await db.schema
    .alterTable('messages')
    .addColumn('event_sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // Finds the accounts an inbound WhatsApp message belongs to (those that wrote to that number).
  await db.schema.createIndex('messages_recipient_channel').on('messages').columns(['recipient', 'channel']).execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('message_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    /** The whole body sent to receivers, JSON, so every delivery and replay sends the same bytes. */
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_account_created').on('events').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    /** JSON array of event types, or ["*"]. */
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    /** Start of the current run of failed deliveries; null after a success. */
    .addColumn('failing_since', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('webhooks_account').on('webhooks').column('account_id').execute();

  await db.schema
    .createTable('webhook_secrets')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('secret', 'text', (c) => c.notNull())
    /** The secret before the last rotation, still signing beside the new one until previous_until. */
    .addColumn('previous_secret', 'text')
    .addColumn('previous_until', 'bigint')
    .addColumn('rotated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    /** The registered webhook, or null for a message's own callback_url. */
    .addColumn('webhook_id', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    /** pending (to be tried, or retrying), succeeded, failed (gave up), canceled (webhook gone). */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_latency_ms', 'integer')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_webhook_created')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at desc', 'id desc'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();
}
