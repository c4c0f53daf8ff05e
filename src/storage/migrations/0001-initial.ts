import { type Kysely, sql } from 'kysely';

/**
 * Accounts, their OAuth clients, the credit ledger, messages with their status history, and
 * token signing keys. Forward-only: a later change is a new numbered migration, never an edit here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('credits_micros', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reserved_micros', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // The last line of defence against overspending: whatever the code does, a reservation can
    // never exceed the balance.
    .addCheckConstraint('accounts_reserved_within_credits', sql`reserved_micros >= 0 and reserved_micros <= credits_micros`)
    .execute();

  await db.schema
    .createTable('api_clients')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('secret_rotated_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_clients_account').on('api_clients').column('account_id').execute();

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('credits_delta', 'bigint', (c) => c.notNull())
    .addColumn('reserved_delta', 'bigint', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('credit_ledger_account').on('credit_ledger').columns(['account_id', 'created_at']).execute();
  await db.schema.createIndex('credit_ledger_message').on('credit_ledger').column('message_id').execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('sender', 'text')
    .addColumn('body', 'text')
    .addColumn('payload', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('segments', 'integer')
    .addColumn('cost_micros', 'bigint', (c) => c.notNull())
    .addColumn('charge_state', 'text', (c) => c.notNull())
    .addColumn('callback_url', 'text')
    .addColumn('scheduled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('delivered_at', 'bigint')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('provider_message_id', 'text')
    .execute();
  // Serves "this account's messages, newest first" (the list endpoint and its filters).
  await db.schema.createIndex('messages_account_created').on('messages').columns(['account_id', 'created_at desc', 'id desc']).execute();

  await db.schema
    .createTable('message_status_history')
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id'))
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_status_history_pk', ['message_id', 'sequence'])
    .execute();

  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .execute();
}
