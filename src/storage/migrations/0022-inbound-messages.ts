import type { Kysely } from 'kysely';

/**
 * Two-way messaging (docs/inbound.md): the messages recipients send to an account, the addresses
 * that lead a message to its account (an SMS number or sender id, a WhatsApp business number, a
 * Telegram bot, an email address or domain), the parts of long SMS waiting for the rest, and each
 * account's replies to STOP and START keywords.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('inbound_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('payload', 'text')
    .addColumn('provider_message_id', 'text')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // A provider that sends the same message again (a webhook retried, a deliver_sm resent) adds nothing.
  await db.schema
    .createIndex('inbound_messages_provider_id')
    .unique()
    .on('inbound_messages')
    .columns(['account_id', 'channel', 'provider_message_id'])
    .execute();
  // The list, newest first, paged by (created_at, id); and per channel.
  await db.schema
    .createIndex('inbound_messages_account_created')
    .on('inbound_messages')
    .columns(['account_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('channel_addresses')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('channel_addresses_pk', ['channel', 'address'])
    .execute();
  await db.schema.createIndex('channel_addresses_account').on('channel_addresses').columns(['account_id']).execute();

  await db.schema
    .createTable('inbound_parts')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('reference', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('inbound_parts_pk', ['channel', 'sender', 'recipient', 'reference', 'part'])
    .execute();

  await db.schema
    .createTable('keyword_replies')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('stop_reply', 'text', (c) => c.notNull())
    .addColumn('start_reply', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('keyword_replies_pk', ['account_id', 'language'])
    .execute();
}
