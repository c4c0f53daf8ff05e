import { holdsInDoubt, type ProviderReceipt, providerOf, type SendOutcome } from '../core/delivery/provider.js';
import { followedBy } from '../core/message-trail.js';
import {
  applyReceipts,
  captureAccepted,
  countReceipts,
  type FailureReason,
  failQueued,
  markAcceptedMany,
  markUnconfirmedMany,
  recordFailed,
} from '../core/messages/lifecycle.js';
import type { Message } from '../core/messages/message.js';
import type { ClaimedJob, Store } from '../core/ports.js';
import type { DispatchContext } from './dispatch-context.js';
import { DONE, type JobResult, type OnDropped } from './job.js';
import { backoffDelayMs } from './retry-policy.js';
import type { SettleJobs } from './settle-jobs.js';

/** What became of one message of the batch, to be recorded with the others that ended at the same time. */
export type Ending =
  | { kind: 'accepted'; job: ClaimedJob; message: Message; outcome: Extract<SendOutcome, { ok: true }>; at: number; detail: string }
  | { kind: 'failed'; job: ClaimedJob; message: Message; reason: FailureReason; at: number }
  /** In doubt and held (the `hold` policy): `sent`, unconfirmed, never handed over again. */
  | { kind: 'unconfirmed'; job: ClaimedJob; message: Message; at: number }
  | {
      kind: 'retry';
      job: ClaimedJob;
      message: Message;
      result: JobResult;
      clearInFlight: boolean;
      /** The provider's answer that put the message back, if that is why: why it waits. */
      reason?: FailureReason;
    };

/**
 * Collects endings and records those that arrived in the same turn of the event loop in one
 * transaction (a "wave"); `drained` waits for every wave and fails if one failed.
 */
export class EndingRecorder {
  #pending: Ending[] = [];
  /** The wave that will record `#pending`. */
  #wave: Promise<void> = Promise.resolve();
  readonly #waves: Promise<void>[] = [];

  constructor(
    private readonly ctx: DispatchContext,
    private readonly settle: SettleJobs,
  ) {}

  add(ending: Ending): void {
    this.#pending.push(ending);
    if (this.#pending.length === 1) {
      // A wave never rejects: what it could not record is dealt with inside (see #record).
      const wave: Promise<void> = new Promise((resolve) => setImmediate(resolve)).then(() => this.#record(wave));
      this.#wave = wave;
      this.#waves.push(wave);
    }
    // A receipt for this message waits for its wave (core/delivery/records-under-way.ts).
    if (ending.kind === 'accepted') this.ctx.recordsUnderWay?.add(ending.message.id, this.#wave);
  }

  /** Waits for every wave recorded so far (call it once no more endings will come). */
  async drained(): Promise<void> {
    await Promise.all(this.#waves);
  }

  /**
   * Records a wave in one transaction. If that fails (a deadlock, a lost connection), the same
   * endings are recorded again — never handed over again — once together, then one by one; an
   * ending that still cannot be recorded has its job put back after a backoff (its message keeps
   * its in-flight mark, so the next attempt asks the provider first where it can), or, if even that
   * fails, left to its lease.
   */
  async #record(wave: Promise<void>): Promise<void> {
    const endings = this.#pending;
    this.#pending = [];
    try {
      await this.#recordAll(endings);
    } finally {
      this.ctx.recordsUnderWay?.ended(
        endings.map((e) => e.message.id),
        wave,
      );
    }
  }

  async #recordAll(endings: readonly Ending[]): Promise<void> {
    for (let tries = 0; tries < 2; tries++) {
      try {
        await this.ctx.store.groupedTransaction((tx) => this.#write(tx, endings));
        return;
      } catch (error) {
        this.ctx.logger.warn({ err: error, endings: endings.length }, 'could not record delivery outcomes; trying again');
      }
    }
    for (const ending of endings) {
      try {
        await this.ctx.store.groupedTransaction((tx) => this.#write(tx, [ending]));
      } catch (error) {
        this.ctx.logger.error(followedBy(ending.message, { err: error, job_id: ending.job.id }), 'could not record a delivery outcome');
        const retryAt = this.ctx.clock.now() + backoffDelayMs(this.ctx.retry, ending.message.attempts + 1, this.ctx.random);
        const text = error instanceof Error ? error.message : String(error);
        await this.ctx.store
          // A failure inside Herald, counted as one (worker.ts): an outcome that can never be
          // stored ends in the job being given up, not in hand-overs again at every backoff.
          .groupedTransaction((tx) =>
            this.settle(tx, [[ending.job, { done: false, retryAt, error: `recording failed: ${text}`, failed: true }]]),
          )
          .catch(() => {});
      }
    }
  }

  async #write(tx: Store, endings: readonly Ending[]): Promise<void> {
    const accepted = endings.filter((e): e is Extract<Ending, { kind: 'accepted' }> => e.kind === 'accepted');
    const sent = await markAcceptedMany(
      tx,
      accepted.map(({ message, outcome, at, detail }) => ({
        messageId: message.id,
        providerMessageId: outcome.providerMessageId,
        at,
        detail,
        route: outcome.route,
      })),
    );
    const unconfirmed = await markUnconfirmedMany(
      tx,
      endings
        .filter((e) => e.kind === 'unconfirmed')
        .map(({ message }) => ({ messageId: message.id, route: providerOf(this.ctx.providers, message.channel).inDoubtOn?.(message.id) })),
      this.ctx.clock.now(),
    );
    for (const { message, outcome } of accepted) {
      if (outcome.partIds && outcome.partIds.length > 1) {
        await tx.messages.recordParts(message.id, message.channel, outcome.partIds, outcome.route);
      }
    }
    // The provider's acceptance is the delivery itself (Telegram): applied as its receipt.
    const receipts = accepted
      .filter(({ outcome }) => outcome.delivered)
      .map(
        ({ message, outcome, at }): ProviderReceipt => ({
          channel: message.channel,
          providerMessageId: outcome.providerMessageId,
          messageId: message.id,
          status: 'delivered',
          occurredAt: at,
        }),
      );
    if (receipts.length > 0) countReceipts(tx, receipts, await applyReceipts(tx, receipts));
    // Account rows: with refunds, every account of the wave is locked here, at once and in one
    // order, so waves and batches of sends never wait on each other's account rows in a cycle.
    // Charges alone take their rows at the very end (below).
    const failed = endings.filter((e) => e.kind === 'failed');
    const charged = unconfirmed.length > 0 ? [...sent, ...unconfirmed] : sent;
    if (failed.length > 0) await tx.credits.lockAccounts([...charged, ...failed.map((e) => e.message)].map((m) => m.accountId));
    // A message put back by its provider's answer says why it waits, until it is sent.
    const waiting = endings.flatMap((e) => (e.kind === 'retry' && e.reason ? [{ messageId: e.message.id, error: e.reason }] : []));
    if (waiting.length > 0) await tx.messages.noteWaiting(waiting);
    for (const ending of endings) {
      if (ending.kind === 'failed') await recordFailed(tx, ending.message, ending.reason, ending.at);
      // The attempt this worker's claim gave the message (the claim counted one more than it read).
      if (ending.kind === 'retry' && ending.clearInFlight) await tx.messages.clearInFlight(ending.message.id, ending.message.attempts + 1);
    }
    await this.settle(
      tx,
      endings.map((ending) => [ending.job, ending.kind === 'retry' ? ending.result : DONE]),
    );
    // Charges last of all, their accounts in one order (captureMany sorts them), so the rows are
    // held only for the commit: every batch of sends takes the same rows (PostgreSQL: 4.2 ms
    // waiting per wave, and 2.1 per batch of sends, when three statements and the commit followed).
    await captureAccepted(tx, charged);
  }
}

/** Why a message whose delivery job kept failing inside Herald was given up. */
export const DISPATCH_FAILED: FailureReason = {
  code: 'DISPATCH_FAILED',
  message: 'Herald could not hand the message over: its delivery failed inside Herald too many times in a row (see the logs).',
};

/**
 * What becomes of the message of a delivery job the worker drops (its handler threw too many times
 * in a row: a bug, a broken stored row), in the transaction that drops the job: never left queued
 * with its credits held. Where the channel holds hand-overs in doubt and the message was marked in
 * flight (which, there, happens right before it leaves), the provider may have it: sent,
 * unconfirmed and charged. Otherwise it is failed and its credits released. Both only from
 * `queued`: a message a receipt has moved on meanwhile is left as it is.
 */
export const giveUpDelivery: OnDropped<'deliver_message'> = async (ctx, tx, job, _payload, at) => {
  if (!job.messageId) return;
  const message = await tx.messages.findById(job.messageId);
  if (message?.status !== 'queued') return;
  const held =
    message.dispatchState === 'in_flight' && holdsInDoubt(providerOf(ctx.providers, message.channel), ctx.recovery?.[message.channel]);
  let given: boolean;
  if (held) {
    const route = providerOf(ctx.providers, message.channel).inDoubtOn?.(message.id);
    const sent = await markUnconfirmedMany(tx, [{ messageId: message.id, route }], at);
    await captureAccepted(tx, sent);
    given = sent.length > 0;
  } else {
    given = await failQueued(tx, message, DISPATCH_FAILED, at);
  }
  if (given) ctx.logger.error(followedBy(message, { job_id: job.id, held }), 'gave up a message whose delivery kept failing');
};
