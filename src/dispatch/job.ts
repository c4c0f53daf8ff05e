import type { JobKind, JobPayloads } from '../core/delivery/job-kinds.js';
import type { ClaimedJob, Store } from '../core/ports.js';
import type { DispatchContext } from './dispatch-context.js';
import type { SettleJobs } from './settle-jobs.js';

/** A claimed job whose payload has been checked against its kind's schema (job-catalogue.ts). */
export interface Job<K extends JobKind = JobKind> extends ClaimedJob {
  kind: K;
  payload: JobPayloads[K];
}

/**
 * A write that records part of a job's work. Those of the jobs settled together that share a
 * `write` function are made in one call, with all their items (one multi-row statement rather
 * than a statement a job): `write` must be one function for all of them, not a closure per job.
 */
export interface Recorded {
  readonly write: (tx: Store, items: unknown[]) => Promise<void>;
  readonly item: unknown;
}

/** `item`, to be written by `write` with the items of the other jobs settled in the same transaction. */
export function recorded<T>(write: (tx: Store, items: T[]) => Promise<void>, item: T): Recorded {
  // Sound: the items grouped under one `write` are the items given with it, all of type T.
  return { write: write as Recorded['write'], item };
}

/**
 * What a job handler decided: finished (the job is removed) or try again later. `record`: the
 * job's own writes, made in the transaction that settles it (with the other jobs that end in the
 * same turn), so its work and its removal commit together.
 */
export type JobResult =
  | { done: true; record?: readonly Recorded[] }
  /** `failed`: the handler threw (a bug, a broken stored row), counted in the job's failures in a row. */
  | { done: false; retryAt: number; error: string; failed?: true };

export const DONE: JobResult = { done: true };

/** Runs one job and says what became of it; the worker records that. */
export type JobHandler<K extends JobKind> = (ctx: DispatchContext, job: Job<K>, signal: AbortSignal) => Promise<JobResult>;

/**
 * Runs jobs of one kind together, settling each (in the transaction that records its work) as it
 * ends. `claimed`: what the kind's claim step made of the jobs in the transaction that claimed them,
 * undefined when it did not run there (the handler then takes that step itself).
 */
export type BatchJobHandler<K extends JobKind, P = undefined> = (
  ctx: DispatchContext,
  jobs: ReadonlyArray<Job<K>>,
  signal: AbortSignal,
  settle: SettleJobs,
  claimed?: P,
) => Promise<void>;

/**
 * The first, store-only step of a batch, run in the transaction that claims its jobs: one commit
 * for the claim and the step instead of one each (a commit is the largest cost of a wave of
 * messages). What it returns goes to the batch's handler. It may settle jobs it finds nothing to do
 * for. Should it fail, the claim is made again without it and the handler takes the step.
 */
export type ClaimStep<K extends JobKind, P> = (
  ctx: DispatchContext,
  tx: Store,
  jobs: ReadonlyArray<Job<K>>,
  settle: SettleJobs,
) => Promise<P>;

/**
 * What a dropped job's work becomes (the worker gave up on it after too many failures in a row),
 * written in the transaction that drops it. `payload` is undefined when the stored one is broken.
 */
export type OnDropped<K extends JobKind> = (
  ctx: DispatchContext,
  tx: Store,
  job: ClaimedJob,
  payload: JobPayloads[K] | undefined,
  at: number,
) => Promise<void>;
