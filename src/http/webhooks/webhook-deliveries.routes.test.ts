import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { type ReceivedDelivery, startReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import type { DeliveryStatus, WebhookDelivery } from '../../core/ports.js';
import { MAX_REPLAY_PER_CALL } from '../../webhooks/replay-deliveries.js';
import { SECRET_OVERLAP_MS } from '../../webhooks/signing.js';
import { verifyWebhook } from '../../webhooks/verify.js';

/**
 * The delivery log, replay and the test event, through the real worker (on the manual clock) to a
 * receiver on 127.0.0.1 (the test app allows loopback receivers, as WEBHOOKS_ALLOW_PRIVATE_NETWORKS does).
 * Each test posts to its own path of one receiver.
 */

interface DeliveryView {
  delivery_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  next_attempt_at: string | null;
  created_at: string;
}

describeEachDialect('webhook delivery log, replay and test event', (dialect) => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let account: CreatedAccount;
  let token: string;
  let otherToken: string;
  /** What the receiver answers per path; 204 unless set. */
  const answers = new Map<string, number>();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    receiver = await startReceiver((request) => answers.get(request.path) ?? 204);
    account = await t.createAccount();
    token = await t.tokenFor(account);
    otherToken = await t.tokenFor(await t.createAccount());
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const at = (path: string): ReceivedDelivery[] => receiver.received.filter((r) => r.path === path);
  const iso = (ms: number) => new Date(ms).toISOString();

  async function registerAt(path: string, as = token): Promise<string> {
    const response = await t.call('POST', '/v1/webhooks', as, { url: `${receiver.url}${path}`, events: ['*'] });
    expect(response.statusCode).toBe(201);
    return response.json().data.webhook_id;
  }

  async function sendTest(webhookId: string, as = token): Promise<DeliveryView> {
    const response = await t.call('POST', `/v1/webhooks/${webhookId}/test`, as);
    expect(response.statusCode).toBe(202);
    return response.json().data;
  }

  async function log(webhookId: string, query = ''): Promise<DeliveryView[]> {
    const response = await t.call('GET', `/v1/webhooks/${webhookId}/deliveries${query}`, token);
    expect(response.statusCode).toBe(200);
    return response.json().data.deliveries;
  }

  /** Sets a delivery's outcome directly, as the worker would after its last attempt. */
  async function settle(deliveryId: string, status: DeliveryStatus): Promise<void> {
    const delivery = (await t.store.webhooks.findDelivery(deliveryId)) as WebhookDelivery;
    await t.store.webhooks.updateDelivery({ ...delivery, status, attempts: 10, lastStatusCode: 500, nextAttemptAt: null });
  }

  describe('POST /v1/webhooks/{id}/test', () => {
    it('sends a signed webhook.test event to the webhook and logs the delivery', async () => {
      const id = await registerAt('/test-event');
      const secret = (await t.call('GET', '/v1/webhooks/secret', token)).json().data.secret;
      const queued = await sendTest(id);
      expect(queued).toEqual({
        delivery_id: expect.stringMatching(/^whd_/),
        event_id: expect.stringMatching(/^evt_/),
        event_type: 'webhook.test',
        status: 'pending',
        attempts: 0,
        last_status_code: null,
        last_error: null,
        last_latency_ms: null,
        last_attempt_at: null,
        next_attempt_at: iso(t.clock.now()),
        created_at: iso(t.clock.now()),
      });

      await t.drain();
      const [arrived, ...more] = at('/test-event');
      expect(more).toEqual([]);
      expect(JSON.parse(arrived?.body ?? '')).toEqual({
        id: queued.event_id,
        type: 'webhook.test',
        created_at: iso(t.clock.now()),
        data: { webhook_id: id },
      });
      expect(arrived?.headers['webhook-id']).toBe(queued.event_id);
      expect(
        verifyWebhook({ secret, body: arrived?.body ?? '', headers: arrived?.headers ?? {}, nowSeconds: Math.floor(t.clock.now() / 1000) }),
      ).toBe(true);

      const [logged] = await log(id);
      expect(logged).toMatchObject({
        delivery_id: queued.delivery_id,
        event_type: 'webhook.test',
        status: 'succeeded',
        attempts: 1,
        last_status_code: 204,
        last_error: null,
        last_latency_ms: expect.any(Number),
        last_attempt_at: iso(t.clock.now()),
        next_attempt_at: null,
      });
    });

    it('goes to that webhook only, whatever kinds it subscribes to', async () => {
      const narrow = (
        await t.call('POST', '/v1/webhooks', token, { url: `${receiver.url}/test-narrow`, events: ['email.complained'] })
      ).json().data.webhook_id;
      const bystander = await registerAt('/test-bystander');
      await sendTest(narrow);
      await t.drain();
      expect(at('/test-narrow')).toHaveLength(1);
      expect(at('/test-bystander')).toHaveLength(0);
      expect(await log(bystander)).toEqual([]);
    });

    it('answers 409 WEBHOOK_DISABLED for a disabled webhook and 404 for another account', async () => {
      const id = await registerAt('/test-disabled');
      expect((await t.call('POST', `/v1/webhooks/${id}/test`, otherToken)).statusCode).toBe(404);
      await t.store.webhooks.setActive(id, false, 'the receiver answered 410 Gone');
      const refused = await t.call('POST', `/v1/webhooks/${id}/test`, token);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({ code: 'WEBHOOK_DISABLED', message: expect.stringContaining('410 Gone') });
    });
  });

  describe('signing during a secret rotation', () => {
    it('signs with both secrets for 24 hours, then with the new one only', async () => {
      const owner = await t.createAccount();
      const mine = await t.tokenFor(owner);
      const id = await registerAt('/rotation', mine);
      const old = (await t.call('GET', '/v1/webhooks/secret', mine)).json().data.secret;
      const next = (await t.call('POST', '/v1/webhooks/secret/rotate', mine)).json().data.secret;
      await sendTest(id, mine);
      await t.drain();
      const [during] = at('/rotation');
      const now = Math.floor(t.clock.now() / 1000);
      expect(String(during?.headers['x-service-signature']).split(',')).toHaveLength(2);
      expect(String(during?.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [old, next]) {
        expect(verifyWebhook({ secret, body: during?.body ?? '', headers: during?.headers ?? {}, nowSeconds: now })).toBe(true);
      }

      const start = t.clock.now();
      t.clock.advance(SECRET_OVERLAP_MS + 1);
      try {
        await sendTest(id, await t.tokenFor(owner));
        await t.drain();
        const after = at('/rotation')[1];
        const later = Math.floor(t.clock.now() / 1000);
        expect(String(after?.headers['x-service-signature']).split(',')).toHaveLength(1);
        expect(verifyWebhook({ secret: next, body: after?.body ?? '', headers: after?.headers ?? {}, nowSeconds: later })).toBe(true);
        expect(verifyWebhook({ secret: old, body: after?.body ?? '', headers: after?.headers ?? {}, nowSeconds: later })).toBe(false);
      } finally {
        t.clock.set(start);
      }
    });
  });

  describe('GET /v1/webhooks/{id}/deliveries', () => {
    let id: string;
    let sent: DeliveryView[];

    beforeAll(async () => {
      id = await registerAt('/log');
      sent = [];
      for (let i = 0; i < 5; i++) {
        sent.push(await sendTest(id));
        t.clock.advance(1_000);
      }
      await settle(sent[0]?.delivery_id ?? '', 'failed');
      await settle(sent[1]?.delivery_id ?? '', 'failed');
      await settle(sent[2]?.delivery_id ?? '', 'succeeded');
    });

    const ids = (deliveries: DeliveryView[]) => deliveries.map((d) => d.delivery_id);

    it('pages newest first with total and has_more', async () => {
      const first = await t.call('GET', `/v1/webhooks/${id}/deliveries?limit=2`, token);
      expect(first.json().data.pagination).toEqual({ total: 5, limit: 2, offset: 0, has_more: true });
      expect(ids(first.json().data.deliveries)).toEqual(ids([sent[4], sent[3]] as DeliveryView[]));
      const last = await t.call('GET', `/v1/webhooks/${id}/deliveries?limit=2&offset=4`, token);
      expect(last.json().data.pagination).toEqual({ total: 5, limit: 2, offset: 4, has_more: false });
      expect(ids(last.json().data.deliveries)).toEqual([sent[0]?.delivery_id]);
      expect(ids(await log(id))).toEqual(ids([...sent].reverse()));
    });

    it('filters by status', async () => {
      const failed = await t.call('GET', `/v1/webhooks/${id}/deliveries?status=failed`, token);
      expect(failed.json().data.pagination.total).toBe(2);
      expect(ids(failed.json().data.deliveries)).toEqual(ids([sent[1], sent[0]] as DeliveryView[]));
      expect((await log(id, '?status=failed')).every((d) => d.status === 'failed' && d.last_status_code === 500)).toBe(true);
      expect(ids(await log(id, '?status=succeeded'))).toEqual([sent[2]?.delivery_id]);
      expect(ids(await log(id, '?status=pending'))).toEqual(ids([sent[4], sent[3]] as DeliveryView[]));
      expect(await log(id, '?status=canceled')).toEqual([]);
    });

    it.each([
      ['?status=lost', 422, 'VALIDATION_ERROR'],
      ['?limit=0', 422, 'VALIDATION_ERROR'],
      ['?limit=101', 422, 'VALIDATION_ERROR'],
      ['?offset=-1', 422, 'VALIDATION_ERROR'],
      ['?outcome=failed', 400, 'INVALID_REQUEST'],
    ])('refuses %s with %i %s', async (query, status, code) => {
      const response = await t.call('GET', `/v1/webhooks/${id}/deliveries${query}`, token);
      expect(response.statusCode).toBe(status);
      expect(response.json().error.code).toBe(code);
    });

    it("answers 404 for another account's webhook, an unknown one and a deleted one", async () => {
      expect((await t.call('GET', `/v1/webhooks/${id}/deliveries`, otherToken)).statusCode).toBe(404);
      expect((await t.call('GET', '/v1/webhooks/wh_unknown/deliveries', token)).statusCode).toBe(404);
      const gone = await registerAt('/log-deleted');
      await t.call('DELETE', `/v1/webhooks/${gone}`, token);
      expect((await t.call('GET', `/v1/webhooks/${gone}/deliveries`, token)).json().error.code).toBe('NOT_FOUND');
    });
  });

  describe('POST /v1/webhooks/{id}/deliveries/{delivery_id}/replay', () => {
    it('re-sends the same event now as a new delivery (202), leaving the old one in the log', async () => {
      const id = await registerAt('/replay-one');
      answers.set('/replay-one', 500);
      const original = await sendTest(id);
      await t.drain();
      const [failedOnce] = await log(id);
      expect(failedOnce).toMatchObject({ delivery_id: original.delivery_id, status: 'pending', attempts: 1, last_status_code: 500 });
      expect(failedOnce?.next_attempt_at).not.toBeNull();

      answers.set('/replay-one', 200);
      const replayed = await t.call('POST', `/v1/webhooks/${id}/deliveries/${original.delivery_id}/replay`, token);
      expect(replayed.statusCode).toBe(202);
      const copy: DeliveryView = replayed.json().data;
      expect(copy).toMatchObject({ event_id: original.event_id, event_type: 'webhook.test', status: 'pending', attempts: 0 });
      expect(copy.delivery_id).not.toBe(original.delivery_id);

      await t.drain();
      const arrivals = at('/replay-one');
      expect(arrivals).toHaveLength(2);
      expect(arrivals[1]?.body).toBe(arrivals[0]?.body);
      expect(arrivals[1]?.headers['webhook-id']).toBe(original.event_id);
      const after = await log(id);
      expect(after.map((d) => [d.delivery_id, d.status])).toEqual([
        [copy.delivery_id, 'succeeded'],
        [original.delivery_id, 'pending'],
      ]);
    });

    it("answers 404 for a delivery of another webhook, another account's webhook or an unknown delivery", async () => {
      const id = await registerAt('/replay-404');
      const sibling = await registerAt('/replay-404-sibling');
      const delivery = await sendTest(id);
      const replay = (webhookId: string, deliveryId: string, as = token) =>
        t.call('POST', `/v1/webhooks/${webhookId}/deliveries/${deliveryId}/replay`, as);
      expect((await replay(sibling, delivery.delivery_id)).statusCode).toBe(404);
      expect((await replay(id, delivery.delivery_id, otherToken)).statusCode).toBe(404);
      const foreign = await registerAt('/replay-404-foreign', otherToken);
      expect((await replay(foreign, delivery.delivery_id, otherToken)).statusCode).toBe(404);
      const unknown = await replay(id, 'whd_unknown');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.message).toBe('Delivery not found.');
    });

    it('answers 409 WEBHOOK_DISABLED while the webhook is disabled, and works again once enabled', async () => {
      const id = await registerAt('/replay-disabled');
      const delivery = await sendTest(id);
      await t.store.webhooks.setActive(id, false, 'every delivery failed for 3 days');
      const url = `/v1/webhooks/${id}/deliveries/${delivery.delivery_id}/replay`;
      expect((await t.call('POST', url, token)).json().error.code).toBe('WEBHOOK_DISABLED');
      expect((await t.call('POST', `/v1/webhooks/${id}/enable`, token)).statusCode).toBe(200);
      expect((await t.call('POST', url, token)).statusCode).toBe(202);
    });
  });

  describe('POST /v1/webhooks/{id}/replay?since=', () => {
    it('re-sends each failed event since the time once, and nothing twice', async () => {
      const id = await registerAt('/since');
      const other = await registerAt('/since-other');
      const t0 = t.clock.now();
      const d0 = await sendTest(id);
      t.clock.advance(60_000);
      const t1 = t.clock.now();
      const d1 = await sendTest(id);
      t.clock.advance(60_000);
      const d2 = await sendTest(id);
      const elsewhere = await sendTest(other);
      for (const d of [d0, d2, elsewhere]) await settle(d.delivery_id, 'failed');
      await settle(d1.delivery_id, 'succeeded');

      const replay = (since: string) => t.call('POST', `/v1/webhooks/${id}/replay?since=${encodeURIComponent(since)}`, token);
      const recent = await replay(iso(t1));
      expect(recent.statusCode).toBe(202);
      expect(recent.json()).toEqual({ success: true, data: { queued: 1, has_more: false } });
      expect((await log(id, '?status=pending')).map((d) => d.event_id)).toEqual([d2.event_id]);

      expect((await replay(iso(t0))).json().data).toEqual({ queued: 1, has_more: false });
      expect((await replay(iso(t0))).json().data).toEqual({ queued: 0, has_more: false });

      await t.drain();
      // The worker runs due jobs side by side: arrival order is not defined.
      expect(at('/since').map((r) => r.headers['webhook-id'])).toEqual(expect.arrayContaining([d2.event_id, d0.event_id]));
      expect(at('/since')).toHaveLength(2);
      expect(at('/since-other')).toEqual([]);

      // Failed again (original and replay both failed): each event is still sent once per call.
      for (const d of await log(id, '?status=succeeded')) if (d.delivery_id !== d1.delivery_id) await settle(d.delivery_id, 'failed');
      expect((await replay(`${iso(t0).slice(0, 19)}+00:00`)).json().data).toEqual({ queued: 2, has_more: false });
    });

    it.each([
      ['', 'since'],
      ['?since=yesterday', 'since'],
      ['?since=2026-02-30T00:00:00Z', 'since'],
    ])('refuses a missing or invalid since (%s) with 422', async (query, field) => {
      const id = await registerAt('/since-invalid');
      const response = await t.call('POST', `/v1/webhooks/${id}/replay${query}`, token);
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
      expect(response.json().error.details[0].field).toBe(field);
    });

    it("answers 404 for another account's webhook and 409 for a disabled one", async () => {
      const id = await registerAt('/since-refused');
      const since = encodeURIComponent(iso(t.clock.now()));
      expect((await t.call('POST', `/v1/webhooks/${id}/replay?since=${since}`, otherToken)).statusCode).toBe(404);
      await t.store.webhooks.setActive(id, false, 'the receiver answered 410 Gone');
      expect((await t.call('POST', `/v1/webhooks/${id}/replay?since=${since}`, token)).statusCode).toBe(409);
    });

    it(`queues at most ${MAX_REPLAY_PER_CALL} per call and says when more remain`, async () => {
      const id = await registerAt('/since-bounded');
      const since = t.clock.now();
      const webhook = await t.store.webhooks.find(account.account.id, id);
      await t.store.transaction(async (tx) => {
        const deliveries: WebhookDelivery[] = [];
        for (let i = 0; i <= MAX_REPLAY_PER_CALL; i++) {
          const eventId = `evt_bounded_${String(i).padStart(5, '0')}`;
          await tx.webhooks.insertEvent({
            id: eventId,
            accountId: account.account.id,
            messageId: null,
            type: 'webhook.test',
            body: '{}',
            createdAt: since,
          });
          deliveries.push({
            id: `whd_bounded_${String(i).padStart(5, '0')}`,
            accountId: account.account.id,
            eventId,
            webhookId: id,
            url: webhook?.url ?? '',
            status: 'failed',
            attempts: 10,
            lastStatusCode: 500,
            lastError: 'HTTP 500',
            lastLatencyMs: 1,
            lastAttemptAt: since,
            nextAttemptAt: null,
            createdAt: since,
          });
        }
        await tx.webhooks.insertDeliveries(deliveries);
      });
      const replay = () => t.call('POST', `/v1/webhooks/${id}/replay?since=${encodeURIComponent(iso(since))}`, token);
      expect((await replay()).json().data).toEqual({ queued: MAX_REPLAY_PER_CALL, has_more: true });
      expect((await replay()).json().data).toEqual({ queued: 1, has_more: false });
      // Deleting the webhook cancels the queued copies, so no later drain posts them.
      await t.call('DELETE', `/v1/webhooks/${id}`, token);
    });
  });
});
