import type { ProviderReceipt } from '../core/delivery/provider.js';

export { JOB_KINDS, type JobKind } from '../core/delivery/job-kinds.js';

export type ProviderReceiptPayload = ProviderReceipt;

/** What a job handler decided: finished (the job is removed) or try again later. */
export type JobResult =
  | { done: true }
  /** `failed`: the handler threw (a bug, a broken stored row), counted in the job's failures in a row. */
  | { done: false; retryAt: number; error: string; failed?: true };

export const DONE: JobResult = { done: true };
