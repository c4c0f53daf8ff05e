import type { ClaimedJob, Store } from '../core/ports.js';
import type { JobResult } from './job-catalogue.js';

/**
 * Records what became of jobs, inside the caller's transaction (the one that records their work,
 * so a job is removed exactly when its work is committed): finished ones removed in one statement,
 * the others put back for later.
 */
export type SettleJobs = (tx: Store, outcomes: ReadonlyArray<readonly [ClaimedJob, JobResult]>) => Promise<void>;

/** Settles jobs as `workerId`: a job another worker has taken over meanwhile is left to it. */
export function settleJobsAs(workerId: string): SettleJobs {
  return async (tx, outcomes) => {
    const done = outcomes.filter(([, result]) => result.done).map(([job]) => job.id);
    if (done.length > 0) await tx.jobs.completeMany(done, workerId);
    for (const [job, result] of outcomes) {
      if (!result.done) await tx.jobs.reschedule(job.id, workerId, result.retryAt, result.error);
    }
  };
}
