import { applyReceipts } from '../core/messages/lifecycle.js';
import type { ClaimedJob } from '../core/ports.js';
import type { DispatchContext } from './dispatch-context.js';
import { DONE, type JobResult, type ProviderReceiptPayload } from './job-catalogue.js';
import type { SettleJobs } from './settle-jobs.js';

/** Receipts that match no message yet are tried again a few times: the hand-over may still be committing. */
const UNMATCHED_RETRIES = 5;
const UNMATCHED_DELAY_MS = 1_000;

/**
 * Applies a batch of stored delivery reports, whichever providers sent them, in one transaction
 * with the removal of their jobs.
 */
export async function applyProviderReceipts(
  ctx: DispatchContext,
  jobs: readonly ClaimedJob[],
  _signal: AbortSignal,
  settle: SettleJobs,
): Promise<void> {
  const receipts = jobs.map((job) => job.payload as ProviderReceiptPayload);
  await ctx.store.groupedTransaction(async (tx) => {
    const results = await applyReceipts(tx, receipts);
    const outcomes = jobs.map((job, i): [ClaimedJob, JobResult] => {
      if (results[i] !== 'unmatched') return [job, DONE];
      const receipt = receipts[i] as ProviderReceiptPayload;
      if (job.attempts <= UNMATCHED_RETRIES) {
        return [job, { done: false, retryAt: ctx.clock.now() + UNMATCHED_DELAY_MS, error: 'no message matches this receipt yet' }];
      }
      ctx.providers[receipt.channel]?.noteUnmatchedReceipt?.();
      ctx.logger.warn(
        { channel: receipt.channel, provider_message_id: receipt.providerMessageId, status: receipt.status },
        'dropping a receipt that matches no message',
      );
      return [job, DONE];
    });
    await settle(tx, outcomes);
  });
}
