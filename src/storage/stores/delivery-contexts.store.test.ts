import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { newDelivery } from '../../core/events/queue-deliveries.js';
import type { Webhook, WebhookDelivery } from '../../core/ports.js';

describeEachDialect('what sending many webhook deliveries needs, read at once', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  const webhook = (id: string, accountId: string, failingSince: number | null = null): Webhook => ({
    id,
    accountId,
    url: `https://example.com/${id}`,
    events: ['message.delivered'],
    description: null,
    active: true,
    disabledReason: null,
    failingSince,
    createdAt: t.clock.now(),
  });

  it("gives each delivery its webhook (none once deleted, none of another account's), its event and its account's secrets", async () => {
    const accountId = (await t.createAccount()).account.id;
    const other = (await t.createAccount()).account.id;
    const at = t.clock.now();
    await t.store.webhooks.create(webhook('wh_kept', accountId));
    await t.store.webhooks.create(webhook('wh_gone', accountId));
    await t.store.webhooks.create(webhook('wh_other', other));
    await t.store.webhooks.insertEvents([
      { id: 'evt_a', accountId, messageId: null, type: 'message.delivered', body: '{"id":"evt_a"}', createdAt: at },
    ]);
    const kept = newDelivery({ accountId, webhookId: 'wh_kept', url: 'https://example.com/wh_kept' }, 'evt_a', at);
    const gone = newDelivery({ accountId, webhookId: 'wh_gone', url: 'https://example.com/wh_gone' }, 'evt_a', at);
    const foreign = newDelivery({ accountId, webhookId: 'wh_other', url: 'https://example.com/wh_other' }, 'evt_a', at);
    const callback = newDelivery({ accountId, webhookId: null, url: 'https://example.com/cb' }, 'evt_a', at);
    await t.store.webhooks.insertDeliveries([kept, gone, foreign, callback]);
    await t.store.webhooks.delete(accountId, 'wh_gone', at);
    const secrets = await t.store.webhooks.signingSecrets(accountId, () => 'whsec_test', at);

    const contexts = await t.store.webhooks.deliveryContexts([kept.id, gone.id, foreign.id, callback.id, 'whd_missing']);
    expect([...contexts.keys()].sort()).toEqual([kept.id, gone.id, foreign.id, callback.id].sort());
    expect(contexts.get(kept.id)).toMatchObject({ delivery: { id: kept.id, status: 'pending' }, webhook: { id: 'wh_kept' } });
    expect(contexts.get(kept.id)?.event).toMatchObject({ id: 'evt_a', body: '{"id":"evt_a"}' });
    expect(contexts.get(kept.id)?.secrets).toEqual(secrets);
    expect(contexts.get(gone.id)).toMatchObject({ delivery: { status: 'canceled' }, webhook: undefined });
    expect(contexts.get(foreign.id)?.webhook).toBeUndefined();
    expect(contexts.get(callback.id)).toMatchObject({ webhook: undefined, event: { id: 'evt_a' } });
    // An account whose first delivery has not made its secrets yet has none to give.
    const fresh = (await t.createAccount()).account.id;
    const lone = newDelivery({ accountId: fresh, webhookId: null, url: 'https://example.com/cb' }, 'evt_a', at);
    await t.store.webhooks.insertDeliveries([lone]);
    expect((await t.store.webhooks.deliveryContexts([lone.id])).get(lone.id)?.secrets).toBeUndefined();
    expect((await t.store.webhooks.deliveryContexts([])).size).toBe(0);
  });

  it("reads a webhook's failure streak, a rotated secret and the event's message origin as numbers and text, as stored", async () => {
    const created = await t.createAccount();
    const accountId = created.account.id;
    const at = t.clock.now();
    await t.store.webhooks.create(webhook('wh_streak', accountId, at - 5_000));
    await t.store.webhooks.signingSecrets(accountId, () => 'whsec_first', at);
    const rotated = await t.store.webhooks.rotateSigningSecret(accountId, 'whsec_second', at + 1, 86_400_000);
    const sent = await t.call('POST', '/v1/sms/send', await t.tokenFor(created), { to: '+14155552671', message: 'hi' });
    const messageId = sent.json().data.message_id as string;
    const requestId = (await t.store.messages.findById(messageId))?.requestId;
    await t.store.webhooks.insertEvents([
      { id: 'evt_m', accountId, messageId, type: 'message.delivered', body: '{"id":"evt_m"}', createdAt: at },
    ]);
    const delivery = newDelivery({ accountId, webhookId: 'wh_streak', url: 'https://example.com/wh_streak' }, 'evt_m', at);
    await t.store.webhooks.insertDeliveries([delivery]);

    const context = (await t.store.webhooks.deliveryContexts([delivery.id])).get(delivery.id);
    expect(context?.webhook).toMatchObject({ id: 'wh_streak', failingSince: at - 5_000, active: true, events: ['message.delivered'] });
    expect(context?.secrets).toEqual(rotated);
    expect(typeof context?.secrets?.previousUntil).toBe('number');
    expect(context?.event).toMatchObject({ id: 'evt_m', accountId, messageId, createdAt: at });
    expect(context?.origin).toEqual({ requestId, traceContext: null });
    expect(requestId).toEqual(expect.any(String));
  });

  it('ends the failure streaks of the webhooks named, and only theirs', async () => {
    const accountId = (await t.createAccount()).account.id;
    await t.store.webhooks.create(webhook('wh_s1', accountId, 1_000));
    await t.store.webhooks.create(webhook('wh_s2', accountId, 2_000));
    await t.store.webhooks.clearFailureStreaks(['wh_s1', 'wh_none']);
    expect((await t.store.webhooks.find(accountId, 'wh_s1'))?.failingSince).toBeNull();
    expect((await t.store.webhooks.find(accountId, 'wh_s2'))?.failingSince).toBe(2_000);
  });

  it("records each delivery's own attempt in one call, and leaves the others as they were", async () => {
    const accountId = (await t.createAccount()).account.id;
    const at = t.clock.now();
    await t.store.webhooks.insertEvents([
      { id: 'evt_r', accountId, messageId: null, type: 'message.delivered', body: '{"id":"evt_r"}', createdAt: at },
    ]);
    const [ok, failing, untouched] = ['ok', 'failing', 'untouched'].map((name) =>
      newDelivery({ accountId, webhookId: null, url: `https://example.com/${name}` }, 'evt_r', at),
    ) as [WebhookDelivery, WebhookDelivery, WebhookDelivery];
    await t.store.webhooks.insertDeliveries([ok, failing, untouched]);
    await t.store.webhooks.recordAttempts([
      { ...ok, status: 'succeeded', attempts: 1, lastStatusCode: 204, lastLatencyMs: 12, lastAttemptAt: at + 5, nextAttemptAt: null },
      {
        ...failing,
        attempts: 2,
        lastStatusCode: null,
        lastError: 'connection refused \ud83d', // a lone surrogate, cut from an emoji
        lastLatencyMs: 10_000,
        lastAttemptAt: at + 6,
        nextAttemptAt: at + 30_000,
      },
    ]);
    const read = async (id: string) => (await t.store.webhooks.deliveryContexts([id])).get(id)?.delivery;
    expect(await read(ok.id)).toEqual({
      ...ok,
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 204,
      lastLatencyMs: 12,
      lastAttemptAt: at + 5,
      nextAttemptAt: null,
    });
    expect(await read(failing.id)).toMatchObject({
      status: 'pending',
      attempts: 2,
      lastStatusCode: null,
      lastLatencyMs: 10_000,
      lastAttemptAt: at + 6,
      nextAttemptAt: at + 30_000,
    });
    expect((await read(failing.id))?.lastError).toMatch(/^connection refused /);
    expect(await read(untouched.id)).toEqual(untouched);
    await t.store.webhooks.recordAttempts([]);
  });
});
