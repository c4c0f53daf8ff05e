import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import { EMBEDDED_INTERNAL_IPV4, urlOfHost } from '../../test/ssrf-cases.js';
import { type ReceivedDelivery, startReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';
import type { WebhookDelivery } from '../core/ports.js';
import { generateWebhookSecret } from '../webhooks/signing.js';
import type { Lookup } from '../webhooks/ssrf-guard.js';
import { verifyWebhook } from '../webhooks/verify.js';
import { DISABLE_AFTER_FAILING_MS, SECRET_OVERLAP_MS } from './deliver-webhook.job.js';
import { WEBHOOK_RETRY_DELAYS_MS, webhookRetryDelayMs } from './retry-policy.js';
import { Worker } from './worker.js';

/** Polls until `check` holds, for at most 5 s (a functional bound, not a speed check). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Webhook deliveries through the real worker, to real HTTP receivers on 127.0.0.1, on the manual
 * clock: what arrives, how it is signed, how failures are retried and when a webhook is disabled.
 * Webhooks are made through the store port (the registration routes are tested with the routes).
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NORMAL = '+14155552671';
const REJECTED_AT_SUBMIT = '+15005550001';
const FAILED_ON_RECEIPT = '+15005550002';

interface EventBody {
  id: string;
  type: string;
  created_at: string;
  data: { message_id: string; channel: string; to: string; status: string; sequence: number; [key: string]: unknown };
}

const bodyOf = (delivery: ReceivedDelivery): EventBody => JSON.parse(delivery.body) as EventBody;

/** Header values as the verifiers take them (node gives string | string[] | undefined). */
function flatHeaders(delivery: ReceivedDelivery): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(delivery.headers)) if (typeof value === 'string') flat[name] = value;
  return flat;
}

/** Verifies with the `standardwebhooks` library, its clock (Date) set to `nowMs`. */
function standardVerifies(secret: string, body: string, headers: Record<string, string>, nowMs = Date.now()): boolean {
  vi.useFakeTimers({ toFake: ['Date'], now: nowMs });
  try {
    new StandardWebhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
}

/** Verifies with the project's own helper at `nowMs`. */
const ownVerifies = (secret: string, body: string, headers: Record<string, string>, nowMs = Date.now()): boolean =>
  verifyWebhook({ secret, body, headers, nowSeconds: Math.floor(nowMs / 1000) });

/** Both verifiers agree, and the answer is returned. */
function verifies(secret: string, body: string, headers: Record<string, string>, nowMs?: number): boolean {
  const standard = standardVerifies(secret, body, headers, nowMs);
  expect(ownVerifies(secret, body, headers, nowMs)).toBe(standard);
  return standard;
}

describeEachDialect('webhook deliveries', (dialect) => {
  let t: TestApp;
  let account: CreatedAccount;
  let receivers: WebhookReceiver[];
  let webhooks = 0;

  beforeEach(async () => {
    t = await createTestApp(dialect);
    account = await t.createAccount({ credits: 1_000 });
    receivers = [];
  });
  afterEach(async () => {
    for (const receiver of receivers) await receiver.close();
    await t.close();
  });

  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };

  const accountId = () => account.account.id;

  async function createWebhook(url: string, events: string[] = ['*']): Promise<string> {
    const id = `wh_test_${++webhooks}`;
    await t.store.webhooks.create({
      id,
      accountId: accountId(),
      url,
      events,
      description: null,
      active: true,
      disabledReason: null,
      failingSince: null,
      createdAt: t.clock.now(),
    });
    return id;
  }

  const signingSecret = async () => (await t.store.webhooks.signingSecrets(accountId(), generateWebhookSecret, t.clock.now())).secret;

  /** Sends an SMS with a token fresh at the clock's time (tests move the clock by days). */
  async function send(to: string, extra: Record<string, unknown> = {}): Promise<string> {
    const response = await t.call('POST', '/v1/sms/send', await t.tokenFor(account), { to, message: 'Your code is 123456', ...extra });
    expect(response.statusCode).toBe(200);
    return response.json().data.message_id as string;
  }

  const deliveriesOf = async (webhookId: string): Promise<WebhookDelivery[]> =>
    (await t.store.webhooks.listDeliveries({ webhookId, limit: 1_000, offset: 0 })).deliveries;

  const onlyDelivery = async (webhookId: string): Promise<WebhookDelivery> => {
    const deliveries = await deliveriesOf(webhookId);
    expect(deliveries).toHaveLength(1);
    return deliveries[0] as WebhookDelivery;
  };

  const webhookJobs = () => t.database.db.selectFrom('jobs').selectAll().where('kind', '=', 'deliver_webhook').execute();

  it('fails a delivery whose job keeps failing inside Herald, after 25 failures in a row, instead of leaving it pending', async () => {
    const webhookId = await createWebhook('http://127.0.0.1:9/never-reached');
    await send(NORMAL);
    await t.drain(); // the message is sent and delivered; its events' deliveries wait for a retry
    expect((await webhookJobs()).length).toBeGreaterThan(0);
    // The store breaks under the delivery's handler alone: every attempt throws before it posts.
    const store = t.dispatch.store;
    t.dispatch.store = new Proxy(store, {
      get: (target, key) =>
        key === 'webhooks'
          ? new Proxy(target.webhooks, {
              get: (webhooks, name) =>
                name === 'deliveryContexts'
                  ? () => Promise.reject(new Error('deliveries unreadable'))
                  : (webhooks[name as keyof typeof webhooks] as unknown as (...a: unknown[]) => unknown).bind(webhooks),
            })
          : Reflect.get(target, key),
    });
    try {
      for (let claim = 0; claim < 40 && (await webhookJobs()).length > 0; claim++) {
        await t.drain();
        t.clock.advance(301_000);
      }
    } finally {
      t.dispatch.store = store;
    }
    expect(await webhookJobs()).toEqual([]);
    const deliveries = await deliveriesOf(webhookId);
    expect(deliveries.length).toBeGreaterThan(0);
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null, lastError: expect.stringContaining('given up') });
    }
  });

  describe('events and signatures', () => {
    it('delivers an event for each status path: sent + delivered, failed at submit, sent + failed on a receipt', async () => {
      const hook = await receiver();
      await createWebhook(`${hook.url}/hooks/herald`);
      const delivered = await send(NORMAL);
      const rejected = await send(REJECTED_AT_SUBMIT);
      const undeliverable = await send(FAILED_ON_RECEIPT);
      await t.drain();

      expect(hook.received).toHaveLength(5);
      const byMessage = new Map<string, EventBody[]>();
      for (const request of hook.received) {
        expect(request.path).toBe('/hooks/herald');
        expect(request.headers['content-type']).toBe('application/json');
        const body = bodyOf(request);
        // The Standard Webhooks id is the event's id.
        expect(request.headers['webhook-id']).toBe(body.id);
        expect(body.id).toMatch(/^evt_/);
        expect(Date.parse(body.created_at)).not.toBeNaN();
        byMessage.set(body.data.message_id, [...(byMessage.get(body.data.message_id) ?? []), body]);
      }
      // Deliveries run concurrently: receivers put one message's events in order by `sequence`.
      const path = (id: string, to: string) =>
        (byMessage.get(id) ?? [])
          .sort((a, b) => a.data.sequence - b.data.sequence)
          .map((body) => {
            expect(body.data).toMatchObject({ message_id: id, channel: 'sms', to });
            return [body.type, body.data.status, body.data.sequence];
          });
      expect(path(delivered, NORMAL)).toEqual([
        ['message.sent', 'sent', 1],
        ['message.delivered', 'delivered', 2],
      ]);
      expect(path(rejected, REJECTED_AT_SUBMIT)).toEqual([['message.failed', 'failed', 1]]);
      expect(path(undeliverable, FAILED_ON_RECEIPT)).toEqual([
        ['message.sent', 'sent', 1],
        ['message.failed', 'failed', 2],
      ]);
      expect(new Set(hook.received.map((r) => bodyOf(r).id)).size).toBe(5);
    });

    it('signs every delivery so that standardwebhooks and the project helper both verify it', async () => {
      const hook = await receiver();
      await createWebhook(hook.url);
      await send(NORMAL);
      await send(FAILED_ON_RECEIPT);
      await t.drain();
      const secret = await signingSecret();

      expect(hook.received).toHaveLength(4);
      for (const request of hook.received) {
        const headers = flatHeaders(request);
        // One secret in force: one signature in each header.
        expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
        expect(headers['x-service-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
        expect(headers['x-service-timestamp']).toBe(headers['webhook-timestamp']);
        expect(Number(headers['webhook-timestamp'])).toBe(Math.floor(t.clock.now() / 1000));
        expect(verifies(secret, request.body, headers)).toBe(true);
        // The library hands back the parsed event.
        expect(new StandardWebhook(secret).verify(request.body, headers)).toEqual(bodyOf(request));
      }
    });

    it('a tampered body, a stale or forged timestamp, or another secret fails both verifiers', async () => {
      const hook = await receiver();
      await createWebhook(hook.url, ['message.sent']);
      await send(NORMAL);
      await t.drain();
      const secret = await signingSecret();
      const [request] = hook.received;
      if (!request) throw new Error('no delivery arrived');
      const headers = flatHeaders(request);
      const sentAt = Number(headers['webhook-timestamp']) * 1000;
      expect(verifies(secret, request.body, headers, sentAt)).toBe(true);

      // Tampered body: one field changed, or a byte of whitespace added.
      expect(verifies(secret, request.body.replace('"channel":"sms"', '"channel":"email"'), headers, sentAt)).toBe(false);
      expect(verifies(secret, `${request.body} `, headers, sentAt)).toBe(false);
      // Stale: received more than 5 minutes after it was signed (a replayed capture).
      expect(verifies(secret, request.body, headers, sentAt + 6 * 60_000)).toBe(false);
      // Forged freshness: a new timestamp on an old signature.
      const now = String(Math.floor(Date.now() / 1000) + 60);
      expect(verifies(secret, request.body, { ...headers, 'webhook-timestamp': now, 'x-service-timestamp': now }, sentAt)).toBe(false);
      // Another account's secret.
      expect(verifies(generateWebhookSecret(), request.body, headers, sentAt)).toBe(false);
      // A different event id (Standard Webhooks signs the id too).
      expect(standardVerifies(secret, request.body, { ...headers, 'webhook-id': 'evt_other' }, sentAt)).toBe(false);
    });

    it('during a rotation both secrets sign, and each alone verifies; after 24 h only the new one does', async () => {
      const hook = await receiver();
      await createWebhook(hook.url, ['message.sent']);
      const before = await signingSecret();
      const rotated = await t.store.webhooks.rotateSigningSecret(accountId(), generateWebhookSecret(), t.clock.now(), SECRET_OVERLAP_MS);
      expect(rotated.previousSecret).toBe(before);
      const after = rotated.secret;
      expect(after).not.toBe(before);

      await send(NORMAL);
      await t.drain();
      const [during] = hook.received;
      if (!during) throw new Error('no delivery arrived');
      const headers = flatHeaders(during);
      expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
      expect(headers['x-service-signature']?.split(',')).toHaveLength(2);
      expect(verifies(after, during.body, headers)).toBe(true);
      expect(verifies(before, during.body, headers)).toBe(true);
      expect(verifies(generateWebhookSecret(), during.body, headers)).toBe(false);
      // Each signature on its own belongs to its own secret, newest first.
      const [newest, oldest] = headers['webhook-signature']?.split(' ') ?? [];
      const single = (signature: string | undefined) => ({ ...headers, 'webhook-signature': signature ?? '' });
      expect(standardVerifies(after, during.body, single(newest))).toBe(true);
      expect(standardVerifies(before, during.body, single(oldest))).toBe(true);
      expect(standardVerifies(after, during.body, single(oldest))).toBe(false);

      // Past the overlap the old secret no longer signs.
      t.clock.advance(SECRET_OVERLAP_MS + 1_000);
      await send(NORMAL);
      await t.drain();
      const [, later] = hook.received;
      if (!later) throw new Error('no delivery arrived after the overlap');
      const laterHeaders = flatHeaders(later);
      const at = t.clock.now();
      expect(laterHeaders['webhook-signature']?.split(' ')).toHaveLength(1);
      expect(laterHeaders['x-service-signature']?.split(',')).toHaveLength(1);
      expect(verifies(after, later.body, laterHeaders, at)).toBe(true);
      expect(verifies(before, later.body, laterHeaders, at)).toBe(false);
    });

    it("an SMS's callback_url gets its events too, signed with the account's secret", async () => {
      const hook = await receiver();
      const id = await send(NORMAL, { callback_url: `${hook.url}/callbacks/sms?ref=42` });
      await send(NORMAL); // no callback_url, no registered webhook: nothing to deliver
      await t.drain();
      const secret = await signingSecret();

      expect(hook.received.map((r) => r.path)).toEqual(['/callbacks/sms?ref=42', '/callbacks/sms?ref=42']);
      const bodies = hook.received.map(bodyOf).sort((a, b) => a.data.sequence - b.data.sequence);
      expect(bodies.map((b) => [b.type, b.data.message_id, b.data.sequence])).toEqual([
        ['message.sent', id, 1],
        ['message.delivered', id, 2],
      ]);
      for (const request of hook.received) expect(verifies(secret, request.body, flatHeaders(request))).toBe(true);
      const stored = await t.database.db.selectFrom('webhook_deliveries').selectAll().execute();
      expect(stored.map((d) => [d.webhook_id, d.status])).toEqual([
        [null, 'succeeded'],
        [null, 'succeeded'],
      ]);
    });

    it('delivers only the kinds a webhook subscribed to', async () => {
      const hook = await receiver();
      await createWebhook(hook.url, ['message.failed']);
      await send(NORMAL);
      await send(FAILED_ON_RECEIPT);
      await t.drain();
      expect(hook.received.map((r) => bodyOf(r).type)).toEqual(['message.failed']);
    });
  });

  describe('failures and retries', () => {
    it('retries a failing receiver on the schedule (5 s, 30 s, 2 min, ... 12 h), then gives up', async () => {
      const hook = await receiver(() => 500);
      const webhookId = await createWebhook(hook.url, ['message.sent']);
      await send(NORMAL);
      await t.drain();
      expect(hook.received).toHaveLength(1);

      for (const [i, delay] of WEBHOOK_RETRY_DELAYS_MS.entries()) {
        const pending = await onlyDelivery(webhookId);
        // random() = 0.5 puts the ±20% jitter at exactly the scheduled delay.
        expect(pending).toMatchObject({ status: 'pending', attempts: i + 1, lastStatusCode: 500, lastError: 'HTTP 500' });
        expect(pending.nextAttemptAt).toBe((pending.lastAttemptAt ?? 0) + delay);
        const [job] = await webhookJobs();
        expect(job?.run_at).toBe(pending.nextAttemptAt);
        // Not a moment early...
        t.clock.advance(delay - 1);
        await t.drain();
        expect(hook.received).toHaveLength(i + 1);
        // ...and on time.
        t.clock.advance(1);
        await t.drain();
        expect(hook.received).toHaveLength(i + 2);
      }

      const last = await onlyDelivery(webhookId);
      expect(last).toMatchObject({ status: 'failed', attempts: WEBHOOK_RETRY_DELAYS_MS.length + 1, nextAttemptAt: null });
      expect(await webhookJobs()).toEqual([]);
      // About 35 hours of retries: short of the 3-day limit, so the webhook stays on.
      expect((await t.store.webhooks.find(accountId(), webhookId))?.active).toBe(true);
      // Every attempt carried the same event, freshly signed.
      const ids = new Set(hook.received.map((r) => r.headers['webhook-id']));
      expect(ids.size).toBe(1);
      expect(new Set(hook.received.map((r) => r.body)).size).toBe(1);
      const stamps = hook.received.map((r) => Number(r.headers['webhook-timestamp']));
      expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
      expect(new Set(stamps).size).toBe(stamps.length);
    });

    it('jitters each delay by ±20%', () => {
      expect(webhookRetryDelayMs(1, () => 0)).toBe(4_000);
      expect(webhookRetryDelayMs(1, () => 0.5)).toBe(5_000);
      expect(webhookRetryDelayMs(1, () => 1)).toBe(6_000);
      expect(webhookRetryDelayMs(2, () => 0.25)).toBe(27_000);
      expect(webhookRetryDelayMs(WEBHOOK_RETRY_DELAYS_MS.length + 1, () => 0.5)).toBeUndefined();
      const total = WEBHOOK_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
      expect(total * 0.8).toBeGreaterThan(DAY); // at least 24 h of retries, whatever the jitter
    });

    it('a success on a retry ends the retries', async () => {
      const hook = await receiver((request) => (request.n < 3 ? 503 : 200));
      const webhookId = await createWebhook(hook.url, ['message.sent']);
      await send(NORMAL);
      await t.drain();
      t.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0] as number);
      await t.drain();
      t.clock.advance(WEBHOOK_RETRY_DELAYS_MS[1] as number);
      await t.drain();
      expect(hook.received).toHaveLength(3);
      expect(await onlyDelivery(webhookId)).toMatchObject({ status: 'succeeded', attempts: 3, lastStatusCode: 200, nextAttemptAt: null });
      expect(await webhookJobs()).toEqual([]);
      expect((await t.store.webhooks.find(accountId(), webhookId))?.failingSince).toBeNull();
    });

    it('410 Gone disables the webhook at once: no retry, no further deliveries', async () => {
      const hook = await receiver(() => 410);
      const webhookId = await createWebhook(hook.url);
      await send(NORMAL);
      await t.drain();
      expect(hook.received).toHaveLength(1);
      const webhook = await t.store.webhooks.find(accountId(), webhookId);
      expect(webhook).toMatchObject({ active: false, disabledReason: expect.stringContaining('410') });
      const deliveries = await deliveriesOf(webhookId);
      // The one attempted failed for good; any other event's delivery ends without a request.
      expect(deliveries.find((d) => d.attempts === 1)).toMatchObject({ status: 'failed', lastStatusCode: 410, nextAttemptAt: null });
      for (const d of deliveries.filter((d) => d.attempts === 0))
        expect(d).toMatchObject({ status: 'failed', lastError: 'the webhook is disabled' });

      await send(NORMAL);
      t.clock.advance(DAY);
      await t.drain();
      expect(hook.received).toHaveLength(1);
      expect(await deliveriesOf(webhookId)).toHaveLength(deliveries.length);
      expect(await webhookJobs()).toEqual([]);
    });

    it('3 days of consecutive failures disable the webhook', async () => {
      const hook = await receiver(() => 500);
      const webhookId = await createWebhook(hook.url, ['message.sent']);
      const start = t.clock.now();
      let disabledAt: number | undefined;
      // A new event every 6 hours, time moving an hour at a time, retries running when due.
      for (let hour = 0; hour <= 4 * 24 && disabledAt === undefined; hour++) {
        if (hour % 6 === 0) await send(NORMAL);
        await t.drain();
        const webhook = await t.store.webhooks.find(accountId(), webhookId);
        expect(webhook?.failingSince).toBe(start);
        if (!webhook?.active) disabledAt = t.clock.now();
        else t.clock.advance(HOUR);
      }
      if (disabledAt === undefined) throw new Error('the webhook was never disabled');
      expect(disabledAt - start).toBeGreaterThanOrEqual(DISABLE_AFTER_FAILING_MS);
      expect(disabledAt - start).toBeLessThanOrEqual(DISABLE_AFTER_FAILING_MS + HOUR);
      expect(await t.store.webhooks.find(accountId(), webhookId)).toMatchObject({
        active: false,
        disabledReason: 'every delivery failed for 3 days',
      });

      // Nothing more goes out: pending retries end without a request, new events make no delivery.
      const requests = hook.received.length;
      const deliveries = (await deliveriesOf(webhookId)).length;
      await send(NORMAL);
      t.clock.advance(DAY);
      await t.drain();
      // Deliveries that found the receiver's slots taken (4 at a time) come back 250 ms later.
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1_000);
        await t.drain();
      }
      expect(hook.received).toHaveLength(requests);
      expect(await deliveriesOf(webhookId)).toHaveLength(deliveries);
      expect((await deliveriesOf(webhookId)).filter((d) => d.status === 'pending')).toEqual([]);
      expect(await webhookJobs()).toEqual([]);
    });

    it('a success resets the failure streak: failing 2 days, one success, failing 2 more days stays enabled', async () => {
      let failing = true;
      const hook = await receiver(() => (failing ? 500 : 204));
      const webhookId = await createWebhook(hook.url, ['message.sent']);
      const streakOf = async () => t.store.webhooks.find(accountId(), webhookId);
      const live = async (hours: number) => {
        for (let hour = 0; hour < hours; hour++) {
          if (hour % 6 === 0) await send(NORMAL);
          await t.drain();
          t.clock.advance(HOUR);
        }
      };

      const start = t.clock.now();
      await live(48);
      expect(await streakOf()).toMatchObject({ active: true, failingSince: start });

      failing = false;
      await send(NORMAL);
      await t.drain();
      expect(await streakOf()).toMatchObject({ active: true, failingSince: null });

      failing = true;
      t.clock.advance(HOUR);
      const restart = t.clock.now();
      await live(48);
      // 4 days since the first failure, but only 2 since the last success.
      expect(t.clock.now() - start).toBeGreaterThan(DISABLE_AFTER_FAILING_MS);
      expect(await streakOf()).toMatchObject({ active: true, failingSince: restart });
    });

    it('a streak begun while a success was on its way (which did not read it) does not disable the webhook 3 days on: it starts again', async () => {
      let failing = false;
      const hook = await receiver(() => (failing ? 500 : 204));
      const webhookId = await createWebhook(hook.url, ['message.sent']);
      await send(NORMAL);
      await t.drain();
      const succeededAt = t.clock.now();
      // A failure elsewhere started a streak a moment before that success ended; the success, which
      // read no streak before its POST, left it.
      await t.database.db
        .updateTable('webhooks')
        .set({ failing_since: succeededAt - 60_000 })
        .where('id', '=', webhookId)
        .execute();
      failing = true;
      t.clock.advance(DISABLE_AFTER_FAILING_MS + HOUR);
      await send(NORMAL);
      await t.drain();
      expect(await t.store.webhooks.find(accountId(), webhookId)).toMatchObject({ active: true, failingSince: t.clock.now() });
    });

    it('a redirect is not followed: a 302 counts as a failure and the target is never asked', async () => {
      const hook = await receiver((request) => (request.path === '/moved' ? { status: 302, headers: { location: '/landing' } } : 200));
      const webhookId = await createWebhook(`${hook.url}/moved`, ['message.sent']);
      await send(NORMAL);
      await t.drain();
      expect(hook.received.map((r) => r.path)).toEqual(['/moved']);
      const delivery = await onlyDelivery(webhookId);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 302, lastError: 'HTTP 302' });
      expect(delivery.nextAttemptAt).toBe((delivery.lastAttemptAt ?? 0) + (WEBHOOK_RETRY_DELAYS_MS[0] as number));
    });

    it('deleting a webhook cancels its pending deliveries; nothing more is sent', async () => {
      const hook = await receiver(() => 500);
      const webhookId = await createWebhook(hook.url, ['message.sent']);
      await send(NORMAL);
      await send(NORMAL);
      await t.drain();
      expect(hook.received).toHaveLength(2);
      expect((await deliveriesOf(webhookId)).map((d) => d.status)).toEqual(['pending', 'pending']);

      expect(await t.store.webhooks.delete(accountId(), webhookId, t.clock.now())).toBe(true);
      expect((await deliveriesOf(webhookId)).map((d) => [d.status, d.nextAttemptAt])).toEqual([
        ['canceled', null],
        ['canceled', null],
      ]);
      t.clock.advance(HOUR);
      await t.drain();
      expect(hook.received).toHaveLength(2);
      expect(await webhookJobs()).toEqual([]);
      // A deleted webhook gets no new deliveries either.
      await send(NORMAL);
      await t.drain();
      expect(await deliveriesOf(webhookId)).toHaveLength(2);
    });

    it('a hanging receiver does not hold up deliveries to another receiver in the same drain', async () => {
      t.dispatch.webhooks = { ...t.dispatch.webhooks, timeoutMs: 5_000, perReceiverConcurrency: 4 };
      const dead = await receiver(() => 'hang');
      const alive = await receiver(() => 204);
      const deadId = await createWebhook(dead.url, ['message.sent']);
      const aliveId = await createWebhook(alive.url, ['message.sent']);
      // As many as the live receiver's own 4 slots, so none of them waits for a slot.
      const COUNT = 4;
      // What the hanging receiver looked like when the live one got its last delivery.
      let seen: { open: number; abandoned: number } | undefined;
      alive.onRequest((request) => {
        if (request.n === COUNT) seen = { open: dead.open(), abandoned: dead.abandoned() };
      });
      for (let i = 0; i < COUNT; i++) await send(NORMAL);
      await t.drain();

      expect(alive.received).toHaveLength(COUNT);
      // Every live delivery arrived before any request to the dead receiver had been given up on:
      // the dead receiver's deliveries were queued first, so a drain that waited on them one by one
      // would have let at least one time out (5 s) first. (How many of them had reached the dead
      // receiver by then is up to the scheduler, so it is not asserted.)
      expect(seen?.abandoned).toBe(0);
      // At most 4 at a time went to the dead receiver; they timed out and wait to be retried.
      expect(dead.maxOpen()).toBeGreaterThanOrEqual(2);
      expect(dead.maxOpen()).toBeLessThanOrEqual(4);
      expect(dead.received.length).toBeLessThanOrEqual(4);
      expect((await deliveriesOf(aliveId)).map((d) => d.status)).toEqual(Array(COUNT).fill('succeeded'));
      const deadDeliveries = await deliveriesOf(deadId);
      expect(deadDeliveries.filter((d) => d.lastError === 'no answer within 5000 ms')).toHaveLength(4);
      expect(deadDeliveries.every((d) => d.status === 'pending')).toBe(true);
    });

    it('keeps dispatching messages while a receiver hangs (the running loop claims only for free lanes)', async () => {
      t.dispatch.webhooks = { ...t.dispatch.webhooks, timeoutMs: 15_000, perReceiverConcurrency: 2 };
      const dead = await receiver(() => 'hang');
      await createWebhook(dead.url, ['message.sent']);
      const worker = new Worker(t.dispatch, { batchSize: 50, concurrency: 8, leaseMs: 60_000, pollIntervalMs: 50 });
      worker.start();
      try {
        await send(NORMAL);
        await until(() => dead.open() >= 1);
        // The receiver holds its requests; sends made now must still go out, long before it gives up.
        const later = await Promise.all([send(NORMAL), send(NORMAL), send(NORMAL)]);
        await until(async () => {
          for (const id of later) if ((await t.store.messages.findById(id))?.status !== 'delivered') return false;
          return true;
        });
        expect(dead.abandoned()).toBe(0);
      } finally {
        await worker.stop(100);
      }
    });
    it("keeps a busy receiver's deliveries waiting in the worker, in no lane and never put back, while messages go on", async () => {
      t.dispatch.webhooks = { ...t.dispatch.webhooks, timeoutMs: 15_000, perReceiverConcurrency: 2 };
      // A send may take longer than a lease (the defaults: 30 s and 15 s): the heartbeat keeps both.
      t.dispatch.sendTimeoutMs = 120_000;
      const slow = await receiver(() => 'hang');
      const webhookId = await createWebhook(slow.url, ['message.sent']);
      // Four lanes: six deliveries waiting in lanes would leave none for the sends below.
      const worker = new Worker(t.dispatch, { batchSize: 50, concurrency: 4, leaseMs: 60_000, pollIntervalMs: 50 });
      worker.start();
      try {
        for (let i = 0; i < 6; i++) await send(NORMAL);
        await until(async () => slow.open() === 2 && (await deliveriesOf(webhookId)).length === 6);
        const later = await Promise.all([send(NORMAL), send(NORMAL), send(NORMAL)]);
        await until(async () => {
          for (const id of later) if ((await t.store.messages.findById(id))?.status !== 'delivered') return false;
          return true;
        });
        // Nine deliveries: two at the receiver, the others held by the worker, none put back. The
        // later sends' deliveries are claimed a poll after their messages are delivered, so wait for
        // all nine to be held or for one to come back.
        await until(async () => {
          const held = await webhookJobs();
          return held.some((job) => job.last_error !== null) || (held.length === 9 && held.every((job) => job.locked_by !== null));
        });
        const jobs = await webhookJobs();
        expect(jobs).toHaveLength(9);
        expect(jobs.every((job) => job.locked_by === worker.id && job.last_error === null)).toBe(true);
        expect(slow.open()).toBe(2);

        slow.answer(() => 204);
        slow.release();
        await until(async () => (await deliveriesOf(webhookId)).every((d) => d.status === 'succeeded'));
        expect(slow.received).toHaveLength(9);
        expect(slow.maxOpen()).toBe(2);
        expect((await deliveriesOf(webhookId)).map((d) => d.attempts)).toEqual(Array(9).fill(1));
      } finally {
        await worker.stop(100);
      }
    });

    it('puts back what it cannot keep waiting, due when the deliveries ahead of it should be done', async () => {
      t.dispatch.webhooks = { ...t.dispatch.webhooks, timeoutMs: 15_000, perReceiverConcurrency: 1 };
      const slow = await receiver(() => 'hang');
      await createWebhook(slow.url, ['message.sent']);
      const worker = new Worker(t.dispatch, { batchSize: 50, concurrency: 4, leaseMs: 60_000, pollIntervalMs: 50, maxWaitingPerKey: 1 });
      worker.start();
      try {
        for (let i = 0; i < 3; i++) await send(NORMAL);
        await until(async () => (await webhookJobs()).some((job) => job.last_error === 'receiver busy'));
        const jobs = await webhookJobs();
        expect(slow.open()).toBe(1);
        // One at the receiver, one waiting in the worker, one put back.
        expect(jobs.filter((job) => job.locked_by === worker.id)).toHaveLength(2);
        const [back] = jobs.filter((job) => job.last_error === 'receiver busy');
        expect(back?.locked_by).toBeNull();
        // Two ahead of it, one slot, and the first has been running a moment: at least 250 ms on.
        expect(back?.run_at).toBeGreaterThanOrEqual(t.clock.now() + 250);
      } finally {
        await worker.stop(100);
      }
    });

    it('gives back the deliveries it kept waiting when it stops, for the next worker', async () => {
      t.dispatch.webhooks = { ...t.dispatch.webhooks, timeoutMs: 2_000, perReceiverConcurrency: 1 };
      const slow = await receiver(() => 'hang');
      await createWebhook(slow.url, ['message.sent']);
      const worker = new Worker(t.dispatch, { batchSize: 50, concurrency: 4, leaseMs: 60_000, pollIntervalMs: 50 });
      worker.start();
      for (let i = 0; i < 3; i++) await send(NORMAL);
      await until(async () => slow.open() === 1 && (await webhookJobs()).length === 3);
      await worker.stop(100);
      const jobs = await t.database.db.selectFrom('jobs').select(['locked_by']).where('kind', '=', 'deliver_webhook').execute();
      expect(jobs.map((job) => job.locked_by)).toEqual([null, null, null]);
    });
  });

  describe('SSRF guard at delivery time', () => {
    /** A DNS stub: the name used below resolves to loopback, where the test's receiver listens. */
    const toLoopback: Lookup = async () => [{ address: '127.0.0.1', family: 4 }];

    it('refuses a receiver whose name resolves to loopback, opening no connection', async () => {
      t.dispatch.webhooks = { ...t.dispatch.webhooks, allowPrivateNetworks: false, lookup: toLoopback };
      const hook = await receiver();
      const webhookId = await createWebhook(`http://hooks.example.com:${hook.port}/`, ['message.sent']);
      const callback = await send(NORMAL, { callback_url: `http://127.1:${hook.port}/cb` });
      await t.drain();
      const delivery = await onlyDelivery(webhookId);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
      expect(delivery.lastError).toMatch(/^refused: the URL resolves to a private, loopback or reserved address/);
      const toCallback = await t.database.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', 'is', null).execute();
      expect(toCallback.length).toBeGreaterThan(0);
      for (const d of toCallback) expect(d.last_error).toMatch(/^refused: /);
      expect(callback).toMatch(/^msg_/);
      expect(hook.connections()).toBe(0);
      expect(hook.received).toEqual([]);
    });

    it('refuses every IPv6 form that embeds an internal IPv4, as a literal and as the address of a name', async () => {
      /** `embedded-N.example.com` resolves to the N-th form. */
      const toEmbedded: Lookup = async (host) => [
        { address: EMBEDDED_INTERNAL_IPV4[Number(/^embedded-(\d+)\./.exec(host)?.[1])]?.host ?? '', family: 6 },
      ];
      t.dispatch.webhooks = { ...t.dispatch.webhooks, allowPrivateNetworks: false, lookup: toEmbedded };
      const hook = await receiver();
      const webhookIds: string[] = [];
      for (const [index, { host }] of EMBEDDED_INTERNAL_IPV4.entries()) {
        webhookIds.push(await createWebhook(urlOfHost(host, hook.port), ['message.sent']));
        webhookIds.push(await createWebhook(`http://embedded-${index}.example.com:${hook.port}/hook`, ['message.sent']));
      }
      await send(NORMAL);
      await t.drain();
      for (const webhookId of webhookIds) {
        const delivery = await onlyDelivery(webhookId);
        expect(delivery, webhookId).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
        expect(delivery.lastError, webhookId).toBe('refused: the URL resolves to a private, loopback or reserved address');
      }
      expect(hook.connections()).toBe(0);
    });

    it('posts to the address the guard checked (a name only the stub knows reaches the receiver)', async () => {
      t.dispatch.webhooks = { ...t.dispatch.webhooks, allowPrivateNetworks: true, lookup: toLoopback };
      const hook = await receiver();
      await createWebhook(`http://hooks.example.com:${hook.port}/in`, ['message.sent']);
      await send(NORMAL);
      await t.drain();
      expect(hook.received).toHaveLength(1);
      expect(hook.received[0]?.headers.host).toBe(`hooks.example.com:${hook.port}`);
    });
  });
});
