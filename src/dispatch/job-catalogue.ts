import type { ProviderReceipt } from '../core/delivery/provider.js';
import type { Store } from '../core/ports.js';

export { JOB_KINDS, type JobKind } from '../core/delivery/job-kinds.js';

export type ProviderReceiptPayload = ProviderReceipt;

/**
 * What a job handler decided: finished (the job is removed) or try again later. `record`: the
 * job's own writes, made in the transaction that settles it (with the other jobs that end in the
 * same turn), so its work and its removal commit together.
 */
export type JobResult =
  | { done: true; record?: (tx: Store) => Promise<void> }
  /** `failed`: the handler threw (a bug, a broken stored row), counted in the job's failures in a row. */
  | { done: false; retryAt: number; error: string; failed?: true };

export const DONE: JobResult = { done: true };
