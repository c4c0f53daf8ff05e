/** Every kind of job the workers run. Providers enqueue receipts; use cases enqueue deliveries. */
export const JOB_KINDS = {
  /** Hand a queued message to its channel's provider. No payload: the message id is on the job. */
  deliverMessage: 'deliver_message',
  /** Feed a provider's delivery report into the status machine. Payload: a ProviderReceipt. */
  providerReceipt: 'provider_receipt',
  /** Post one event to one receiver (a webhook or a callback_url). Payload: `{deliveryId, receiver}` (webhook id or URL). */
  deliverWebhook: 'deliver_webhook',
} as const;

export type JobKind = (typeof JOB_KINDS)[keyof typeof JOB_KINDS];

/**
 * Due jobs run lowest number first. Receipts go first: they are quick, and a message's final
 * status, its charge and its webhooks should never wait behind a backlog of sends.
 */
export const JOB_PRIORITY: Record<JobKind, number> = {
  provider_receipt: 0,
  deliver_message: 1,
  deliver_webhook: 1,
};
