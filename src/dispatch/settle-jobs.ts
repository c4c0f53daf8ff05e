import type { ClaimedJob, Store } from '../core/ports.js';
import type { JobResult, Recorded } from './job.js';

/**
 * Records what became of jobs, inside the caller's transaction (the one that records their work,
 * so a job is removed exactly when its work is committed): finished ones removed in one statement
 * and their records written together (one call per write function), the others put back for later.
 */
export type SettleJobs = (tx: Store, outcomes: ReadonlyArray<readonly [ClaimedJob, JobResult]>) => Promise<void>;

/** Settles jobs as `workerId`: a job another worker has taken over meanwhile is left to it. */
export function settleJobsAs(workerId: string): SettleJobs {
  return async (tx, outcomes) => {
    const done = outcomes.filter(([, result]) => result.done).map(([job]) => job.id);
    // Only the work of jobs this worker still held is recorded: a job whose lease ran out was
    // taken over, and its new holder records its own outcome.
    const held = new Set(done.length > 0 ? await tx.jobs.completeMany(done, workerId) : []);
    const writes = new Map<Recorded['write'], unknown[]>();
    for (const [job, result] of outcomes) {
      if (!result.done || !held.has(job.id)) continue;
      for (const { write, item } of result.record ?? []) {
        const items = writes.get(write);
        if (items) items.push(item);
        else writes.set(write, [item]);
      }
    }
    for (const [write, items] of writes) await write(tx, items);
    // Jobs going back at the same time with the same error (deliveries waiting for a busy
    // receiver) are put back together.
    const back = new Map<string, { runAt: number; error: string; failed: boolean; ids: string[] }>();
    for (const [job, result] of outcomes) {
      if (result.done) continue;
      const failed = result.failed === true;
      const key = `${result.retryAt}|${failed}|${result.error}`;
      const group = back.get(key) ?? { runAt: result.retryAt, error: result.error, failed, ids: [] };
      group.ids.push(job.id);
      back.set(key, group);
    }
    for (const { runAt, error, failed, ids } of back.values()) {
      if (failed) await tx.jobs.rescheduleFailed(ids, workerId, runAt, error);
      else if (ids.length === 1) await tx.jobs.reschedule(ids[0] as string, workerId, runAt, error);
      else await tx.jobs.rescheduleMany(ids, workerId, runAt, error);
    }
  };
}
