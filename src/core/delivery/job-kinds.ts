import type { ReceivedMessage } from '../inbound/inbound-message.js';
import type { ProviderReceipt } from './provider.js';

/** Every kind of job the workers run. Providers enqueue receipts; use cases enqueue deliveries. */
export const JOB_KINDS = {
  /** Hand a queued message to its channel's provider. No payload: the message id is on the job. */
  deliverMessage: 'deliver_message',
  /** Feed a provider's delivery report into the status machine. */
  providerReceipt: 'provider_receipt',
  /** Post one event to one receiver (a webhook or a callback_url). */
  deliverWebhook: 'deliver_webhook',
  /** Take a message a recipient sent, later (the sandbox's replies); providers that hear one on their link take it at once. */
  receiveMessage: 'receive_message',
  /** Send the confirmation of a STOP or START keyword (core/inbound/receive-messages.ts). */
  confirmKeyword: 'confirm_keyword',
} as const;

export type JobKind = (typeof JOB_KINDS)[keyof typeof JOB_KINDS];

/**
 * What a job of each kind carries (stored as JSON). The job catalogue (dispatch/job-catalogue.ts)
 * checks a claimed job's payload against its kind's schema before its handler sees it.
 */
export interface JobPayloads {
  deliver_message: null;
  provider_receipt: ProviderReceipt;
  /**
   * The receiver (webhook id, or the callback URL) rides along, so a busy one is seen before
   * anything is read; jobs queued by versions before it was added lack it.
   */
  deliver_webhook: { deliveryId: string; receiver?: string };
  /** The message, and the account it is for when it is known without its address (the sandbox's replies). */
  receive_message: { received: ReceivedMessage; accountId?: string };
  confirm_keyword: KeywordConfirmation;
}

/** A keyword's confirmation to send: its message id is chosen with the keyword, so a second run sends nothing. */
export interface KeywordConfirmation {
  messageId: string;
  accountId: string;
  channel: string;
  /** The recipient who wrote the keyword. */
  to: string;
  /** The account's address they wrote to. */
  from: string;
  action: 'stop' | 'start';
  language: string;
}

/** A job to enqueue: its payload's type follows from its kind, so a wrong one fails to compile. */
export type NewJob<K extends JobKind = JobKind> = {
  [P in K]: {
    kind: P;
    /** The message the job is for: a message has at most one job, keyed by it (ids.ts, jobIdOfMessage). */
    messageId: string | null;
    payload: JobPayloads[P];
    runAt: number;
  };
}[K];

/**
 * Due jobs run lowest number first. Receipts go first: they are quick, and a message's final
 * status, its charge and its webhooks should never wait behind a backlog of sends.
 */
export const JOB_PRIORITY: Record<JobKind, number> = {
  provider_receipt: 0,
  deliver_message: 1,
  deliver_webhook: 1,
  receive_message: 0,
  confirm_keyword: 1,
};
