import { type Kysely, sql } from 'kysely';

/**
 * Whether a message goes to a suppressed recipient on purpose (a STOP's confirmation, the one
 * message they are still sent): 1 then, null otherwise. Every other message is checked against the
 * suppression list again when a worker takes it (dispatch/deliver-message.job.ts). Nullable, no
 * default: neither store rewrites the table, and earlier messages are checked.
 *
 * Confirmations still queued at the upgrade (waiting out an SMSC outage, say) are marked: a queued
 * message to someone a STOP put on the list at or before its acceptance can only be one, as every
 * other send to them was refused. (A confirmation accepted by a process not yet upgraded, during a
 * rolling upgrade, is not marked, and fails RECIPIENT_SUPPRESSED rather than go.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('suppression_exempt', 'integer').execute();
  await sql`update messages set suppression_exempt = 1
            where status = 'queued' and exists (
              select 1 from suppressions s
              where s.account_id = messages.account_id and s.channel = messages.channel and s.recipient = messages.recipient
                and s.reason = 'opt_out' and s.source = 'inbound' and s.created_at <= messages.created_at)`.execute(db);
}
