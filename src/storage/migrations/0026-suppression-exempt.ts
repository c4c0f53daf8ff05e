import type { Kysely } from 'kysely';

/**
 * Whether a message goes to a suppressed recipient on purpose (a STOP's confirmation, the one
 * message they are still sent): 1 then, null otherwise. Every other message is checked against the
 * suppression list again when a worker takes it (dispatch/deliver-message.job.ts). Nullable, no
 * default: neither store rewrites the table, and earlier messages are checked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('suppression_exempt', 'integer').execute();
}
