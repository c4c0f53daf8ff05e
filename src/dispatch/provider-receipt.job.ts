import { applyReceipt } from '../core/messages/lifecycle.js';
import type { ClaimedJob } from '../core/ports.js';
import type { DispatchContext } from './dispatch-context.js';
import { DONE, type JobResult, type ProviderReceiptPayload } from './job-catalogue.js';

/** Receipts that match no message yet are tried again a few times: the hand-over may still be committing. */
const UNMATCHED_RETRIES = 5;
const UNMATCHED_DELAY_MS = 1_000;

/** Applies a stored delivery report, whichever provider sent it. */
export async function applyProviderReceipt(ctx: DispatchContext, job: ClaimedJob): Promise<JobResult> {
  const receipt = job.payload as ProviderReceiptPayload;
  const result = await applyReceipt(ctx.store, receipt);
  if (result !== 'unmatched') return DONE;
  if (job.attempts <= UNMATCHED_RETRIES) {
    return { done: false, retryAt: ctx.clock.now() + UNMATCHED_DELAY_MS, error: 'no message matches this receipt yet' };
  }
  ctx.providers[receipt.channel]?.noteUnmatchedReceipt?.();
  ctx.logger.warn(
    { channel: receipt.channel, provider_message_id: receipt.providerMessageId, status: receipt.status },
    'dropping a receipt that matches no message',
  );
  return DONE;
}
