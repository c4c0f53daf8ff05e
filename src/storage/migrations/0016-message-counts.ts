import { type Kysely, sql } from 'kysely';

/**
 * Messages ever accepted per account and channel become rows (account_id, channel, messages)
 * instead of one column per channel on `accounts`: a channel added to Herald needs no migration
 * to be counted. The counts are copied over and the columns dropped, in the migration's
 * transaction. Rows are written where the reservation already holds the account's row lock, in
 * that order, so two sends of one account never wait on each other in the other order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_message_counts')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('messages', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_message_counts_pk', ['account_id', 'channel'])
    .execute();
  for (const channel of ['sms', 'whatsapp', 'email', 'telegram']) {
    const column = sql.ref(`messages_${channel}`);
    await sql`insert into account_message_counts (account_id, channel, messages)
      select id, ${channel}, ${column} from accounts where ${column} > 0`.execute(db);
    await db.schema.alterTable('accounts').dropColumn(`messages_${channel}`).execute();
  }
}
