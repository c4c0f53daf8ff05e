import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../database.js';

/**
 * Receipts and long-message parts per route (docs/routing.md). Two SMSCs may hand out the same
 * ids (many count from 1) and pass on two messages with the same sender, number and reference, so
 * the route becomes part of two keys:
 *
 * - `message_parts` (the SMSC's id of each part of a long SMS we sent): keyed by (channel,
 *   provider_message_id, route). Route b's part with the id of route a's no longer replaces it, and
 *   a receipt looks its part up by the key's first two columns, then the route, as before: indexed
 *   whether the receipt names a route or not. The parts already there take their message's route,
 *   or '' (none) for messages sent before 0023, which the default route's receipts still match
 *   (core/delivery/provider.ts, receiptRoutes).
 * - `inbound_parts` (parts of long messages recipients sent, waiting for the rest): keyed by
 *   (channel, route, sender, recipient, reference, part), so parts from two SMSCs never join. The
 *   parts waiting now are taken as the default route's: before 0023 every SMS came through the
 *   single link that is now the route `default`, so its long messages are still completed across the
 *   upgrade. (With SMS_ROUTES, a message half-received on another route at that moment is not.)
 *
 * `messages` itself keeps its index of provider ids, (channel, provider_message_id) where there is
 * one: a receipt's look-up finds the few messages with its id through it, and the route is checked
 * on those rows. Rebuilding the largest table's index to add the route would gain nothing here.
 *
 * PostgreSQL changes both keys in place; SQLite cannot change a primary key, so each table is copied
 * once into its new form. `message_parts` keeps a row per part of every long SMS sent: for 500,000
 * parts this took 1.8 s on SQLite and 4.5 s on PostgreSQL (measured, 2 cores). A node of an older
 * version cannot record parts once it has run (its upsert names the old key): docs/configuration.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    // The key goes first: the update then maintains one index fewer (4.5 s for 500,000 parts, not 9).
    await db.schema.alterTable('message_parts').dropConstraint('message_parts_pk').execute();
    await db.schema
      .alterTable('message_parts')
      .addColumn('route', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await sql`update message_parts set route = messages.route from messages
              where messages.id = message_parts.message_id and messages.route is not null`.execute(db);
    await db.schema
      .alterTable('message_parts')
      .alterColumn('route', (c) => c.dropDefault())
      .execute();
    await db.schema
      .alterTable('message_parts')
      .addPrimaryKeyConstraint('message_parts_pk', ['channel', 'provider_message_id', 'route'])
      .execute();

    await db.schema
      .alterTable('inbound_parts')
      .addColumn('route', 'text', (c) => c.notNull().defaultTo('default'))
      .execute();
    await db.schema
      .alterTable('inbound_parts')
      .alterColumn('route', (c) => c.dropDefault())
      .execute();
    await db.schema.alterTable('inbound_parts').dropConstraint('inbound_parts_pk').execute();
    await db.schema
      .alterTable('inbound_parts')
      .addPrimaryKeyConstraint('inbound_parts_pk', ['channel', 'route', 'sender', 'recipient', 'reference', 'part'])
      .execute();
    return;
  }

  await db.schema
    .createTable('message_parts_rebuilt')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('provider_message_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id'))
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('status', 'text')
    .addColumn('route', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_parts_pk', ['channel', 'provider_message_id', 'route'])
    .execute();
  await sql`insert into message_parts_rebuilt (channel, provider_message_id, message_id, part, status, route)
            select p.channel, p.provider_message_id, p.message_id, p.part, p.status, coalesce(m.route, '')
            from message_parts p left join messages m on m.id = p.message_id`.execute(db);
  await db.schema.dropTable('message_parts').execute();
  await sql`alter table message_parts_rebuilt rename to message_parts`.execute(db);
  await db.schema.createIndex('message_parts_message').on('message_parts').column('message_id').execute();

  await db.schema
    .createTable('inbound_parts_rebuilt')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('reference', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('inbound_parts_pk', ['channel', 'route', 'sender', 'recipient', 'reference', 'part'])
    .execute();
  await sql`insert into inbound_parts_rebuilt (channel, sender, recipient, reference, total, part, body, received_at, route)
            select channel, sender, recipient, reference, total, part, body, received_at, 'default' from inbound_parts`.execute(db);
  await db.schema.dropTable('inbound_parts').execute();
  await sql`alter table inbound_parts_rebuilt rename to inbound_parts`.execute(db);
}
