import { setMaxListeners } from 'node:events';
import {
  type HandOverGate,
  holdsInDoubt,
  type OutboundMessage,
  operatorText,
  type Provider,
  providerOf,
  recoveryPolicyOf,
  type SendOutcome,
} from '../core/delivery/provider.js';
import { followedBy } from '../core/message-trail.js';
import { type FailureReason, failQueued } from '../core/messages/lifecycle.js';
import type { Message } from '../core/messages/message.js';
import type { HandOverOutcome } from '../core/meter.js';
import type { ClaimedJob, InFlightMessage, Store } from '../core/ports.js';
import { suppressedAtHandOver } from '../core/suppressions/manage-suppressions.js';
import { type Ending, EndingRecorder } from './delivery-endings.js';
import { DeliverySpans, handedOver } from './delivery-spans.js';
import type { DispatchContext } from './dispatch-context.js';
import { type GateState, HandOverMarks } from './hand-over-marks.js';
import { type BatchJobHandler, type ClaimStep, DONE } from './job.js';
import { backoffDelayMs } from './retry-policy.js';
import type { SettleJobs } from './settle-jobs.js';

const EXPIRED = { code: 'EXPIRED', message: 'No provider accepted the message within the delivery time limit.' };

/** A hand-over that threw: in doubt. The error's own text (a socket error naming a host) is the operator's. */
const unknownOutcome = (error: unknown): SendOutcome => ({
  ok: false,
  retryable: true,
  code: 'PROVIDER_UNREACHABLE',
  maybeAccepted: true,
  message: 'The provider did not answer the hand-over; whether it took the message is unknown.',
  detail: error instanceof Error ? error.message : String(error),
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

/**
 * Hands a batch of queued messages to their providers and records what happened. The dispatcher
 * alone decides about retries, from the outcome values: permanent → failed now; retryable → again
 * after a backoff, until the attempt or age limit, then failed. Credits follow the status machine.
 *
 * The batch is marked in one statement, in the transaction that claimed its jobs (`markForHandOver`,
 * the kind's claim step, which also reads the suppression list for it and fails the messages whose
 * recipient is on it now): marked in flight, except on channels that hold hand-overs
 * in doubt, where it is only claimed and each message is marked in flight right before it leaves
 * the process (by the provider, or by the dispatcher before `send`), so that what a crash leaves
 * unsent is never held as if it had been handed over. A provider that takes batches (the sandbox) gets
 * them in one call, others get each message concurrently. Outcomes are recorded as they arrive:
 * every outcome that came in during one turn of the event loop is recorded in one transaction, in
 * multi-row statements, together with the removal of its jobs. So a slow hand-over holds up only
 * its own record, and a batch costs a handful of statements rather than a few dozen per message.
 */
export const deliverMessages: BatchJobHandler<'deliver_message', Marked> = async (ctx, jobs, signal, settle, claimed) => {
  const { store } = ctx;
  const { jobOf, marked, suppressed } = claimed ?? (await store.groupedTransaction((tx) => markBatch(ctx, tx, jobs, settle, false)));

  const recorder = new EndingRecorder(ctx, settle);
  const marks = new HandOverMarks(store);
  // Only when traces are on (core/tracing.ts): a span for each message's job and hand-overs.
  const spans = ctx.tracing.enabled ? new DeliverySpans(ctx.tracing) : undefined;
  const perProvider = new Map<Provider, Item[]>();
  for (const { message, payload } of marked) {
    const provider = providerOf(ctx.providers, message.channel);
    const list = perProvider.get(provider) ?? [];
    const job = jobOf.get(message.id) as ClaimedJob;
    list.push({ job, message, payload, suppressed: suppressed.get(message.id) });
    perProvider.set(provider, list);
    spans?.claimed(message, job);
  }
  const end = spans
    ? (ending: Ending) => {
        spans.ended(ending);
        recorder.add(ending);
      }
    : (ending: Ending) => recorder.add(ending);
  // Every provider's hand-overs end (and are recorded) before a failure of one is reported: the
  // worker runs the unsettled jobs of a failed batch again, which must not overlap their sends.
  const handOvers = await Promise.allSettled(
    [...perProvider].map(([provider, items]) => handOverAll(ctx, provider, items, signal, marks, end, spans)),
  );
  spans?.abandon('no outcome: the batch failed');
  await recorder.drained();
  const failure = handOvers.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
};

/** The messages of a batch marked for hand-over, and the job of each. */
export interface Marked {
  jobOf: ReadonlyMap<string, ClaimedJob>;
  marked: ReadonlyArray<{ message: Message; payload: string | null }>;
  /** Those in flight already whose recipient is on their account's suppression list now, with the failure each ends with. */
  suppressed: ReadonlyMap<string, FailureReason>;
}

/** A message of the batch, ready for its provider. */
interface Item {
  job: ClaimedJob;
  message: Message;
  payload: string | null;
  /** Its recipient was suppressed since it was accepted (only a message already in flight gets this far): not handed over again. */
  suppressed: FailureReason | undefined;
}

/**
 * Marks the batch's queued messages for hand-over (in the transaction that claimed their jobs),
 * fails those whose recipient is on the suppression list now, and settles the jobs of messages no
 * longer queued.
 */
export const markForHandOver: ClaimStep<'deliver_message', Marked> = (ctx, tx, jobs, settle) => markBatch(ctx, tx, jobs, settle, true);

/**
 * Marks the batch (see markForHandOver). `inClaim`: in the claim's transaction, which holds the
 * batch's job rows: a message row another transaction holds (a cancel, which takes the message,
 * then its job) fails the step at once rather than wait for it in the opposite order, and the
 * handler marks the batch in a transaction of its own (PostgreSQL; SQLite has one writer).
 */
async function markBatch(
  ctx: DispatchContext,
  tx: Store,
  jobs: ReadonlyArray<ClaimedJob>,
  settle: SettleJobs,
  inClaim: boolean,
): Promise<Marked> {
  const jobOf = new Map<string, ClaimedJob>();
  const finished: ClaimedJob[] = [];
  for (const job of jobs) {
    if (job.messageId && !jobOf.has(job.messageId)) jobOf.set(job.messageId, job);
    else finished.push(job);
  }
  // Marking them first means a crash from here on leaves a trace: in flight, the next worker
  // follows the channel's recovery policy; only claimed, it sends them as if nothing had happened.
  // Claiming alone suits only channels that hold: for the others, in flight up front costs nothing
  // more, as a message in doubt is sent again (or asked about) anyway.
  const claimOnly = Object.entries(ctx.providers)
    .filter(([channel, provider]) => holdsInDoubt(provider, ctx.recovery?.[channel]))
    .map(([channel]) => channel);
  const taken = await tx.messages.markInFlight([...jobOf.keys()], { claimOnly, noWait: inClaim });
  const takenIds = new Set(taken.map((row) => row.message.id));
  // No longer queued: canceled, or a receipt already moved it on.
  for (const [messageId, job] of jobOf) if (!takenIds.has(messageId)) finished.push(job);

  // Recipients put on the suppression list since their messages were accepted (a send that ran
  // beside the entry, one past what the entry failed at once, a bulk send): read where the marks are
  // written, so a read that fails takes the marks with it. One never handed over fails here, in
  // the same transaction, so no crash can leave it marked as if it might have left. One already in
  // flight may be at the provider: its hand-over decides (handOverAll).
  const suppressed = await suppressedAtHandOver(tx, taken);
  const marked: InFlightMessage[] = [];
  const stopped: InFlightMessage[] = [];
  for (const row of taken) {
    if (suppressed.has(row.message.id) && row.message.dispatchState !== 'in_flight') stopped.push(row);
    else marked.push(row);
  }
  if (stopped.length > 0) {
    const now = ctx.clock.now();
    // Accounts locked in one order first, as a wave of endings does (delivery-endings.ts).
    await tx.credits.lockAccounts(stopped.map(({ message }) => message.accountId));
    for (const { message } of stopped) {
      await failQueued(tx, message, suppressed.get(message.id) as FailureReason, now);
      ctx.logger.info(
        followedBy(message, { code: 'RECIPIENT_SUPPRESSED' }),
        'recipient suppressed since it was accepted; failed, not sent',
      );
      finished.push(jobOf.get(message.id) as ClaimedJob);
    }
  }
  await settle(
    tx,
    finished.map((job) => [job, DONE]),
  );
  return { jobOf, marked, suppressed };
}

/** Checks, asks or sends each message of one provider, and passes on how each ended. */
async function handOverAll(
  ctx: DispatchContext,
  provider: Provider,
  items: readonly Item[],
  signal: AbortSignal,
  marks: HandOverMarks,
  end: (ending: Ending) => void,
  spans: DeliverySpans | undefined,
): Promise<void> {
  const { clock } = ctx;
  const toSend: Array<{ job: ClaimedJob; message: Message; outbound: OutboundMessage }> = [];
  await Promise.all(
    items.map(async ({ job, message, payload, suppressed }) => {
      // A scheduled message's delivery time starts at its scheduled time, not when it was accepted.
      const dueSince = Math.max(message.createdAt, message.scheduledAt ?? 0);
      const expired = clock.now() - dueSince > ctx.retry.maxAgeMs;
      // Marked in flight by an earlier attempt whose outcome was never recorded: in doubt. The
      // provider may hold it; the channel's recovery policy says what to do (docs/delivery.md).
      // Left `claimed`, it never left its worker's process: sent as if nothing had happened.
      // A message the provider can finish here (it knows which parts it took) is not in doubt to it.
      const inDoubt = message.dispatchState === 'in_flight' && !provider.resumable?.(message.id);
      const policy = inDoubt ? recoveryPolicyOf(provider, ctx.recovery?.[message.channel]) : 'resend';
      const asks = policy === 'ask' && provider.lookup !== undefined;
      // Past its time limit, a message is failed; unless its provider may hold it and can say so.
      if (expired && !asks) {
        end({ kind: 'failed', job, message, reason: EXPIRED, at: clock.now() });
        return;
      }
      // `ask` of a provider that cannot answer is never a blind re-send: it holds.
      if (policy === 'hold' || (policy === 'ask' && !provider.lookup)) {
        ctx.logger.info(followedBy(message, { provider: provider.name }), 'hand-over in doubt; held, not sent again');
        end({ kind: 'unconfirmed', job, message, at: clock.now() });
        return;
      }
      if (asks && provider.lookup) {
        let held: { providerMessageId: string } | undefined;
        try {
          held = await provider.lookup(message.id);
        } catch (error) {
          // Unknown whether it holds the message: never sent blind. Asked again later while there
          // is time; past the time limit it is held as sent and unconfirmed, as `hold` would.
          if (expired) {
            ctx.logger.info(followedBy(message, { provider: provider.name }), 'hand-over in doubt past the time limit; held');
            end({ kind: 'unconfirmed', job, message, at: clock.now() });
            return;
          }
          const now = clock.now();
          const retryAt = beforeTheLimit(
            now,
            now + backoffDelayMs(ctx.retry, message.attempts + 1, ctx.random),
            dueSince + ctx.retry.maxAgeMs,
          );
          const text = error instanceof Error ? error.message : String(error);
          end({ kind: 'retry', job, message, result: { done: false, retryAt, error: `lookup failed: ${text}` }, clearInFlight: false });
          return;
        }
        if (held) {
          end({ kind: 'accepted', job, message, outcome: { ok: true, ...held }, at: clock.now(), detail: `accepted by ${provider.name}` });
          return;
        }
        // The provider does not hold it. Out of attempts or of time (the last attempt's outcome was
        // in doubt: see outcomeEnding), it fails now, with the reason it waited for.
        if (expired || message.attempts >= ctx.retry.maxAttempts) {
          end({ kind: 'failed', job, message, reason: givenUp(message, expired), at: clock.now() });
          return;
        }
      }
      // In doubt, its recipient suppressed since it was accepted: where the policy would hand it over
      // again (resend; ask, the provider not holding it), it fails instead, as a resend that gives up
      // does: taken not to be at the provider. (A message its provider can finish, part of a long
      // SMS taken, is not in doubt: it is being handed over, and goes.)
      if (suppressed && inDoubt) {
        end({ kind: 'failed', job, message, reason: suppressed, at: clock.now() });
        return;
      }
      toSend.push({ job, message, outbound: toOutbound(message, payload) });
    }),
  );
  if (toSend.length === 0) return;
  // Only claimed so far (see deliverMessages): each is marked in flight right before it leaves.
  const gated = holdsInDoubt(provider, ctx.recovery?.[provider.channel]);

  const limiter = provider.maxPerSecond ? ctx.limiterFor(provider.name, provider.maxPerSecond) : undefined;
  const sendMany = provider.sendMany;
  if (sendMany && !limiter) {
    const ready = gated ? await passGates(ctx, marks, toSend, end) : toSend;
    if (ready.length === 0) return;
    const timeout = sendDeadline(ctx, signal);
    const handOverSpans = spans && ready.map((item) => spans.handOver(item.message, provider));
    const began = performance.now();
    // A throw or an abort leaves every outcome unknown: the provider may have the messages.
    const outcomes = await sendMany
      .call(
        provider,
        ready.map((item) => item.outbound),
        timeout,
      )
      .catch((error: unknown) => ready.map(() => unknownOutcome(error)));
    const seconds = (performance.now() - began) / 1000;
    for (const [i, item] of ready.entries()) {
      const outcome = outcomes[i] ?? unknownOutcome('no outcome');
      ctx.store.meter.handOver(provider.channel, provider.name, handOverOutcome(outcome), seconds);
      handedOver(handOverSpans?.[i], outcome);
      // Past their gates (where the channel gates hand-overs): each may have left.
      end(conclude(ctx, provider, item.job, item.message, outcome, signal, true));
    }
    return;
  }
  // Messages that start together share one deadline: a signal per message (AbortSignal.any of the
  // worker's and a timeout) cost the dispatch thread about 3 % of its time. Behind a throughput
  // limit each waits its turn first, and its time starts then.
  const together = limiter ? undefined : sendDeadline(ctx, signal);
  await Promise.all(
    toSend.map(async ({ job, message, outbound }) => {
      if (limiter) {
        try {
          await limiter.acquire(sendDeadline(ctx, signal));
        } catch {
          // More of this provider's messages waiting than its throughput lets through in a send
          // timeout: this one was not tried, and goes back to the queue as it was.
          const retryAt = signal.aborted ? clock.now() : clock.now() + 1_000;
          end({
            kind: 'retry',
            job,
            message,
            result: { done: false, retryAt, error: 'waiting for the provider throughput limit' },
            // Not tried now; a mark left by an earlier attempt with an unknown outcome stays.
            clearInFlight: message.dispatchState !== 'in_flight',
          });
          return;
        }
      }
      const handOver = gated ? marks.gateFor(message) : undefined;
      const span = spans?.handOver(message, provider);
      const began = performance.now();
      const outcome = await sendOne(provider, outbound, together ?? sendDeadline(ctx, signal), handOver?.gate);
      // A message its gate withdrew was never handed over: nothing to count.
      if (outcome !== WITHDRAWN)
        ctx.store.meter.handOver(provider.channel, provider.name, handOverOutcome(outcome), (performance.now() - began) / 1000);
      handedOver(span, outcome);
      const gateState = handOver?.state();
      end(
        (handOver && gateEnding(ctx, job, message, gateState ?? 'unasked')) ??
          conclude(ctx, provider, job, message, outcome, signal, gateState === undefined || gateState === 'passed'),
      );
    }),
  );
}

/**
 * When to ask a provider again about a message in doubt: at `at`, or at the time limit if that
 * comes first (asked once more while it may still be answered); past the limit, at `at`.
 */
const beforeTheLimit = (now: number, at: number, limit: number): number => (now < limit ? Math.min(at, limit) : at);

/** How a hand-over ended, as counted (core/meter.ts). */
function handOverOutcome(outcome: SendOutcome): HandOverOutcome {
  if (outcome.ok) return 'accepted';
  if (outcome.maybeAccepted) return 'unknown';
  return outcome.retryable ? 'retry' : 'refused';
}

/** What a provider is said to have answered when the dispatcher's own gate stopped the message. */
const WITHDRAWN: SendOutcome = { ok: false, retryable: true, code: 'HANDOVER_WITHDRAWN', message: 'not handed over' };

/**
 * Aborts when the worker stops or the send timeout has passed from now. Shared by the sends of a
 * wave, each of which listens to it (hundreds at once): no limit on its listeners, which Node
 * would otherwise warn about past ten.
 */
function sendDeadline(ctx: DispatchContext, signal: AbortSignal): AbortSignal {
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(ctx.sendTimeoutMs)]);
  setMaxListeners(0, deadline);
  return deadline;
}

/**
 * One `send` by `timeout`, through `gate` when given: passed to a provider that gates its
 * hand-overs itself, else passed here, right before `send` is called.
 */
async function sendOne(
  provider: Provider,
  outbound: OutboundMessage,
  timeout: AbortSignal,
  gate: HandOverGate | undefined,
): Promise<SendOutcome> {
  try {
    if (gate && !provider.gatesHandOver) {
      if (!(await gate())) return WITHDRAWN;
      // Out of time (or stopping) while the mark committed: the message has not left, so it must
      // not count as in doubt, as a send refused by the aborted signal would.
      if (timeout.aborted) return WITHDRAWN;
      return await provider.send(outbound, timeout);
    }
    return await provider.send(outbound, timeout, gate);
  } catch (error) {
    return unknownOutcome(error);
  }
}

/** Passes the gates of claimed messages about to go as one batch (one transaction); the others end here. */
async function passGates<T extends { job: ClaimedJob; message: Message }>(
  ctx: DispatchContext,
  marks: HandOverMarks,
  items: readonly T[],
  end: (ending: Ending) => void,
): Promise<T[]> {
  const passed = await Promise.all(
    items.map(async (item) => {
      const { gate, state } = marks.gateFor(item.message);
      await gate().catch(() => false);
      const ending = gateEnding(ctx, item.job, item.message, state());
      if (ending) end(ending);
      return ending ? undefined : item;
    }),
  );
  return passed.filter((item): item is Awaited<T> => item !== undefined);
}

/**
 * The ending of a claimed message its gate did not let go, if it did not: nothing was handed
 * over, and the message is still (or was never again) this worker's to record as in doubt.
 */
function gateEnding(ctx: DispatchContext, job: ClaimedJob, message: Message, state: GateState): Ending | undefined {
  const now = ctx.clock.now();
  // No longer claimed by this attempt: another worker took the job over (the settle leaves a job
  // it no longer holds alone), or the message moved on. Either way it is not this worker's to send.
  if (state === 'refused') {
    return {
      kind: 'retry',
      job,
      message,
      result: { done: false, retryAt: now, error: 'no longer claimed by this worker' },
      clearInFlight: false,
    };
  }
  // The mark could not be stored: still only claimed, so sent normally next time.
  if (state === 'failed') {
    ctx.logger.warn(followedBy(message), 'could not mark a hand-over in flight; trying again later');
    const retryAt = now + backoffDelayMs(ctx.retry, message.attempts + 1, ctx.random);
    return { kind: 'retry', job, message, result: { done: false, retryAt, error: 'could not record the hand-over' }, clearInFlight: false };
  }
  return undefined;
}

/** What an outcome means for its message: recorded as sent, failed for good, or tried again later. */
function conclude(
  ctx: DispatchContext,
  provider: Provider,
  job: ClaimedJob,
  message: Message,
  outcome: SendOutcome,
  signal: AbortSignal,
  /** False when the message's gate was never passed: it cannot have left, whatever the outcome says. */
  mayHaveLeft: boolean,
): Ending {
  const now = ctx.clock.now();
  // Stopped mid-send: the job goes back at once. It stays in flight (in doubt, for the next
  // worker's recovery policy) unless the provider's answer says it was never taken.
  if (signal.aborted && !outcome.ok) {
    return {
      kind: 'retry',
      job,
      message,
      result: { done: false, retryAt: now, error: 'the worker stopped during the hand-over' },
      clearInFlight: !outcome.maybeAccepted,
    };
  }
  if (outcome.ok) {
    const detail = outcome.route ? `accepted by ${provider.name} (route ${outcome.route})` : `accepted by ${provider.name}`;
    return { kind: 'accepted', job, message, outcome, at: now, detail };
  }
  if (!outcome.retryable) return { kind: 'failed', job, message, reason: { code: outcome.code, message: outcome.message }, at: now };

  const attempt = message.attempts + 1;
  const dueSince = Math.max(message.createdAt, message.scheduledAt ?? 0);
  const retryAt = now + (outcome.retryAfterMs ?? backoffDelayMs(ctx.retry, attempt, ctx.random));
  const counted = !outcome.unavailable;
  if ((counted && attempt >= ctx.retry.maxAttempts) || retryAt - dueSince > ctx.retry.maxAgeMs) {
    // The last attempt's outcome may hide an acceptance: the provider may have the message.
    if (outcome.maybeAccepted && mayHaveLeft) {
      const configured = ctx.recovery?.[provider.channel];
      // Where the channel holds hand-overs in doubt (`hold`, or `ask` of a provider that cannot
      // answer), it is held as sent and unconfirmed (and charged), not failed and refunded for a
      // message that may yet be delivered.
      if (holdsInDoubt(provider, configured)) {
        ctx.logger.info(followedBy(message, { provider: provider.name, attempt }), 'last hand-over in doubt; held, not failed');
        return { kind: 'unconfirmed', job, message, at: now };
      }
      // Under `ask` of a provider that can answer, it stays in flight and the provider is asked
      // after the backoff: held → sent; not held → failed and refunded (handOverAll); never sent again.
      if (recoveryPolicyOf(provider, configured) === 'ask' && provider.lookup) {
        ctx.logger.info(followedBy(message, { provider: provider.name, attempt }), 'last hand-over in doubt; the provider will be asked');
        const reason = { code: outcome.code, message: outcome.message };
        // Asked within the time limit (an attempt given up for its age would otherwise be asked only
        // once it expired: one failed question would then hold it), and again on failure until then.
        const askAt = beforeTheLimit(now, retryAt, dueSince + ctx.retry.maxAgeMs);
        return {
          kind: 'retry',
          job,
          message,
          result: { done: false, retryAt: askAt, error: operatorText(outcome) },
          clearInFlight: false,
          reason,
        };
      }
    }
    return {
      kind: 'failed',
      job,
      message,
      reason: { code: outcome.code, message: `${outcome.message} (gave up after ${attempt} attempts)` },
      at: now,
    };
  }
  // A provider outage is logged once by its health tracker, not once per waiting message.
  (outcome.unavailable ? ctx.logger.debug : ctx.logger.info).call(
    ctx.logger,
    followedBy(message, { attempt, code: outcome.code, retry_at: new Date(retryAt).toISOString() }),
    'delivery attempt failed; will retry',
  );
  // A definite "not now" from the provider means it does not hold the message: nothing to ask
  // about next time. An outcome that may hide an acceptance keeps the in-flight mark.
  return {
    kind: 'retry',
    job,
    message,
    result: { done: false, retryAt, error: operatorText(outcome) },
    clearInFlight: !outcome.maybeAccepted,
    // Shown as the message's `error` while it waits (docs/messages-and-credits.md, "Statuses"). An
    // outage's own text (a socket error naming the SMSC's address, a refused bind) is the
    // operator's business: the account sees its code and a fixed sentence.
    reason: {
      code: outcome.code,
      message: outcome.unavailable
        ? 'The provider cannot be reached at the moment; the message waits and is tried again.'
        : outcome.message,
    },
  };
}

/**
 * Why a message in doubt that its provider says it does not hold is failed: its last attempt's
 * answer (noted as it waited), or its time limit.
 */
function givenUp(message: Message, expired: boolean): { code: string; message: string } {
  if (expired && !message.error) return EXPIRED;
  const last = message.error ?? { code: 'PROVIDER_UNREACHABLE', message: 'The provider did not answer.' };
  return { code: last.code, message: `${last.message} (gave up after ${message.attempts} attempts; the provider does not hold it)` };
}
