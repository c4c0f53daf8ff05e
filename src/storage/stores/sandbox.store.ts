import type { Channel } from '../../core/ids.js';
import type { SandboxPort, SandboxSubmission } from '../../core/ports.js';
import type { Executor } from '../database.js';
import type { SandboxSubmissionsTable } from '../schema.js';

const toSubmission = (row: SandboxSubmissionsTable): SandboxSubmission => ({
  messageId: row.message_id,
  channel: row.channel as Channel,
  recipient: row.recipient,
  attempts: row.attempts,
  providerMessageId: row.provider_message_id,
  acceptedAt: row.accepted_at,
  duplicates: row.duplicates,
});

/** The sandbox carrier's own records, kept in the store so they outlive a crashed worker. */
export function sandboxStore(db: Executor): SandboxPort {
  const find = async (messageId: string) => {
    const row = await db.selectFrom('sandbox_submissions').selectAll().where('message_id', '=', messageId).executeTakeFirst();
    return row && toSubmission(row);
  };
  return {
    find,
    async recordAttempt(messageId, channel, recipient, at) {
      await db
        .insertInto('sandbox_submissions')
        .values({
          message_id: messageId,
          channel,
          recipient,
          attempts: 1,
          provider_message_id: null,
          accepted_at: null,
          duplicates: 0,
          created_at: at,
        })
        .onConflict((oc) => oc.column('message_id').doUpdateSet((eb) => ({ attempts: eb('sandbox_submissions.attempts', '+', 1) })))
        .execute();
      const row = await find(messageId);
      if (!row) throw new Error(`sandbox submission ${messageId} vanished`);
      return row;
    },
    async recordAcceptance(messageId, providerMessageId, at) {
      await db
        .updateTable('sandbox_submissions')
        .set({ provider_message_id: providerMessageId, accepted_at: at })
        .where('message_id', '=', messageId)
        .execute();
    },
    async recordDuplicate(messageId) {
      await db
        .updateTable('sandbox_submissions')
        .set((eb) => ({ duplicates: eb('duplicates', '+', 1) }))
        .where('message_id', '=', messageId)
        .execute();
    },
    async totals() {
      const row = await db
        .selectFrom('sandbox_submissions')
        .select((eb) => [
          eb.fn.count<number>('accepted_at').as('accepted'),
          eb.fn.coalesce(eb.fn.sum<number>('duplicates'), eb.lit(0)).as('duplicates'),
        ])
        .executeTakeFirstOrThrow();
      return { accepted: Number(row.accepted), duplicates: Number(row.duplicates) };
    },
  };
}
