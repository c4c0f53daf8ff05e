import { applyReceipts, countReceipts } from '../core/messages/lifecycle.js';
import { type BatchJobHandler, DONE, type Job, type JobResult } from './job.js';
import { UNMATCHED_RECEIPT_RETRY } from './retry-policy.js';

/**
 * Applies a batch of stored delivery reports, whichever providers sent them, in one transaction
 * with the removal of their jobs.
 */
export const applyProviderReceipts: BatchJobHandler<'provider_receipt'> = async (ctx, jobs, _signal, settle) => {
  const receipts = jobs.map((job) => job.payload);
  await ctx.store.groupedTransaction(async (tx) => {
    const results = await applyReceipts(tx, receipts);
    // Once each: an unmatched receipt when it is dropped, not at every try before.
    countReceipts(tx, receipts, results, (i) => results[i] !== 'unmatched' || (jobs[i]?.attempts ?? 0) > UNMATCHED_RECEIPT_RETRY.retries);
    const outcomes = jobs.map((job, i): [Job<'provider_receipt'>, JobResult] => {
      if (results[i] !== 'unmatched') return [job, DONE];
      const receipt = job.payload;
      // The hand-over may still be committing: tried again a few times before it is dropped.
      if (job.attempts <= UNMATCHED_RECEIPT_RETRY.retries) {
        return [
          job,
          { done: false, retryAt: ctx.clock.now() + UNMATCHED_RECEIPT_RETRY.delayMs, error: 'no message matches this receipt yet' },
        ];
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
};
