import type { ProviderReceipt } from '../core/delivery/provider.js';

export { JOB_KINDS, type JobKind } from '../core/delivery/job-kinds.js';

export type ProviderReceiptPayload = ProviderReceipt;

/** What a job handler decided: finished (the job is removed) or try again later. */
export type JobResult = { done: true } | { done: false; retryAt: number; error: string };

export const DONE: JobResult = { done: true };
