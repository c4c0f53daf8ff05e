import { followedBy } from '../core/message-trail.js';
import type { WebhookOutcome } from '../core/meter.js';
import { perTurn } from '../core/per-turn.js';
import type { DeliveryContext, Store, Webhook, WebhookDelivery } from '../core/ports.js';
import { withChanges } from '../core/with-changes.js';
import { postWebhook } from '../webhooks/sender.js';
import { generateWebhookSecret, signDelivery } from '../webhooks/signing.js';
import { resolveTarget } from '../webhooks/ssrf-guard.js';
import type { DispatchContext } from './dispatch-context.js';
import { DONE, type JobHandler, type JobResult, type OnDropped, recorded } from './job.js';
import { busyReceiverRetryAt, webhookRetryDelayMs } from './retry-policy.js';

/** A webhook failing for this long without a single success is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 3_600_000;

/**
 * How long a delivery waits in this process for a slot at a busy receiver (at most four times as
 * many as it has slots wait), before it is put back. The running worker keeps a receiver's
 * deliveries from starting beyond its slots (the kind's `slot`, job-catalogue.ts), so this wait is
 * for `runOnce` (tests, `herald worker --once`) and for another worker of the same process.
 */
const SLOT_WAIT_MS = 1_000;

/** Re-exported: the overlap belongs to the signing rules (webhooks/signing.ts). */
export { SECRET_OVERLAP_MS } from '../webhooks/signing.js';

/**
 * Posts one event to one receiver and records the outcome. At least once: a delivery is only
 * marked succeeded after a 2xx. A 410 disables the webhook at once; three days of consecutive
 * failures disable it too; other failures retry on the webhook schedule (retry-policy.ts), then give up.
 */
export const deliverWebhook: JobHandler<'deliver_webhook'> = async (ctx, job, signal) => {
  const { deliveryId, receiver } = job.payload;
  // The job names its receiver (jobs queued by earlier versions do not): its slot is then taken
  // before anything is read.
  if (receiver === undefined) return deliverOnce(ctx, deliveryId, undefined, signal);
  const limit = ctx.webhooks.perReceiverConcurrency;
  const slot = await ctx.receiverSlots.acquire(receiver, limit, { maxWaiting: limit * 4, maxWaitMs: SLOT_WAIT_MS, signal });
  if (!slot) return busy(ctx);
  try {
    return await deliverOnce(ctx, deliveryId, receiver, signal);
  } finally {
    ctx.receiverSlots.give(receiver);
  }
};

/** The writers of what the deliveries that end together record (`recorded`): one function each, so they are grouped. */
const recordAttempts = (tx: Store, deliveries: WebhookDelivery[]) => tx.webhooks.recordAttempts(deliveries);
const clearStreaks = (tx: Store, webhookIds: string[]) => tx.webhooks.clearFailureStreaks(webhookIds);

/** Back in a moment (retry-policy.ts): no slot for its receiver in this process. */
const busy = (ctx: DispatchContext): JobResult => ({ done: false, retryAt: busyReceiverRetryAt(ctx.clock.now()), error: 'receiver busy' });

/** The reads of the deliveries that start in one turn, made together: one query a turn, not one a delivery. */
const readers = new WeakMap<Store, (deliveryId: string) => Promise<DeliveryContext | undefined>>();
function contextOf(store: Store, deliveryId: string): Promise<DeliveryContext | undefined> {
  let read = readers.get(store);
  if (!read) {
    read = perTurn((ids: string[]) => store.webhooks.deliveryContexts(ids));
    readers.set(store, read);
  }
  return read(deliveryId);
}

/** One attempt; `heldSlot` is the receiver slot the caller already holds, if it does. */
async function deliverOnce(
  ctx: DispatchContext,
  deliveryId: string,
  heldSlot: string | undefined,
  signal: AbortSignal,
): Promise<JobResult> {
  const { store, clock } = ctx;
  const context = await contextOf(store, deliveryId);
  if (context?.delivery.status !== 'pending') return DONE;
  const { delivery } = context;

  let webhook: Webhook | undefined;
  if (delivery.webhookId) {
    webhook = context.webhook;
    if (!webhook) {
      const canceled = withChanges(delivery, { status: 'canceled', nextAttemptAt: null, lastError: 'the webhook was deleted' });
      return { done: true, record: [recorded(recordAttempts, canceled)] };
    }
    if (!webhook.active) {
      const failed = withChanges(delivery, { status: 'failed', nextAttemptAt: null, lastError: 'the webhook is disabled' });
      return { done: true, record: [recorded(recordAttempts, failed)] };
    }
  }

  const slot = delivery.webhookId ?? delivery.url;
  if (heldSlot === undefined && !ctx.receiverSlots.take(slot, ctx.webhooks.perReceiverConcurrency)) return busy(ctx);
  try {
    const { event, origin } = context;
    if (!event) return DONE;
    const now = clock.now();
    // Made on first use for accounts that never asked for it (a callback_url is enough to need one).
    const secrets = context.secrets ?? (await store.webhooks.signingSecrets(delivery.accountId, generateWebhookSecret, now));
    const signing = [secrets.secret, ...(secrets.previousSecret && (secrets.previousUntil ?? 0) > now ? [secrets.previousSecret] : [])];

    const target = await resolveTarget(delivery.url, {
      allowPrivateNetworks: ctx.webhooks.allowPrivateNetworks,
      lookup: ctx.webhooks.lookup,
    });
    // In the trace of the request that created the event's message, when traces are on: the POST
    // alone, started after every step that can throw, so it always ends.
    const span =
      ctx.tracing.enabled && origin?.traceContext
        ? ctx.tracing.start('webhook POST', {
            kind: 'client',
            parent: origin.traceContext,
            attributes: {
              'herald.delivery_id': delivery.id,
              'herald.event_id': event.id,
              'herald.event_type': event.type,
              'herald.attempt': delivery.attempts + 1,
            },
          })
        : undefined;
    const result = target.ok
      ? await postWebhook(
          target,
          event.body,
          { ...signDelivery(signing, event.id, Math.floor(now / 1000), event.body) },
          ctx.webhooks.timeoutMs,
          signal,
        )
      : { statusCode: undefined, error: `refused: the URL ${target.reason}`, latencyMs: 0 };
    if (span) {
      if (result.statusCode !== undefined) span.set({ 'http.response.status_code': result.statusCode });
      if (result.statusCode === undefined || result.statusCode < 200 || result.statusCode >= 300)
        // A status or 'no answer', never the error's text (it may name the receiver's host).
        span.fail(result.statusCode === undefined ? 'no answer' : `HTTP ${result.statusCode}`);
      span.end();
    }
    if (signal.aborted) return { done: false, retryAt: clock.now(), error: 'the worker stopped during the delivery' };
    const ids = { event_id: event.id, delivery_id: delivery.id };
    const followed = event.messageId ? followedBy({ id: event.messageId, requestId: origin?.requestId ?? null }, ids) : ids;
    return await record(ctx, delivery, webhook, result, followed);
  } finally {
    if (heldSlot === undefined) ctx.receiverSlots.give(slot);
  }
}

async function record(
  ctx: DispatchContext,
  delivery: WebhookDelivery,
  webhook: Webhook | undefined,
  result: { statusCode: number | undefined; error: string | undefined; latencyMs: number },
  /** What the attempt's log line is found by: the message and its request, the event, the delivery. */
  followed: object,
): Promise<JobResult> {
  const { store, clock } = ctx;
  const now = clock.now();
  const attempts = delivery.attempts + 1;
  const succeeded = result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
  // Counted for /metrics, and a line a attempt (its receiver's answer; the URL, which may hold a
  // credential in its query, is not written).
  const count = (outcome: WebhookOutcome) => {
    store.meter.webhookAttempt(outcome, result.latencyMs / 1000);
    (outcome === 'failed' ? ctx.logger.warn : ctx.logger.info).call(
      ctx.logger,
      Object.assign({}, followed, {
        attempt: attempts,
        outcome,
        status_code: result.statusCode ?? null,
        latency_ms: result.latencyMs,
        error: succeeded ? undefined : (result.error ?? `HTTP ${result.statusCode}`),
      }),
      outcome === 'delivered'
        ? 'webhook delivered'
        : outcome === 'retry'
          ? 'webhook attempt failed; will retry'
          : 'webhook delivery failed',
    );
  };
  const attempted = withChanges(delivery, {
    attempts,
    lastStatusCode: result.statusCode ?? null,
    lastError: succeeded ? null : (result.error ?? `HTTP ${result.statusCode}`),
    lastLatencyMs: result.latencyMs,
    lastAttemptAt: now,
  });

  if (succeeded) {
    // Written with the job's removal, in the one transaction of the jobs that end in this turn:
    // one statement for all their deliveries, one for the failure streaks of their webhooks that
    // had one when the turn read them. (A streak a failure starts after that read outlives this
    // success: the next success that reads it ends it, and a failure about to disable the webhook
    // for it looks for a success since it began. An update on every success, which nearly always
    // changed nothing, cost a round trip on PostgreSQL for every 10 deliveries under load.)
    const delivered = withChanges(attempted, { status: 'succeeded', nextAttemptAt: null });
    count('delivered');
    return {
      done: true,
      record:
        webhook?.failingSince != null
          ? [recorded(recordAttempts, delivered), recorded(clearStreaks, webhook.id)]
          : [recorded(recordAttempts, delivered)],
    };
  }
  if (webhook && result.statusCode === 410) {
    await store.webhooks.updateDelivery(withChanges(attempted, { status: 'failed', nextAttemptAt: null }));
    await store.webhooks.setActive(webhook.id, false, 'the receiver answered 410 Gone');
    ctx.logger.warn({ webhook_id: webhook.id }, 'webhook disabled: the receiver answered 410 Gone');
    count('failed');
    return DONE;
  }
  if (webhook) {
    const streak = await store.webhooks.recordAttemptOutcome(webhook.id, false, now);
    const since = streak?.failingSince ?? null;
    // A success clears only a streak it read before its POST (see above): one a failure started
    // meanwhile outlives it. Such a streak is no streak: it starts again now instead of disabling.
    const failingLong = since !== null && now - since >= DISABLE_AFTER_FAILING_MS;
    if (failingLong && (await store.webhooks.succeededSince(webhook.id, since))) {
      await store.webhooks.clearFailureStreaks([webhook.id]);
      await store.webhooks.recordAttemptOutcome(webhook.id, false, now);
    } else if (failingLong) {
      await store.webhooks.updateDelivery(withChanges(attempted, { status: 'failed', nextAttemptAt: null }));
      await store.webhooks.setActive(webhook.id, false, 'every delivery failed for 3 days');
      ctx.logger.warn({ webhook_id: webhook.id }, 'webhook disabled after 3 days of failed deliveries');
      count('failed');
      return DONE;
    }
  }
  const delay = webhookRetryDelayMs(attempts, ctx.random);
  // Out of retries: failed, written with the job's removal like a success.
  if (delay === undefined) {
    count('failed');
    return { done: true, record: [recorded(recordAttempts, withChanges(attempted, { status: 'failed', nextAttemptAt: null }))] };
  }
  count('retry');
  const retryAt = now + delay;
  await store.webhooks.updateDelivery(withChanges(attempted, { status: 'pending', nextAttemptAt: retryAt }));
  return { done: false, retryAt, error: attempted.lastError ?? 'failed' };
}

/**
 * What becomes of the delivery of a webhook job the worker drops (its handler threw too many times
 * in a row), in the transaction that drops it: failed, not left `pending` as if a retry were
 * coming (a replay of failed deliveries then finds it).
 */
export const giveUpWebhookDelivery: OnDropped<'deliver_webhook'> = async (_ctx, tx, _job, payload, at) => {
  const deliveryId = payload?.deliveryId;
  if (deliveryId === undefined) return;
  const delivery = await tx.webhooks.findDelivery(deliveryId);
  if (delivery?.status !== 'pending') return;
  await tx.webhooks.updateDelivery(
    withChanges(delivery, {
      status: 'failed',
      nextAttemptAt: null,
      lastAttemptAt: at,
      lastError: 'given up: the delivery failed inside Herald too many times in a row (see the logs)',
    }),
  );
};
