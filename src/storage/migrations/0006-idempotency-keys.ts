import type { Kysely } from 'kysely';

/**
 * Idempotency keys (Idempotency-Key on POST /v1/...): per account, the request's fingerprint and,
 * once it has run, the response to replay to a retry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    /** SHA-256 of the method, the path and the canonical JSON body. */
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    /** `running` while the first request is handled, `done` once its response is stored. */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('content_type', 'text')
    .addColumn('body', 'text')
    /** A running request's claim lapses then (its process died): a retry may take it over. */
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires').on('idempotency_keys').column('expires_at').execute();
}
