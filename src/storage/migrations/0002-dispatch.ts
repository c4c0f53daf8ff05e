import type { Kysely } from 'kysely';

/**
 * The delivery pipeline: a durable job queue (the transactional outbox: a message and its delivery
 * job commit together), per-message dispatch bookkeeping, and the sandbox carrier's own records.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('messages')
    .addColumn('status_sequence', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  // 'in_flight' from the moment a worker hands the message to a provider until the outcome is
  // stored: a message found in flight after a crash may already be at the provider.
  await db.schema.alterTable('messages').addColumn('dispatch_state', 'text').execute();
  await db.schema
    .alterTable('messages')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('messages_provider_id').on('messages').columns(['channel', 'provider_message_id']).execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('payload', 'text')
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['run_at', 'id']).execute();
  await db.schema.createIndex('jobs_message').on('jobs').column('message_id').execute();

  await db.schema
    .createTable('sandbox_submissions')
    .addColumn('message_id', 'text', (c) => c.primaryKey())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('provider_message_id', 'text')
    .addColumn('accepted_at', 'bigint')
    .addColumn('duplicates', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
