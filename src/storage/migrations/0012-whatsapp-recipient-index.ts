import { type Kysely, sql } from 'kysely';

/**
 * The (recipient, channel) index of messages served one query: which accounts have written to a
 * WhatsApp number, asked when someone writes in on WhatsApp (their 24 h session windows). Every SMS,
 * email and Telegram message paid for an entry too, at a random place in the index (recipients come
 * in no order), so a page of it was written per message per commit. It now holds WhatsApp messages
 * only, by recipient.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_recipient_channel').execute();
  await db.schema
    .createIndex('messages_whatsapp_recipient')
    .on('messages')
    .column('recipient')
    .where(sql.ref('channel'), '=', 'whatsapp')
    .execute();
}
