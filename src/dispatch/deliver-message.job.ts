import type { OutboundMessage, Provider, SendOutcome } from '../core/delivery/provider.js';
import { applyReceipt, recordAccepted, recordFailed } from '../core/messages/lifecycle.js';
import type { Message } from '../core/messages/message.js';
import type { ClaimedJob } from '../core/ports.js';
import type { DispatchContext } from './dispatch-context.js';
import { DONE, type JobResult } from './job-catalogue.js';
import { backoffDelayMs } from './retry-policy.js';

const unknownOutcome = (error: unknown): SendOutcome => ({
  ok: false,
  retryable: true,
  code: 'PROVIDER_UNREACHABLE',
  maybeAccepted: true,
  message: error instanceof Error ? error.message : String(error),
});

function toOutbound(message: Message, payload: string | null): OutboundMessage {
  return {
    id: message.id,
    accountId: message.accountId,
    channel: message.channel,
    to: message.to,
    sender: message.sender,
    body: message.body,
    payload: payload ? (JSON.parse(payload) as Record<string, unknown>) : null,
    segments: message.segments,
    attempt: message.attempts + 1,
  };
}

async function handOver(ctx: DispatchContext, provider: Provider, outbound: OutboundMessage, signal: AbortSignal): Promise<SendOutcome> {
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(ctx.sendTimeoutMs)]);
  try {
    if (provider.maxPerSecond) await ctx.limiterFor(provider.name, provider.maxPerSecond).acquire(timeout);
    return await provider.send(outbound, timeout);
  } catch (error) {
    // A throw or an abort leaves the outcome unknown: the provider may have the message.
    return unknownOutcome(error);
  }
}

/**
 * Hands one queued message to its provider and records what happened. The dispatcher alone
 * decides about retries, from the outcome value: permanent → failed now; retryable → again after
 * a backoff, until the attempt or age limit, then failed. Credits follow the status machine.
 */
export async function deliverMessage(ctx: DispatchContext, job: ClaimedJob, signal: AbortSignal): Promise<JobResult> {
  if (!job.messageId) return DONE;
  const { store, clock } = ctx;
  // Marking it in flight first means a crash from here on leaves a trace: the next worker asks
  // the provider before sending again, where the provider can say.
  const [message] = await store.groupedTransaction((tx) => tx.messages.markInFlight([job.messageId as string]));
  if (!message) return DONE; // no longer queued: canceled, or a receipt already moved it on
  const provider = ctx.providers[message.channel];
  const attempt = message.attempts + 1;

  const fail = async (code: string, text: string) => {
    await store.groupedTransaction((tx) => recordFailed(tx, message, { code, message: text }, clock.now()));
    return DONE;
  };

  // A scheduled message's delivery time starts at its scheduled time, not when it was accepted.
  const dueSince = Math.max(message.createdAt, message.scheduledAt ?? 0);
  if (clock.now() - dueSince > ctx.retry.maxAgeMs) {
    return fail('EXPIRED', 'No provider accepted the message within the delivery time limit.');
  }

  if (message.dispatchState === 'in_flight' && provider.lookup) {
    const held = await provider.lookup(message.id);
    if (held) {
      await store.groupedTransaction((tx) =>
        recordAccepted(tx, message, held.providerMessageId, clock.now(), `accepted by ${provider.name}`),
      );
      return DONE;
    }
  }

  const outcome = await handOver(ctx, provider, toOutbound(message, await store.messages.payload(message.id)), signal);
  const now = clock.now();
  // Stopped mid-send: the job goes back at once (still in flight, so the next worker asks first).
  if (signal.aborted && !outcome.ok) return { done: false, retryAt: now, error: 'the worker stopped during the hand-over' };
  if (outcome.ok) {
    await store.groupedTransaction(async (tx) => {
      await recordAccepted(tx, message, outcome.providerMessageId, now, `accepted by ${provider.name}`);
      if (outcome.partIds && outcome.partIds.length > 1) await tx.messages.recordParts(message.id, message.channel, outcome.partIds);
    });
    if (outcome.delivered) {
      await applyReceipt(store, {
        channel: message.channel,
        providerMessageId: outcome.providerMessageId,
        messageId: message.id,
        status: 'delivered',
        occurredAt: now,
      });
    }
    return DONE;
  }
  if (!outcome.retryable) return fail(outcome.code, outcome.message);

  const retryAt = now + (outcome.retryAfterMs ?? backoffDelayMs(ctx.retry, attempt, ctx.random));
  const counted = !outcome.unavailable;
  if ((counted && attempt >= ctx.retry.maxAttempts) || retryAt - dueSince > ctx.retry.maxAgeMs) {
    return fail(outcome.code, `${outcome.message} (gave up after ${attempt} attempts)`);
  }
  // A definite "not now" from the provider means it does not hold the message: nothing to ask
  // about next time. An outcome that may hide an acceptance keeps the in-flight mark.
  if (!outcome.maybeAccepted) await store.messages.clearInFlight(message.id);
  // A provider outage is logged once by its health tracker, not once per waiting message.
  (outcome.unavailable ? ctx.logger.debug : ctx.logger.info).call(
    ctx.logger,
    { message_id: message.id, attempt, code: outcome.code, retry_at: new Date(retryAt).toISOString() },
    'delivery attempt failed; will retry',
  );
  return { done: false, retryAt, error: `${outcome.code}: ${outcome.message}` };
}
