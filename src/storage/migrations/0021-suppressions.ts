import { type Kysely, sql } from 'kysely';

/**
 * Each account's suppression list (docs/suppression.md): a recipient of a channel who must not be
 * sent to, why and from where. One row per (account, channel, recipient); sends look it up by that key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('suppressions')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('suppressions_pk', ['account_id', 'channel', 'recipient'])
    .execute();
  // The list, newest first, paged by (created_at, channel, recipient).
  await db.schema.createIndex('suppressions_account_created').on('suppressions').columns(['account_id', 'created_at']).execute();
  // Accounts that could be granted every scope may now manage their suppression list too.
  await sql`update accounts set scopes = scopes || ' suppressions:manage' where scopes like '%webhooks:manage%'`.execute(db);
}
