import { JOB_KINDS } from '../delivery/job-kinds.js';
import { monotonicTimeOrderedId } from '../ids.js';
import type { Store, WebhookDelivery } from '../ports.js';

/** Where one event goes: a registered webhook, or (webhookId null) a message's own callback_url. */
export interface DeliveryTarget {
  accountId: string;
  webhookId: string | null;
  url: string;
}

/** A new, not yet attempted delivery of `eventId` to `target`, due at once. */
export const newDelivery = (target: DeliveryTarget, eventId: string, at: number): WebhookDelivery => ({
  id: `whd_${monotonicTimeOrderedId(at)}`,
  accountId: target.accountId,
  eventId,
  webhookId: target.webhookId,
  url: target.url,
  status: 'pending',
  attempts: 0,
  lastStatusCode: null,
  lastError: null,
  lastLatencyMs: null,
  lastAttemptAt: null,
  nextAttemptAt: at,
  createdAt: at,
});

/** New delivery rows and their jobs, in the caller's transaction: a row never waits without a job. */
export async function queueDeliveries(tx: Store, deliveries: readonly WebhookDelivery[], at: number): Promise<void> {
  if (deliveries.length === 0) return;
  await tx.webhooks.insertDeliveries(deliveries);
  await tx.jobs.enqueueMany(
    // The receiver (its webhook, or the callback URL) rides along, so a worker sees a busy one before reading anything.
    deliveries.map((d) => ({
      kind: JOB_KINDS.deliverWebhook,
      messageId: null,
      payload: { deliveryId: d.id, receiver: d.webhookId ?? d.url },
      runAt: at,
    })),
    at,
  );
}
