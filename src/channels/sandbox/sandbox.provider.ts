import type { Clock } from '../../core/clock.js';
import { JOB_KINDS } from '../../core/delivery/job-kinds.js';
import type { OutboundMessage, Provider, ProviderReceipt, SendOutcome } from '../../core/delivery/provider.js';
import { type Channel, monotonicTimeOrderedId } from '../../core/ids.js';
import type { NewJob, Store } from '../../core/ports.js';
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

  /** Receipts (and complaints) the carrier will report for an accepted message, as queued jobs. */
  const receiptsFor = (
    message: OutboundMessage,
    behaviour: ReturnType<typeof sandboxBehaviour>,
    providerMessageId: string,
    now: number,
    silent: ReadonlySet<string>,
  ): NewJob[] => {
    const jobs: NewJob[] = [];
    const receipt = behaviour.kind === 'accept' ? behaviour.receipt : 'delivered';
    if (receipt !== 'none') {
      const payload: ProviderReceipt = {
        channel,
        providerMessageId,
        messageId: message.id,
        occurredAt: now + options.receiptDelayMs,
        ...(receipt === 'delivered' ? { status: 'delivered' } : { status: 'failed', code: receipt.failed, message: receipt.message }),
      };
      jobs.push({ kind: JOB_KINDS.providerReceipt, messageId: null, payload, runAt: now + options.receiptDelayMs });
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
      jobs.push({ kind: JOB_KINDS.providerReceipt, messageId: null, payload: complaint, runAt: complainedAt });
    }
    if (behaviour.kind === 'accept' && behaviour.thenReply !== undefined && !silent.has(message.id)) {
      // The recipient answers just after the delivery, to the address the message came from; the
      // message's id makes the reply's provider id, so a run of its job twice stores it once.
      const repliedAt = now + 2 * options.receiptDelayMs + 1;
      const received = {
        channel,
        from: message.to,
        to: message.sender ?? 'sandbox',
        text: behaviour.thenReply,
        receivedAt: repliedAt,
        providerMessageId: `sbx_reply_${message.id}`,
        details: { sandbox: true, in_reply_to: message.id },
      };
      jobs.push({ kind: JOB_KINDS.receiveMessage, messageId: null, payload: { received, accountId: message.accountId }, runAt: repliedAt });
    }
    return jobs;
  };

  /** Takes a batch in one transaction: a read of what it already holds, then a few multi-row writes. */
  const sendMany = (messages: readonly OutboundMessage[], _signal: AbortSignal): Promise<SendOutcome[]> =>
    store.groupedTransaction(async (tx) => {
      const known = await tx.sandbox.findMany(messages.map((message) => message.id));
      const now = clock.now();
      // A replying recipient who opted out says nothing more (a person who sent STOP does not
      // answer its confirmation): without this, STOP, its confirmation, STOP... would never end.
      const silent = new Set<string>();
      for (const message of messages) {
        const behaviour = sandboxBehaviour(channel, message.to);
        if (behaviour.kind !== 'accept' || behaviour.thenReply === undefined) continue;
        const [suppressed] = await tx.suppressions.findAmong(message.accountId, channel, [tx.channels.recipientKey(channel, message.to)]);
        if (suppressed) silent.add(message.id);
      }
      const attempts: Parameters<Store['sandbox']['recordAttempts']>[0][number][] = [];
      const receipts: NewJob[] = [];
      const outcomes: SendOutcome[] = [];
      for (const message of messages) {
        const record = known.get(message.id);
        if (record?.acceptedAt != null && record.providerMessageId) {
          await tx.sandbox.recordDuplicate(message.id);
          outcomes.push({ ok: true, providerMessageId: record.providerMessageId });
          continue;
        }
        const behaviour = sandboxBehaviour(channel, message.to);
        const attempt = { messageId: message.id, channel, recipient: message.to, providerMessageId: null as string | null };
        attempts.push(attempt);
        if (behaviour.kind === 'reject') {
          outcomes.push({ ok: false, retryable: false, code: behaviour.code, message: behaviour.message });
        } else if (behaviour.kind === 'fail-first-attempt' && (record?.attempts ?? 0) === 0) {
          outcomes.push({ ok: false, retryable: true, code: behaviour.code, message: behaviour.message });
        } else {
          // Ids that grow with time, as most carriers' SMSCs issue them (from a counter). Random
          // ones would put every acceptance on a page of its own in the provider-id index.
          attempt.providerMessageId = `sbx_${monotonicTimeOrderedId(now)}`;
          receipts.push(...receiptsFor(message, behaviour, attempt.providerMessageId, now, silent));
          outcomes.push({ ok: true, providerMessageId: attempt.providerMessageId });
        }
      }
      await tx.sandbox.recordAttempts(attempts, now);
      await tx.jobs.enqueueMany(receipts, now);
      return outcomes;
    });

  return {
    name: 'sandbox',
    channel,

    async send(message, signal): Promise<SendOutcome> {
      const [outcome] = await sendMany([message], signal);
      return outcome as SendOutcome;
    },

    sendMany,

    async lookup(messageId) {
      const known = await store.sandbox.find(messageId);
      return known?.acceptedAt != null && known.providerMessageId ? { providerMessageId: known.providerMessageId } : undefined;
    },
  };
}
