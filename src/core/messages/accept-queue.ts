import { JOB_KINDS } from '../delivery/job-kinds.js';
import type { ApiError } from '../errors.js';
import type { Channel } from '../ids.js';
import type { KeptAnswer, Store } from '../ports.js';
import { suppressionRefusals } from '../suppressions/manage-suppressions.js';
import type { Message } from './message.js';

/** One request's messages, to be held for and stored together, all or none. */
export interface AcceptUnit {
  accountId: string;
  messages: readonly Message[];
  /** Each message's channel-specific fields as JSON, in order. */
  payloads: ReadonlyArray<string | null>;
  now: number;
  /** The error to answer with when the available balance does not cover the unit. */
  insufficient: () => ApiError;
  /** The request's answer under its Idempotency-Key, kept with the messages when they are written. */
  answer?: KeptAnswer<readonly Message[]> | undefined;
  /**
   * Recipients (an email's cc too) that refuse the unit, writing nothing, when one is on its
   * account's suppression list: looked up for the whole batch in its transaction. Absent when the
   * caller set suppressed recipients aside itself (a bulk send lists them in `rejected`).
   */
  suppressible?: ReadonlyArray<{ channel: Channel; to: string }> | undefined;
  /** Sent to suppressed recipients on purpose (a STOP's confirmation): the hand-over does not check the list either. */
  suppressionExempt?: boolean;
}

interface Queued {
  unit: AcceptUnit;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Accepts concurrent requests together: the units that arrive while the previous batch is being
 * written are written as one, in one transaction — one suppression look-up per account and
 * channel, one conditional hold per account (the sum of its units, or unit by unit when the sum
 * does not fit) and one multi-row insert each for the messages, their history, their jobs and
 * their ledger rows, however many requests there are. A request is answered once its batch is
 * committed; a request to a suppressed recipient, or one the balance cannot cover, is refused and
 * writes nothing, and its neighbours are not affected. If the batch fails as a whole (a statement
 * error), each of its units is written again on its own, so the cause fails alone.
 *
 * On SQLite the batch is one unit of the store's group commit (it shares the commit with the
 * worker's writes); on PostgreSQL it is a transaction of its own, taking the account rows in one
 * order, and a handful of round trips serve the whole batch instead of a handful per request.
 */
export class AcceptQueue {
  #queue: Queued[] = [];
  /** The messages of the units in #queue. */
  #queuedMessages = 0;
  #writing = false;

  constructor(
    private readonly store: Store,
    /** The most messages one batch takes (a unit is never split); the rest wait for the next. */
    private readonly maxMessages = 5_000,
  ) {}

  /** Resolves once the unit is durable; rejects with its refusal (a suppressed recipient, `unit.insufficient()`) when it is refused. */
  submit(unit: AcceptUnit): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ unit, resolve, reject });
      this.#queuedMessages += unit.messages.length;
      if (!this.#writing) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#queue.length > 0) {
        // Requests read in the same turn of the event loop join this batch.
        await new Promise<void>((resolve) => setImmediate(resolve));
        // The batch is taken once its transaction has begun, not before: requests read meanwhile
        // (while SQLite's group commit waits a turn for its group, while PostgreSQL answers BEGIN)
        // join it instead of waiting for the whole next commit. Under load that about halves the
        // number of commits; alone, a request waits no longer than it did.
        let batch: Queued[] | undefined;
        try {
          const written = await this.store.groupedTransaction(async (tx) => {
            // Taken once (a backend that ran this again would get the same batch).
            const taken = batch ?? this.#take();
            batch = taken;
            return {
              taken,
              refusals: await writeUnits(
                tx,
                taken.map((q) => q.unit),
              ),
            };
          });
          this.#settle(written.taken, written.refusals);
        } catch (error) {
          // The batch failed as a whole, or its transaction could not even begin (then what it
          // would have taken is taken now): a lone request fails with the error, several are each
          // written again on their own, so only a faulty one fails.
          const failed = batch ?? this.#take();
          if (failed.length === 1) (failed[0] as Queued).reject(error);
          else await Promise.all(failed.map((queued) => this.#writeAlone(queued)));
        }
      }
    } finally {
      this.#writing = false;
    }
  }

  /** What waits, up to the message cap (a request is never split), taken off the queue. */
  #take(): Queued[] {
    let taken = 0;
    let messages = 0;
    while (
      taken < this.#queue.length &&
      (taken === 0 || messages + (this.#queue[taken] as Queued).unit.messages.length <= this.maxMessages)
    ) {
      messages += (this.#queue[taken] as Queued).unit.messages.length;
      taken++;
    }
    this.#queuedMessages -= messages;
    return this.#queue.splice(0, taken);
  }

  /**
   * What waits to be taken into a batch (not the batch being written): requests, their messages,
   * and the `now` of the oldest, undefined when none waits. Read on every request by admission
   * control (http/admission.ts), so kept as counters, never counted.
   */
  get waiting(): { units: number; messages: number; oldestNow: number | undefined } {
    return { units: this.#queue.length, messages: this.#queuedMessages, oldestNow: this.#queue[0]?.unit.now };
  }

  async #writeAlone(queued: Queued): Promise<void> {
    try {
      this.#settle([queued], await this.store.groupedTransaction((tx) => writeUnits(tx, [queued.unit])));
    } catch (error) {
      queued.reject(error);
    }
  }

  #settle(batch: readonly Queued[], refusals: ReadonlyArray<ApiError | undefined>): void {
    for (const [i, queued] of batch.entries()) {
      const refusal = refusals[i];
      if (refusal) queued.reject(refusal);
      else queued.resolve();
    }
  }
}

/** The queue of a store, made on first use: every request on that store shares it. */
const queues = new WeakMap<Store, AcceptQueue>();
export function acceptQueueOf(store: Store): AcceptQueue {
  let queue = queues.get(store);
  if (!queue) {
    queue = new AcceptQueue(store);
    queues.set(store, queue);
  }
  return queue;
}

/**
 * Writes units in the caller's transaction; returns, per unit, its refusal (a suppressed recipient,
 * then a hold the balance does not cover), undefined for a unit written. A refused unit writes
 * nothing. Holds come first, account by account in id order, so two batches never wait on each
 * other's account rows in a cycle.
 */
export async function writeUnits(tx: Store, units: readonly AcceptUnit[]): Promise<Array<ApiError | undefined>> {
  const refusals = await suppressionRefusals(tx, units);
  const held = units.map(() => false);
  const byAccount = new Map<string, number[]>();
  for (const [i, unit] of units.entries()) {
    if (!refusals[i]) byAccount.set(unit.accountId, [...(byAccount.get(unit.accountId) ?? []), i]);
  }
  for (const accountId of [...byAccount.keys()].sort()) {
    const indexes = byAccount.get(accountId) as number[];
    const together =
      indexes.length > 1 &&
      (await reserve(
        tx,
        accountId,
        indexes.map((i) => units[i] as AcceptUnit),
      ));
    for (const i of indexes) held[i] = together || (await reserve(tx, accountId, [units[i] as AcceptUnit]));
  }

  for (const [i, unit] of units.entries()) if (!refusals[i] && !held[i]) refusals[i] = unit.insufficient();
  const accepted = units.filter((_, i) => held[i]);
  if (accepted.length === 0) return refusals;
  await tx.messages.insertQueued(
    accepted.flatMap((unit) =>
      unit.messages.map((message, i) => ({
        message,
        payload: unit.payloads[i] ?? null,
        suppressionExempt: unit.suppressionExempt === true,
      })),
    ),
  );
  await tx.jobs.enqueueMany(
    accepted.flatMap((unit) =>
      unit.messages.map((m) => ({
        kind: JOB_KINDS.deliverMessage,
        messageId: m.id,
        payload: null,
        runAt: Math.max(m.scheduledAt ?? unit.now, unit.now),
      })),
    ),
    Math.max(...accepted.map((unit) => unit.now)),
  );
  // The channel's own step for each accepted message (its StatusHooks: email's `queued` event).
  for (const unit of accepted) {
    for (const message of unit.messages) await tx.channels.hooksOf(message.channel)?.moved?.(tx, message, unit.now);
  }
  // Last, so a unit whose key was taken over fails the batch only after everything else was tried;
  // the batch is then written again unit by unit and that unit alone fails.
  for (const unit of accepted) await unit.answer?.keep(tx, unit.messages);
  // Counted once committed (tx.meter). A unit is one request: its messages share a channel.
  for (const unit of accepted) if (unit.messages[0]) tx.meter.messages(unit.messages[0].channel, 'queued', unit.messages.length);
  // Followed once committed too (tx.trail): a line (and a span) a message.
  for (const unit of accepted) tx.trail.accepted(unit.messages);
  return refusals;
}

/** One conditional hold for the units' total cost; the account's message counters move with it. */
function reserve(tx: Store, accountId: string, units: readonly AcceptUnit[]): Promise<boolean> {
  const counts: Partial<Record<Channel, number>> = {};
  for (const unit of units) for (const message of unit.messages) counts[message.channel] = (counts[message.channel] ?? 0) + 1;
  return tx.credits.reserveMany(
    accountId,
    units.flatMap((unit) => unit.messages.map((m) => ({ messageId: m.id, micros: m.costMicros }))),
    (units[0] as AcceptUnit).now,
    counts,
  );
}
