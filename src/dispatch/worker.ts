import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { JobKind } from '../core/delivery/job-kinds.js';
import { randomId } from '../core/ids.js';
import { batchPerTurn } from '../core/per-turn.js';
import type { ClaimedJob, Store } from '../core/ports.js';
import type { DispatchContext } from './dispatch-context.js';
import type { BatchJobHandler, ClaimStep, Job, JobResult } from './job.js';
import { type Runnable, runnable, specOf } from './job-catalogue.js';
import { backoffDelayMs, busyReceiverRetryAt, JOB_FAILURE_POLICY } from './retry-policy.js';
import { type SettleJobs, settleJobsAs } from './settle-jobs.js';

export interface WorkerOptions {
  /** Jobs claimed per round trip to the store. */
  batchSize: number;
  /** Jobs of one batch run at the same time. */
  concurrency: number;
  /**
   * How long a lease holds without renewal. A running worker renews the leases of the jobs it holds
   * every third of this, so its jobs are taken over this long after it dies, however long their
   * sends take.
   */
  leaseMs: number;
  /** Longest sleep between looks at the store when nothing wakes the worker. */
  pollIntervalMs: number;
  /**
   * How long the worker waits before each claim that does not follow a full one, so the sends of
   * the next few group commits are claimed (and handed over, and recorded) as one wave rather than
   * a wave each; after a full claim, or lanes busy with work known due, it claims at once. 0 (or omitted) claims at once; processes take
   * `WORKER_LINGER_MS` (DEFAULT_WORKER_OPTIONS: 5).
   */
  lingerMs?: number;
  /**
   * Jobs claimed for one slot key (a webhook receiver) kept waiting for a free slot, and for all
   * keys together; past these, a job is put back.
   */
  maxWaitingPerKey?: number;
  maxWaiting?: number;
}

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = {
  batchSize: 500,
  concurrency: 1_000,
  leaseMs: 15_000,
  pollIntervalMs: 1_000,
  lingerMs: 5,
};

type BatchHandler = BatchJobHandler<JobKind, unknown>;

/** The jobs of one slot key (a webhook receiver) in this worker. */
interface SlotQueue {
  running: number;
  /** Claimed, waiting for a slot, in claim order. */
  waiting: Single[];
  /** How long its jobs take, smoothed; 0 until the first ends. */
  averageMs: number;
  /** When its first job started. */
  since: number;
}

/** Jobs one slot key (a receiver) keeps waiting in this process, and all keys together, unless the options say otherwise. */
const MAX_WAITING_PER_KEY = 2_000;
const MAX_WAITING = 20_000;

/** A job given up on: dropped, with what its work becomes (its kind's `onDropped`, job-catalogue.ts). */
const DROP = Symbol('drop');

/**
 * Claims due jobs in batches under a lease and runs them. The loop sleeps until woken (new work in
 * this process, a NOTIFY from another) or until the next job falls due, whichever is first; the
 * poll interval bounds the sleep as a fallback, not as the main path.
 */
export class Worker {
  readonly id = `wrk_${randomId(12)}`;
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #woken = false;
  readonly #abort = new AbortController();
  /** Work the running loop has in flight (a batch, or one job). */
  readonly #active = new Set<Promise<void>>();
  /** Jobs in flight: the lanes taken. */
  #busy = 0;
  #heartbeat: NodeJS.Timeout | undefined;
  /** The renewal under way, if any: the next beat skips rather than queue behind a slow store. */
  #renewing: Promise<void> | undefined;
  /**
   * Jobs whose work is under way, the only leases the heartbeat renews. A job whose work ended
   * without its outcome recorded (the store failed) is left to its lease: renewing it would keep it
   * from every other worker for as long as this one lives.
   */
  readonly #working = new Map<string, number>();
  /**
   * Per slot key (a webhook receiver): jobs running, and jobs claimed that wait for one of them to
   * end, in claim order. Waiting takes no lane, so a slow receiver's backlog never keeps sends or
   * other receivers' deliveries from being claimed, and costs the store nothing while it waits:
   * no put-back, no claim again (the heartbeat renews its lease with the others).
   */
  readonly #slots = new Map<string, SlotQueue>();
  /** Ids of the jobs waiting for a slot, with when their lease was last known to be extended. */
  readonly #waitingSince = new Map<string, number>();
  /** When the last renewal of this worker's leases began (it extended every lease it held then). */
  #renewedAt = 0;
  /** Ends the current linger (see `lingerMs`) at once; set while the loop lingers. */
  #endLinger: (() => void) | undefined;

  constructor(
    private readonly ctx: DispatchContext,
    private readonly options: WorkerOptions = DEFAULT_WORKER_OPTIONS,
  ) {}

  readonly #settle = settleJobsAs(this.id);

  /** Claims one batch of due jobs and runs what its lease leaves time for; returns how many jobs it claimed. */
  async runOnce(): Promise<number> {
    const claimedAt = this.ctx.clock.now();
    const { jobs, batches, singles } = await this.#claim(claimedAt, this.options.batchSize);
    const leaseEnd = claimedAt + this.options.leaseMs;
    let next = 0;
    const lane = async () => {
      for (let first = true; next < singles.length && !this.#abort.signal.aborted; first = false) {
        // Past a lane's first job, a job is only started while a whole send still fits in the
        // lease: once the lease ends another worker may claim the job, and both would hand it over.
        if (!first && this.ctx.clock.now() + this.ctx.sendTimeoutMs >= leaseEnd) return;
        const single = singles[next++] as Single;
        await this.#run(single.job, single.ready);
      }
    };
    const lanes = Math.min(this.options.concurrency, singles.length);
    try {
      await Promise.all([...batches.map((batch) => this.#runBatch(batch)), ...Array.from({ length: lanes }, lane)]);
    } finally {
      this.#worked(jobs);
    }
    // Jobs of the batch left unstarted are given back at once, for the next claim (this worker's or
    // another's). Every job started has been completed or rescheduled, so they are all this worker holds.
    if (next < singles.length && !this.#abort.signal.aborted) await this.ctx.store.jobs.releaseAll(this.id);
    return jobs.length;
  }

  /**
   * Claims due jobs. On SQLite the claim shares a commit (and its fsync) with whatever else is being
   * written at the moment: on its own it was a commit per claim. A claim lost to a crash costs
   * nothing — the jobs are simply free again — and nothing is handed over before the in-flight mark
   * that follows it is durable. On PostgreSQL it is a transaction of its own (the claims skip rows
   * other workers hold), as it would be without one.
   */
  async #claim(now: number, limit: number): Promise<Claim> {
    const claimIn = async (tx: Store, withSteps: boolean): Promise<Claim> => {
      const claim = partition(await tx.jobs.claimDue(this.id, now, this.options.leaseMs, limit), this.#settle);
      // Each batch's claim step (its kind's onClaim) in the same transaction: one commit for both.
      if (withSteps) {
        for (const batch of claim.batches) {
          if (!batch.onClaim) continue;
          try {
            batch.claimed = await batch.onClaim(this.ctx, tx, batch.jobs, batch.settle);
          } catch (error) {
            throw new ClaimStepFailed(error);
          }
        }
      }
      return claim;
    };
    let claim: Claim;
    try {
      claim = await this.ctx.store.groupedTransaction((tx) => claimIn(tx, true));
    } catch (error) {
      // A claim that fails fails as before (the loop logs it and tries again). A claim step that
      // fails (a row another transaction holds, a broken row) must not stop every claim: claimed
      // without the steps, the handlers take them, and a job that keeps failing is dropped as any.
      if (!(error instanceof ClaimStepFailed)) throw error;
      this.ctx.logger.warn({ err: error.cause }, 'claim step failed; claiming without it');
      claim = await this.ctx.store.groupedTransaction((tx) => claimIn(tx, false));
    }
    // Counted: a job settled for a retry mid-batch may be claimed again by this worker before the
    // batch that first held it ends, and the first end must not stop the second claim's renewals.
    for (const job of claim.jobs) this.#working.set(job.id, (this.#working.get(job.id) ?? 0) + 1);
    return claim;
  }

  /** The work of `jobs` has ended, recorded or not: their leases are no longer renewed. */
  #worked(jobs: readonly ClaimedJob[]): void {
    for (const job of jobs) {
      const claims = (this.#working.get(job.id) ?? 0) - 1;
      if (claims > 0) this.#working.set(job.id, claims);
      else this.#working.delete(job.id);
    }
  }

  /** What to do with a job whose handler threw: again after a backoff, or (DROP) given up after too many failures in a row. */
  #afterThrow(job: ClaimedJob, error: unknown): JobResult | typeof DROP {
    this.ctx.logger.error({ err: error, job_id: job.id, kind: job.kind, message_id: job.messageId }, 'job failed');
    const policy = specOf(job.kind)?.failures ?? JOB_FAILURE_POLICY;
    const failures = job.failures + 1;
    if (failures >= policy.maxAttempts) return DROP;
    return {
      done: false,
      retryAt: this.ctx.clock.now() + backoffDelayMs(policy, failures, this.ctx.random),
      error: error instanceof Error ? error.message : String(error),
      failed: true,
    };
  }

  /**
   * Drops jobs given up on, with what their work becomes (`onDropped`), in one transaction, for the
   * jobs this worker still holds. Should that fail, they are put back for the longest backoff.
   */
  async #drop(jobs: readonly ClaimedJob[]): Promise<void> {
    for (const job of jobs) {
      this.ctx.logger.error({ job_id: job.id, kind: job.kind, message_id: job.messageId }, 'dropping a job that failed too often');
    }
    try {
      await this.ctx.store.groupedTransaction(async (tx) => {
        const held = new Set(
          await tx.jobs.drop(
            jobs.map((job) => ({ id: job.id, attempts: job.attempts })),
            this.id,
          ),
        );
        const now = this.ctx.clock.now();
        for (const job of jobs) {
          if (!held.has(job.id)) continue;
          const spec = specOf(job.kind);
          await spec?.onDropped?.(this.ctx, tx, job, spec.payload(job.payload) ? job.payload : undefined, now);
        }
      });
    } catch (error) {
      this.ctx.logger.error({ err: error, jobs: jobs.length }, 'could not drop failing jobs; putting them back');
      const retryAt = this.ctx.clock.now() + (specOf(jobs[0]?.kind ?? '')?.failures ?? JOB_FAILURE_POLICY).maxDelayMs;
      const ids = jobs.map((job) => job.id);
      // Put back still counted as failing (25 or more): the next throw tries the drop again, 5 min on.
      // If even that fails, the jobs are left to their leases.
      const text = `could not be dropped: ${error instanceof Error ? error.message : String(error)}`;
      await this.ctx.store.groupedTransaction((tx) => tx.jobs.rescheduleFailed(ids, this.id, retryAt, text)).catch(() => {});
    }
  }

  /** Runs a single job, `ready` as `runnable(job)` said. */
  async #run(job: ClaimedJob, ready: RunsAlone | Error): Promise<void> {
    let result: JobResult;
    try {
      if (ready instanceof Error) throw ready;
      result = await ready.one(this.ctx, ready.job, this.#abort.signal);
    } catch (error) {
      if (this.#abort.signal.aborted) return; // shutting down: the lease is released in stop()
      const next = this.#afterThrow(job, error);
      if (next === DROP) return this.#drop([job]);
      result = next;
    }
    await this.#settleSoon([job, result]);
  }

  /**
   * Records a single job's outcome with the others that end in the same turn: one transaction for
   * them all. Once more if it fails (PostgreSQL may pick it as a deadlock's victim): nothing of it
   * was written, and a job's work recorded in it (a webhook delivered) is otherwise done again.
   * Then each job on its own, so one whose record cannot be written fails alone.
   */
  readonly #settleSoon = batchPerTurn(async (outcomes: Array<readonly [ClaimedJob, JobResult]>) => {
    const write = (some: ReadonlyArray<readonly [ClaimedJob, JobResult]>) =>
      this.ctx.store.groupedTransaction((tx) => this.#settle(tx, some));
    try {
      await write(outcomes).catch(() => write(outcomes));
      return undefined;
    } catch {
      return Promise.all(
        outcomes.map((outcome) =>
          write([outcome]).then(
            () => undefined,
            (error: unknown) => error ?? new Error('could not record the job outcome'),
          ),
        ),
      );
    }
  });

  /**
   * Runs a batch. If its handler throws (a bug, or the store failing), the jobs it had not settled
   * are run again one by one, so one bad job cannot hold its whole batch back; a job that fails on
   * its own is retried after a backoff, and dropped after too many failures in a row.
   */
  async #runBatch(batch: Batch): Promise<void> {
    const { handler, jobs, settled } = batch;
    try {
      await handler(this.ctx, jobs, this.#abort.signal, batch.settle, batch.claimed);
    } catch (error) {
      if (this.#abort.signal.aborted) return; // shutting down: the lease is released in stop()
      const left = jobs.filter((job) => !settled.has(job.id));
      if (left.length > 1) {
        this.ctx.logger.warn({ err: error, kind: left[0]?.kind, jobs: left.length }, 'job batch failed; running its jobs one by one');
        await Promise.all(left.map((job) => this.#runBatch(newBatch(handler, [job], this.#settle))));
        return;
      }
      const outcomes: Array<[ClaimedJob, JobResult]> = [];
      const dropped: ClaimedJob[] = [];
      for (const job of left) {
        const next = this.#afterThrow(job, error);
        if (next === DROP) dropped.push(job);
        else outcomes.push([job, next]);
      }
      if (outcomes.length > 0) await this.ctx.store.groupedTransaction((tx) => this.#settle(tx, outcomes));
      if (dropped.length > 0) await this.#drop(dropped);
    }
  }

  /**
   * Extends the leases of the jobs this worker is working on to a full lease from now (the
   * heartbeat). A failure is logged; the leases then run out, and other workers take the jobs over.
   */
  renewLeases(): Promise<void> {
    if (this.#renewing) return this.#renewing;
    if (this.#working.size === 0) return Promise.resolve();
    const startedAt = this.ctx.clock.now();
    const renewing = this.ctx.store.jobs
      .renewLeases(this.id, [...this.#working.keys()], this.ctx.clock.now() + this.options.leaseMs)
      .then(
        () => {
          this.#renewedAt = startedAt;
        },
        (error: unknown) => this.ctx.logger.warn({ err: error, worker_id: this.id }, 'could not renew job leases'),
      )
      .finally(() => {
        this.#renewing = undefined;
      });
    this.#renewing = renewing;
    return renewing;
  }

  /** Asks a sleeping loop to look for work now. */
  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#runLoop();
    // A third of the lease: two beats may be missed (a store briefly slow or locked) before the
    // lease runs out under a worker that is still alive.
    this.#heartbeat = setInterval(() => void this.renewLeases(), Math.max(1, Math.floor(this.options.leaseMs / 3)));
    this.#heartbeat.unref();
  }

  /**
   * The running loop keeps up to `concurrency` jobs in flight and claims only for free lanes, so a
   * job that takes long (a receiver that never answers) holds one lane, never the next claim: the
   * other lanes go on with messages and other receivers. A finished job wakes the loop.
   */
  async #runLoop(): Promise<void> {
    const lingerMs = this.options.lingerMs ?? 0;
    // The last claim came back full: more is due now, and is claimed without lingering.
    let backlog = false;
    while (this.#running) {
      // SQLite answers synchronously: without a turn of the event loop here, a loop that keeps
      // finding due work (retries due at once) would never let sockets and timers run.
      await yieldToEventLoop();
      if (lingerMs > 0 && !backlog && this.#running) await this.#linger(lingerMs);
      if (!this.#running) break;
      this.#woken = false;
      const free = this.options.concurrency - this.#busy;
      if (free > 0) {
        // Known to be due until a claim says otherwise (lanes all busy: it still is).
        backlog = false;
        try {
          const limit = Math.min(free, this.options.batchSize);
          const { jobs, batches, singles } = await this.#claim(this.ctx.clock.now(), limit);
          for (const batch of batches) this.#track(batch.jobs, this.#runBatch(batch));
          for (const single of singles) this.#start(single);
          backlog = jobs.length === limit;
          if (backlog) continue; // more may be due
        } catch (error) {
          this.ctx.logger.error({ err: error }, 'worker could not claim jobs; retrying');
        }
      }
      if (!this.#running) break;
      // Woken meanwhile (work committed, a job ended): the sleep ends at once, so when the next
      // job is due is not asked (under load nearly every turn; on PostgreSQL three round trips).
      const full = this.#busy >= this.options.concurrency;
      await this.#sleep(full || this.#woken ? this.options.pollIntervalMs : await this.#untilNextDue());
    }
    await Promise.allSettled([...this.#active]);
  }

  /**
   * Starts a single job now, or, when its slot key has no free slot, keeps it waiting for one. Past
   * MAX_WAITING_PER_KEY (or MAX_WAITING in all), a job is put back, due when the jobs ahead of it
   * should be done (from how long its key's jobs take), not at once: a backlog larger than the
   * process keeps is claimed again about once, not every few hundred milliseconds.
   */
  #start({ job, ready }: Single): void {
    const slot = ready instanceof Error ? undefined : ready.slot?.(this.ctx, ready.job.payload);
    if (!slot) {
      this.#track([job], this.#run(job, ready));
      return;
    }
    if (this.#waitingSince.has(job.id)) {
      // Claimed again by this worker while it waited (its lease had run out): it waits once.
      this.#worked([job]);
      return;
    }
    let entry = this.#slots.get(slot.key);
    if (!entry) {
      entry = { running: 0, waiting: [], averageMs: 0, since: performance.now() };
      this.#slots.set(slot.key, entry);
    }
    if (entry.running < slot.limit) {
      this.#runInSlot({ job, ready }, slot.key, entry);
      return;
    }
    if (
      entry.waiting.length < (this.options.maxWaitingPerKey ?? MAX_WAITING_PER_KEY) &&
      this.#waitingSince.size < (this.options.maxWaiting ?? MAX_WAITING)
    ) {
      entry.waiting.push({ job, ready });
      this.#waitingSince.set(job.id, this.ctx.clock.now());
      return;
    }
    // Until the first of the key's jobs ends, how long they take is at least how long it has run.
    const averageMs = entry.averageMs > 0 ? entry.averageMs : performance.now() - entry.since;
    const ahead = (entry.waiting.length + entry.running) / slot.limit;
    const retryAt = busyReceiverRetryAt(this.ctx.clock.now(), ahead * averageMs);
    this.#track([job], this.#settleSoon([job, { done: false, retryAt, error: 'receiver busy' }]));
  }

  /** Runs `job` in one of its key's slots; when it ends, the next job waiting for the key takes the slot. */
  #runInSlot({ job, ready }: Single, key: string, entry: SlotQueue): void {
    entry.running++;
    const started = performance.now();
    const ended = () => {
      // How long this key's jobs take, smoothed (for how long a job put back waits).
      const took = performance.now() - started;
      entry.averageMs = entry.averageMs === 0 ? took : entry.averageMs * 0.9 + took * 0.1;
      entry.running--;
      const next = this.#running ? this.#nextWaiting(entry) : undefined;
      if (next) this.#runInSlot(next, key, entry);
      else if (entry.running === 0 && entry.waiting.length === 0) this.#slots.delete(key);
    };
    this.#track([job], this.#run(job, ready).finally(ended));
  }

  /**
   * The first waiting job whose lease still holds until the next renewal. One whose lease may run
   * out before (renewals failed for a while) is let go: another worker may have it, or this one
   * claims it again.
   */
  #nextWaiting(entry: SlotQueue): Single | undefined {
    const now = this.ctx.clock.now();
    for (let next = entry.waiting.shift(); next; next = entry.waiting.shift()) {
      const extended = Math.max(this.#waitingSince.get(next.job.id) ?? 0, this.#renewedAt);
      this.#waitingSince.delete(next.job.id);
      // Still held for longer than a beat of the heartbeat, which renews it from here on.
      if (extended + this.options.leaseMs - now > this.options.leaseMs / 3) return next;
      this.#worked([next.job]);
    }
    return undefined;
  }

  /** Jobs waiting for a slot are no longer waited for (the worker stops): their leases are given back with the rest. */
  #forgetWaiting(): void {
    for (const entry of this.#slots.values()) {
      this.#worked(entry.waiting.map((waiting) => waiting.job));
      entry.waiting = [];
    }
    this.#waitingSince.clear();
  }

  /** Counts `jobs` in flight until `work` ends, then wakes the loop to claim for them. */
  #track(jobs: readonly ClaimedJob[], work: Promise<void>): void {
    const lanes = jobs.length;
    this.#busy += lanes;
    const running: Promise<void> = work
      .catch((error: unknown) => this.ctx.logger.error({ err: error, kind: 'jobs' }, 'could not record a job outcome'))
      .finally(() => {
        this.#worked(jobs);
        this.#busy -= lanes;
        this.#active.delete(running);
        this.wake();
      });
    this.#active.add(running);
  }

  async #untilNextDue(): Promise<number> {
    try {
      const now = this.ctx.clock.now();
      const next = await this.ctx.store.jobs.nextDueAt(now);
      if (next === undefined) return this.options.pollIntervalMs;
      return Math.max(0, Math.min(next - now, this.options.pollIntervalMs));
    } catch {
      return this.options.pollIntervalMs;
    }
  }

  /**
   * Waits `ms` before a claim, whatever wakes the worker meanwhile (the wake-ups are the sends it
   * waits for); cut short when the worker stops.
   */
  #linger(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#endLinger = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#endLinger = done;
    });
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = undefined;
        done();
      };
      if (this.#woken || !this.#running) this.#wake();
    });
  }

  /**
   * Stops claiming, lets running jobs finish for up to `deadlineMs`, then aborts what is left and
   * gives its jobs back so another worker (or the next start) takes them at once.
   */
  async stop(deadlineMs: number): Promise<void> {
    this.#running = false;
    this.#wake?.();
    this.#endLinger?.();
    if (this.#loop) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), deadlineMs);
      });
      const finished = await Promise.race([this.#loop.then(() => 'done' as const), deadline]);
      clearTimeout(timer);
      if (finished === 'late') {
        this.#abort.abort(new Error('worker stopping'));
        await this.#loop.catch(() => {});
      }
    }
    this.#forgetWaiting();
    clearInterval(this.#heartbeat);
    await this.#renewing;
    const released = await this.ctx.store.jobs.releaseAll(this.id);
    if (released > 0) this.ctx.logger.info({ released }, 'gave back unfinished jobs');
  }
}

/** A claim step threw: the claim is made again without the steps. */
class ClaimStepFailed extends Error {
  constructor(cause: unknown) {
    super(`claim step failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** A job of a kind that runs one by one, ready to run. */
type RunsAlone = Extract<Runnable, { one: unknown }>;

/** A claimed job run on its own, with what `runnable` said of it (checked once, at the claim). */
interface Single {
  job: ClaimedJob;
  ready: RunsAlone | Error;
}

/** Claimed jobs of one kind run together, with the jobs settled so far and the result of the kind's claim step. */
interface Batch {
  handler: BatchHandler;
  onClaim?: ClaimStep<JobKind, unknown> | undefined;
  jobs: Job[];
  /** Settles some of the batch's jobs, noting which (a batch that fails runs only the others again). */
  settle: SettleJobs;
  settled: Set<string>;
  claimed?: unknown;
}

/** What one claim took: every job, its batches and its singles. */
interface Claim {
  jobs: readonly ClaimedJob[];
  batches: Batch[];
  singles: Single[];
}

/** A batch of claimed jobs of one kind, noting which of them are settled. */
function newBatch(handler: BatchHandler, jobs: Job[], settleAll: SettleJobs, onClaim?: ClaimStep<JobKind, unknown>): Batch {
  const settled = new Set<string>();
  const settle: SettleJobs = (tx, outcomes) => {
    for (const [job] of outcomes) settled.add(job.id);
    return settleAll(tx, outcomes);
  };
  return { handler, onClaim, jobs, settle, settled };
}

/**
 * Splits claimed jobs into batches of one kind (for kinds run in batches) and jobs run one by one.
 * A job that cannot run (a kind this version does not know, a broken payload) goes with the
 * singles, where it fails as a job whose handler threw.
 */
function partition(jobs: readonly ClaimedJob[], settleAll: SettleJobs): Claim {
  const grouped = new Map<BatchHandler, Batch>();
  const singles: Single[] = [];
  for (const job of jobs) {
    const ready = runnable(job);
    if (ready instanceof Error || !ready.batch) {
      singles.push({ job, ready });
      continue;
    }
    const batch = grouped.get(ready.batch);
    if (batch) batch.jobs.push(ready.job);
    else grouped.set(ready.batch, newBatch(ready.batch, [ready.job], settleAll, ready.onClaim));
  }
  return { jobs, batches: [...grouped.values()], singles };
}
