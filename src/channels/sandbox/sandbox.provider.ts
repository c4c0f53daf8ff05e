import type { Clock } from '../../core/clock.js';
import { JOB_KINDS } from '../../core/delivery/job-kinds.js';
import type { Provider, ProviderReceipt, SendOutcome } from '../../core/delivery/provider.js';
import { type Channel, randomId } from '../../core/ids.js';
import type { Store } from '../../core/ports.js';
import { sandboxBehaviour } from './magic-recipients.js';

export interface SandboxOptions {
  store: Store;
  clock: Clock;
  /** Time from acceptance to the delivery receipt, like a real carrier's (0 in tests and benchmarks). */
  receiptDelayMs: number;
}

/**
 * An embedded carrier for one channel. It never leaves the machine, keeps its records in the store
 * (so they survive a crashed worker), answers with receipts asynchronously through the durable job
 * queue like a real carrier's delivery reports, and keys every submission by message id: a message
 * it already accepted is not delivered again, and the repeat is counted as a duplicate.
 */
export function createSandboxProvider(channel: Channel, options: SandboxOptions): Provider {
  const { store, clock } = options;
  return {
    name: 'sandbox',
    channel,

    async send(message): Promise<SendOutcome> {
      const behaviour = sandboxBehaviour(channel, message.to);
      return store.groupedTransaction(async (tx) => {
        const known = await tx.sandbox.find(message.id);
        if (known?.acceptedAt != null && known.providerMessageId) {
          await tx.sandbox.recordDuplicate(message.id);
          return { ok: true, providerMessageId: known.providerMessageId };
        }
        const now = clock.now();
        const submission = await tx.sandbox.recordAttempt(message.id, channel, message.to, now);
        if (behaviour.kind === 'reject') return { ok: false, retryable: false, code: behaviour.code, message: behaviour.message };
        if (behaviour.kind === 'fail-first-attempt' && submission.attempts === 1) {
          return { ok: false, retryable: true, code: behaviour.code, message: behaviour.message };
        }
        const providerMessageId = `sbx_${randomId(20)}`;
        await tx.sandbox.recordAcceptance(message.id, providerMessageId, now);
        const receipt = behaviour.kind === 'accept' ? behaviour.receipt : 'delivered';
        if (receipt !== 'none') {
          const payload: ProviderReceipt = {
            channel,
            providerMessageId,
            messageId: message.id,
            occurredAt: now + options.receiptDelayMs,
            ...(receipt === 'delivered' ? { status: 'delivered' } : { status: 'failed', code: receipt.failed, message: receipt.message }),
          };
          await tx.jobs.enqueue({ kind: JOB_KINDS.providerReceipt, messageId: null, payload, runAt: now + options.receiptDelayMs }, now);
        }
        if (behaviour.kind === 'accept' && behaviour.thenComplaint) {
          // Strictly after the delivery (at least 1 ms, even with no delay), so it always follows it.
          const complainedAt = now + 2 * options.receiptDelayMs + 1;
          const complaint: ProviderReceipt = {
            channel,
            providerMessageId,
            messageId: message.id,
            status: 'complained',
            occurredAt: complainedAt,
          };
          await tx.jobs.enqueue({ kind: JOB_KINDS.providerReceipt, messageId: null, payload: complaint, runAt: complainedAt }, now);
        }
        return { ok: true, providerMessageId };
      });
    },

    async lookup(messageId) {
      const known = await store.sandbox.find(messageId);
      return known?.acceptedAt != null && known.providerMessageId ? { providerMessageId: known.providerMessageId } : undefined;
    },
  };
}
