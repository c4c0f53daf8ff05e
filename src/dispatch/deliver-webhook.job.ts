import type { ClaimedJob, DeliveryContext, Store, Webhook, WebhookDelivery } from '../core/ports.js';
import { generateWebhookSecret, signDelivery } from '../core/webhooks/signing.js';
import { withChanges } from '../core/with-changes.js';
import { postWebhook } from '../webhooks/sender.js';
import { resolveTarget } from '../webhooks/ssrf-guard.js';
import type { DispatchContext } from './dispatch-context.js';
import { DONE, type JobResult } from './job-catalogue.js';
import { perTurn } from './per-turn.js';

/**
 * Delays between attempts (docs/webhooks.md): 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 12 h,
 * about 35 hours in all, so a receiver down for a whole day still gets every event.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000, 43_200_000,
];

/** A webhook failing for this long without a single success is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 3_600_000;

/** How long a delivery put back for a busy receiver waits before it is tried again. */
const BUSY_RECEIVER_DELAY_MS = 250;
/**
 * How long a delivery waits in this process for a slot at a busy receiver (at most four times as
 * many as it has slots wait), before it is put back: a quick receiver is fed without a round trip
 * through the queue, a hanging one holds few lanes for long.
 */
const SLOT_WAIT_MS = 1_000;

/** Re-exported: the overlap belongs to the signing rules in core. */
export { SECRET_OVERLAP_MS } from '../core/webhooks/signing.js';

/** Retry delay with ±20% jitter, so deliveries that failed together do not all return together. */
export function webhookRetryDelayMs(failedAttempts: number, random: () => number): number | undefined {
  const base = WEBHOOK_RETRY_DELAYS_MS[failedAttempts - 1];
  return base === undefined ? undefined : Math.round(base * (0.8 + random() * 0.4));
}

/**
 * Posts one event to one receiver and records the outcome. At least once: a delivery is only
 * marked succeeded after a 2xx. A 410 disables the webhook at once; three days of consecutive
 * failures disable it too; other failures retry on the schedule above, then give up.
 */
export async function deliverWebhook(ctx: DispatchContext, job: ClaimedJob, signal: AbortSignal): Promise<JobResult> {
  const { deliveryId, receiver } = job.payload as { deliveryId: string; receiver?: string };
  // The job names its receiver (jobs queued by earlier versions do not): a busy receiver is then
  // seen before anything is read, so waiting deliveries cost the store nothing but their reschedule.
  if (receiver === undefined) return deliverOnce(ctx, deliveryId, undefined, signal);
  const limit = ctx.webhooks.perReceiverConcurrency;
  const slot = await ctx.receiverSlots.acquire(receiver, limit, { maxWaiting: limit * 4, maxWaitMs: SLOT_WAIT_MS, signal });
  if (!slot) return busy(ctx);
  try {
    return await deliverOnce(ctx, deliveryId, receiver, signal);
  } finally {
    ctx.receiverSlots.give(receiver);
  }
}

/** Back in a moment: rounded up to a 50 ms step, so deliveries waiting together are put back in one statement. */
const busy = (ctx: DispatchContext): JobResult => ({
  done: false,
  retryAt: Math.ceil((ctx.clock.now() + BUSY_RECEIVER_DELAY_MS) / 50) * 50,
  error: 'receiver busy',
});

/** The reads of the deliveries that start in one turn, made together: four queries a turn, not four a delivery. */
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
      return { done: true, record: (tx) => tx.webhooks.updateDelivery(canceled) };
    }
    if (!webhook.active) {
      const failed = withChanges(delivery, { status: 'failed', nextAttemptAt: null, lastError: 'the webhook is disabled' });
      return { done: true, record: (tx) => tx.webhooks.updateDelivery(failed) };
    }
  }

  const slot = delivery.webhookId ?? delivery.url;
  if (heldSlot === undefined && !ctx.receiverSlots.take(slot, ctx.webhooks.perReceiverConcurrency)) return busy(ctx);
  try {
    const { event } = context;
    if (!event) return DONE;
    const now = clock.now();
    // Made on first use for accounts that never asked for it (a callback_url is enough to need one).
    const secrets = context.secrets ?? (await store.webhooks.signingSecrets(delivery.accountId, generateWebhookSecret, now));
    const signing = [secrets.secret, ...(secrets.previousSecret && (secrets.previousUntil ?? 0) > now ? [secrets.previousSecret] : [])];

    const target = await resolveTarget(delivery.url, {
      allowPrivateNetworks: ctx.webhooks.allowPrivateNetworks,
      lookup: ctx.webhooks.lookup,
    });
    const result = target.ok
      ? await postWebhook(
          target,
          event.body,
          { ...signDelivery(signing, event.id, Math.floor(now / 1000), event.body) },
          ctx.webhooks.timeoutMs,
          signal,
        )
      : { statusCode: undefined, error: `refused: the URL ${target.reason}`, latencyMs: 0 };
    if (signal.aborted) return { done: false, retryAt: clock.now(), error: 'the worker stopped during the delivery' };
    return await record(ctx, delivery, webhook, result);
  } finally {
    if (heldSlot === undefined) ctx.receiverSlots.give(slot);
  }
}

async function record(
  ctx: DispatchContext,
  delivery: WebhookDelivery,
  webhook: Webhook | undefined,
  result: { statusCode: number | undefined; error: string | undefined; latencyMs: number },
): Promise<JobResult> {
  const { store, clock } = ctx;
  const now = clock.now();
  const attempts = delivery.attempts + 1;
  const succeeded = result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
  const attempted = withChanges(delivery, {
    attempts,
    lastStatusCode: result.statusCode ?? null,
    lastError: succeeded ? null : (result.error ?? `HTTP ${result.statusCode}`),
    lastLatencyMs: result.latencyMs,
    lastAttemptAt: now,
  });

  if (succeeded) {
    // Written with the job's removal, in the one transaction of the jobs that end in this turn.
    const delivered = withChanges(attempted, { status: 'succeeded', nextAttemptAt: null });
    return {
      done: true,
      record: async (tx) => {
        await tx.webhooks.updateDelivery(delivered);
        if (webhook) await tx.webhooks.clearFailureStreaks([webhook.id]);
      },
    };
  }
  if (webhook && result.statusCode === 410) {
    await store.webhooks.updateDelivery(withChanges(attempted, { status: 'failed', nextAttemptAt: null }));
    await store.webhooks.setActive(webhook.id, false, 'the receiver answered 410 Gone');
    ctx.logger.warn({ webhook_id: webhook.id }, 'webhook disabled: the receiver answered 410 Gone');
    return DONE;
  }
  if (webhook) {
    const streak = await store.webhooks.recordAttemptOutcome(webhook.id, false, now);
    if (streak?.failingSince !== null && streak?.failingSince !== undefined && now - streak.failingSince >= DISABLE_AFTER_FAILING_MS) {
      await store.webhooks.updateDelivery(withChanges(attempted, { status: 'failed', nextAttemptAt: null }));
      await store.webhooks.setActive(webhook.id, false, 'every delivery failed for 3 days');
      ctx.logger.warn({ webhook_id: webhook.id }, 'webhook disabled after 3 days of failed deliveries');
      return DONE;
    }
  }
  const delay = webhookRetryDelayMs(attempts, ctx.random);
  if (delay === undefined) {
    await store.webhooks.updateDelivery(withChanges(attempted, { status: 'failed', nextAttemptAt: null }));
    return DONE;
  }
  const retryAt = now + delay;
  await store.webhooks.updateDelivery(withChanges(attempted, { status: 'pending', nextAttemptAt: retryAt }));
  return { done: false, retryAt, error: attempted.lastError ?? 'failed' };
}

/**
 * What becomes of the delivery of a webhook job the worker drops (its handler threw too many times
 * in a row), in the transaction that drops it: failed, not left `pending` as if a retry were
 * coming (a replay of failed deliveries then finds it).
 */
export async function giveUpWebhookDelivery(_ctx: DispatchContext, tx: Store, job: ClaimedJob, at: number): Promise<void> {
  const deliveryId = (job.payload as { deliveryId?: unknown } | null)?.deliveryId;
  if (typeof deliveryId !== 'string') return;
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
}
