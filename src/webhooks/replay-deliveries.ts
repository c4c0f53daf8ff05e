import type { Clock } from '../core/clock.js';
import { ApiError, notFound } from '../core/errors.js';
import { newDelivery, queueDeliveries } from '../core/events/queue-deliveries.js';
import { monotonicTimeOrderedId } from '../core/ids.js';
import type { DeliveryStatus, KeptAnswer, LoggedDelivery, Store, Webhook } from '../core/ports.js';
import { findWebhook } from './manage-webhooks.js';

/** At most this many deliveries are re-sent by one `replay?since=` call; call again for the rest. */
export const MAX_REPLAY_PER_CALL = 1000;

/** The type of the test event; not a kind one subscribes to: it goes to the webhook it was asked for. */
export const TEST_EVENT_TYPE = 'webhook.test';

type Deps = { store: Store; clock: Clock };

/** The webhook, which must be active: a disabled one would refuse the delivery at once. */
async function activeWebhook(store: Store, accountId: string, webhookId: string): Promise<Webhook> {
  const webhook = await findWebhook(store, accountId, webhookId);
  if (!webhook.active) {
    throw new ApiError(
      'WEBHOOK_DISABLED',
      `The webhook is disabled (${webhook.disabledReason ?? 'disabled'}); enable it with POST /v1/webhooks/${webhook.id}/enable first.`,
    );
  }
  return webhook;
}

const targetOf = (webhook: Webhook) => ({ accountId: webhook.accountId, webhookId: webhook.id, url: webhook.url });

/** A page of a webhook's delivery log, newest first. */
export async function listWebhookDeliveries(
  store: Store,
  accountId: string,
  webhookId: string,
  query: { status?: DeliveryStatus | undefined; limit: number; offset: number },
): Promise<{ deliveries: LoggedDelivery[]; total: number }> {
  const webhook = await findWebhook(store, accountId, webhookId);
  return store.webhooks.listDeliveries({ webhookId: webhook.id, ...query });
}

/**
 * Sends the event of one past delivery to the webhook again, now, as a new delivery with its own
 * attempts and retries; the old delivery stays in the log as it was. Any status may be replayed:
 * receivers deduplicate by event id, which the replay keeps.
 */
export async function replayDelivery(
  deps: Deps,
  accountId: string,
  webhookId: string,
  deliveryId: string,
  answer?: KeptAnswer<LoggedDelivery>,
): Promise<LoggedDelivery> {
  const webhook = await findWebhook(deps.store, accountId, webhookId);
  const original = await deps.store.webhooks.findDelivery(deliveryId);
  if (!original || original.webhookId !== webhook.id || original.accountId !== accountId) throw notFound('Delivery');
  await activeWebhook(deps.store, accountId, webhookId);
  const event = await deps.store.webhooks.findEvent(original.eventId);
  if (!event) throw notFound('Delivery');
  const now = deps.clock.now();
  const delivery = newDelivery(targetOf(webhook), event.id, now);
  const replayed: LoggedDelivery = Object.assign({}, delivery, { eventType: event.type });
  await deps.store.transaction(async (tx) => {
    await queueDeliveries(tx, [delivery], now);
    await answer?.keep(tx, replayed);
  });
  return replayed;
}

export interface ReplaySinceResult {
  /** Deliveries queued by this call, one per event. */
  queued: number;
  /** Whether failed deliveries beyond this call's limit remain; calling again continues with them. */
  hasMore: boolean;
}

/**
 * Re-sends every event whose delivery to the webhook failed (gave up, or was refused) and was made
 * at or after `since`, one new delivery per event, oldest first, at most MAX_REPLAY_PER_CALL.
 * Events already re-sent (a pending or succeeded delivery exists) are left out, so calling twice
 * sends nothing twice and a call after `hasMore` picks up where the last one stopped.
 */
export async function replayFailedSince(
  deps: Deps,
  accountId: string,
  webhookId: string,
  since: number,
  answer?: KeptAnswer<ReplaySinceResult>,
): Promise<ReplaySinceResult> {
  const webhook = await activeWebhook(deps.store, accountId, webhookId);
  return deps.store.transaction(async (tx) => {
    const failed = await tx.webhooks.failedSince(webhook.id, since, MAX_REPLAY_PER_CALL + 1);
    const now = deps.clock.now();
    const events = [...new Set(failed.slice(0, MAX_REPLAY_PER_CALL).map((d) => d.eventId))];
    await queueDeliveries(
      tx,
      events.map((eventId) => newDelivery(targetOf(webhook), eventId, now)),
      now,
    );
    const result = { queued: events.length, hasMore: failed.length > MAX_REPLAY_PER_CALL };
    await answer?.keep(tx, result);
    return result;
  });
}

/**
 * Sends a signed `webhook.test` event (data: {webhook_id}) to this webhook only, whatever kinds it
 * subscribes to, through the same queue, signing and log as every other event.
 */
export async function sendTestEvent(
  deps: Deps,
  accountId: string,
  webhookId: string,
  answer?: KeptAnswer<LoggedDelivery>,
): Promise<LoggedDelivery> {
  const webhook = await activeWebhook(deps.store, accountId, webhookId);
  const now = deps.clock.now();
  const id = `evt_${monotonicTimeOrderedId(now)}`;
  const body = JSON.stringify({ id, type: TEST_EVENT_TYPE, created_at: new Date(now).toISOString(), data: { webhook_id: webhook.id } });
  const delivery = newDelivery(targetOf(webhook), id, now);
  const queued: LoggedDelivery = Object.assign({}, delivery, { eventType: TEST_EVENT_TYPE });
  await deps.store.transaction(async (tx) => {
    await tx.webhooks.insertEvent({ id, accountId, messageId: null, type: TEST_EVENT_TYPE, body, createdAt: now });
    await queueDeliveries(tx, [delivery], now);
    await answer?.keep(tx, queued);
  });
  return queued;
}
