import type { Channel } from '../../core/ids.js';
import type { SandboxPort, SandboxSubmission } from '../../core/ports.js';
import type { Executor } from '../database.js';
import type { SandboxSubmissionsTable } from '../schema.js';
import { chunks } from './chunks.js';

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
    async findMany(messageIds) {
      const found = new Map<string, SandboxSubmission>();
      for (const chunk of chunks(messageIds, 1000)) {
        const rows = await db.selectFrom('sandbox_submissions').selectAll().where('message_id', 'in', chunk).execute();
        for (const row of rows) found.set(row.message_id, toSubmission(row));
      }
      return found;
    },
    async recordAttempts(attempts, at) {
      for (const chunk of chunks(attempts, 500)) {
        await db
          .insertInto('sandbox_submissions')
          .values(
            chunk.map((attempt) => ({
              message_id: attempt.messageId,
              channel: attempt.channel,
              recipient: attempt.recipient,
              attempts: 1,
              provider_message_id: attempt.providerMessageId,
              accepted_at: attempt.providerMessageId === null ? null : at,
              duplicates: 0,
              created_at: at,
            })),
          )
          .onConflict((oc) =>
            oc.column('message_id').doUpdateSet((eb) => ({
              attempts: eb('sandbox_submissions.attempts', '+', 1),
              provider_message_id: eb.ref('excluded.provider_message_id'),
              accepted_at: eb.ref('excluded.accepted_at'),
            })),
          )
          .execute();
      }
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
