import type { Kysely } from 'kysely';

/**
 * Named API clients with their own scopes and a grace period for a replaced secret; accounts the
 * operator can suspend; notes on allow-list entries; and the operator's own people, who sign in to
 * the operator pages of the dashboard with sessions of their own (docs/dashboard.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_clients')
    .addColumn('name', 'text', (c) => c.notNull().defaultTo('Default'))
    .execute();
  // Space-separated scopes this client may be granted (within the account's); null: all of the account's.
  await db.schema.alterTable('api_clients').addColumn('scopes', 'text').execute();
  // The secret a rotation replaced, accepted until `previous_secret_until` (a grace period the user picked).
  await db.schema.alterTable('api_clients').addColumn('previous_secret_hash', 'text').execute();
  await db.schema.alterTable('api_clients').addColumn('previous_secret_until', 'bigint').execute();

  await db.schema.alterTable('accounts').addColumn('suspended_at', 'bigint').execute();
  await db.schema.alterTable('ip_allow_rules').addColumn('note', 'text').execute();

  await db.schema
    .createTable('operators')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('operator_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('operator_sessions_operator').on('operator_sessions').column('operator_id').execute();
}
