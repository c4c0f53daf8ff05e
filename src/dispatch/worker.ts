import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { randomId } from '../core/ids.js';
import type { ClaimedJob } from '../core/ports.js';
import { deliverMessage } from './deliver-message.job.js';
import { deliverWebhook } from './deliver-webhook.job.js';
import type { DispatchContext } from './dispatch-context.js';
import { JOB_KINDS, type JobResult } from './job-catalogue.js';
import { applyProviderReceipt } from './provider-receipt.job.js';
import { backoffDelayMs } from './retry-policy.js';

export interface WorkerOptions {
  /** Jobs claimed per round trip to the store. */
  batchSize: number;
  /** Jobs of one batch run at the same time. */
  concurrency: number;
  /** How long a claim holds before another worker may take the job over (a dead worker's jobs). */
  leaseMs: number;
  /** Longest sleep between looks at the store when nothing wakes the worker. */
  pollIntervalMs: number;
}

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = {
  batchSize: 100,
  concurrency: 128,
  leaseMs: 60_000,
  pollIntervalMs: 1_000,
};

type Handler = (ctx: DispatchContext, job: ClaimedJob, signal: AbortSignal) => Promise<JobResult>;

const HANDLERS: Record<string, Handler> = {
  [JOB_KINDS.deliverMessage]: deliverMessage,
  [JOB_KINDS.providerReceipt]: applyProviderReceipt,
  [JOB_KINDS.deliverWebhook]: deliverWebhook,
};

/** A job whose handler keeps throwing (a bug, not a provider outcome) is dropped after this many claims. */
const MAX_CLAIMS_OF_A_FAILING_JOB = 25;

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
  /** Jobs the running loop has in flight. */
  readonly #active = new Set<Promise<void>>();

  constructor(
    private readonly ctx: DispatchContext,
    private readonly options: WorkerOptions = DEFAULT_WORKER_OPTIONS,
  ) {}

  /** Claims one batch of due jobs and runs what its lease leaves time for; returns how many jobs it claimed. */
  async runOnce(): Promise<number> {
    const claimedAt = this.ctx.clock.now();
    const jobs = await this.ctx.store.jobs.claimDue(this.id, claimedAt, this.options.leaseMs, this.options.batchSize);
    const leaseEnd = claimedAt + this.options.leaseMs;
    let next = 0;
    const lane = async () => {
      for (let first = true; next < jobs.length && !this.#abort.signal.aborted; first = false) {
        // Past a lane's first job, a job is only started while a whole send still fits in the
        // lease: once the lease ends another worker may claim the job, and both would hand it over.
        if (!first && this.ctx.clock.now() + this.ctx.sendTimeoutMs >= leaseEnd) return;
        const job = jobs[next++] as ClaimedJob;
        await this.#run(job);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, jobs.length) }, lane));
    // Jobs of the batch left unstarted are given back at once, for the next claim (this worker's or
    // another's). Every job started has been completed or rescheduled, so they are all this worker holds.
    if (next < jobs.length && !this.#abort.signal.aborted) await this.ctx.store.jobs.releaseAll(this.id);
    return jobs.length;
  }

  async #run(job: ClaimedJob): Promise<void> {
    const { store, logger, clock } = this.ctx;
    const handler = HANDLERS[job.kind];
    let result: JobResult;
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      result = await handler(this.ctx, job, this.#abort.signal);
    } catch (error) {
      if (this.#abort.signal.aborted) return; // shutting down: the lease is released in stop()
      logger.error({ err: error, job_id: job.id, kind: job.kind, message_id: job.messageId }, 'job failed');
      if (job.attempts >= MAX_CLAIMS_OF_A_FAILING_JOB) {
        logger.error({ job_id: job.id, kind: job.kind }, 'dropping a job that failed too often');
        result = { done: true };
      } else {
        const delay = backoffDelayMs(
          { baseDelayMs: 1_000, maxDelayMs: 300_000, maxAttempts: 0, maxAgeMs: 0 },
          job.attempts,
          this.ctx.random,
        );
        result = { done: false, retryAt: clock.now() + delay, error: error instanceof Error ? error.message : String(error) };
      }
    }
    // Grouped: the outcomes of jobs finishing together share one commit.
    const outcome = result;
    await store.groupedTransaction((tx) =>
      outcome.done ? tx.jobs.complete(job.id, this.id) : tx.jobs.reschedule(job.id, this.id, outcome.retryAt, outcome.error),
    );
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
  }

  /**
   * The running loop keeps up to `concurrency` jobs in flight and claims only for free lanes, so a
   * job that takes long (a receiver that never answers) holds one lane, never the next claim: the
   * other lanes go on with messages and other receivers. A finished job wakes the loop.
   */
  async #runLoop(): Promise<void> {
    while (this.#running) {
      // SQLite answers synchronously: without a turn of the event loop here, a loop that keeps
      // finding due work (receivers busy, retried in 250 ms) would never let sockets and timers run.
      await yieldToEventLoop();
      this.#woken = false;
      const free = this.options.concurrency - this.#active.size;
      if (free > 0) {
        try {
          const limit = Math.min(free, this.options.batchSize);
          const jobs = await this.ctx.store.jobs.claimDue(this.id, this.ctx.clock.now(), this.options.leaseMs, limit);
          for (const job of jobs) this.#startJob(job);
          if (jobs.length === limit) continue; // more may be due
        } catch (error) {
          this.ctx.logger.error({ err: error }, 'worker could not claim jobs; retrying');
        }
      }
      if (!this.#running) break;
      const full = this.#active.size >= this.options.concurrency;
      await this.#sleep(full ? this.options.pollIntervalMs : await this.#untilNextDue());
    }
    await Promise.allSettled([...this.#active]);
  }

  #startJob(job: ClaimedJob): void {
    const running: Promise<void> = this.#run(job)
      .catch((error: unknown) => this.ctx.logger.error({ err: error, job_id: job.id }, 'could not record a job outcome'))
      .finally(() => {
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
    const released = await this.ctx.store.jobs.releaseAll(this.id);
    if (released > 0) this.ctx.logger.info({ released }, 'gave back unfinished jobs');
  }
}
