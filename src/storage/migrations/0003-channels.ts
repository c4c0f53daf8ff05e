import type { Kysely } from 'kysely';

/**
 * What the other channels need: WhatsApp templates and the inbound messages that open a session
 * window, email engagement events, bulk batches, and indexes for filtered message lists.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('batch_id', 'text').execute();
  // Messages per channel, kept with each insert (the account row is already locked by the
  // reservation), so an unfiltered list's total needs no count over a million rows.
  for (const channel of ['sms', 'whatsapp', 'email', 'telegram']) {
    await db.schema
      .alterTable('accounts')
      .addColumn(`messages_${channel}`, 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  // Filtered lists ("this account's failed SMS, newest first") stay index-only walks.
  await db.schema
    .createIndex('messages_account_channel_created')
    .on('messages')
    .columns(['account_id', 'channel', 'created_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('messages_account_status_created')
    .on('messages')
    .columns(['account_id', 'status', 'created_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('messages_account_channel_status_created')
    .on('messages')
    .columns(['account_id', 'channel', 'status', 'created_at desc', 'id desc'])
    .execute();
  await db.schema.createIndex('messages_batch').on('messages').column('batch_id').execute();

  await db.schema
    .createTable('whatsapp_templates')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('components', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('whatsapp_templates_pk', ['account_id', 'name', 'language'])
    .execute();

  await db.schema
    .createTable('whatsapp_inbound')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('last_inbound_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('whatsapp_inbound_pk', ['account_id', 'phone'])
    .execute();

  await db.schema
    .createTable('email_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'text')
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_events_message').on('email_events').columns(['message_id', 'occurred_at']).execute();

  // Secrets every node shares (e.g. the key that signs email tracking links), made on first use.
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
