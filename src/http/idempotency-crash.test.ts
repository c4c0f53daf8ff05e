import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import type { Store } from '../core/ports.js';

/**
 * A process may die at any moment: between committing what a request created and storing its
 * answer under the Idempotency-Key is the moment that used to create things twice. Here the app's
 * store refuses every answer written after the request's own transaction (as a process killed
 * right after that commit would never write it), so only an answer kept inside that transaction
 * survives. A retry, even after the key's claim has lapsed, must replay it and create nothing.
 */
const dyingAfterCommit = (store: Store): Store =>
  Object.assign({}, store, {
    idempotency: Object.assign({}, store.idempotency, {
      complete: () => Promise.reject(new Error('the process died before storing the answer')),
    }),
  });

describeEachDialect('Idempotency-Key: the answer is kept in the transaction that creates', (dialect) => {
  let t: TestApp;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp(dialect, { wrapStore: dyingAfterCommit });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (token: string, url: string, body: unknown, key: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: {
        authorization: `Bearer ${token}`,
        'idempotency-key': key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const count = async (table: 'messages' | 'webhooks' | 'webhook_deliveries', accountId: string) => {
    const row = await t.database.db
      // Each of these tables has an account_id; the cast picks one for the query's type.
      .selectFrom(table as 'messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  /** The first answer, then a retry after the claim lapsed: the same bytes, replayed, nothing new. */
  const expectReplayAfterCrash = async (
    token: string,
    url: string,
    body: unknown,
    created: () => Promise<number>,
    status = 200,
  ): Promise<LightMyRequestResponse> => {
    const key = `crash-${++n}`;
    const first = await post(token, url, body, key);
    expect(first.statusCode, first.body).toBe(status);
    const made = await created();
    // Past the key's claim (10 s): a retry here once ran the request again.
    t.clock.advance(10_001);
    const retry = await post(token, url, body, key);
    expect(retry.statusCode).toBe(status);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(retry.body).toBe(first.body);
    expect(await created()).toBe(made);
    return first;
  };

  const account = async (credits = 100) => {
    const created = await t.createAccount({ credits });
    return { id: created.account.id, token: await t.tokenFor(created) };
  };

  it('an SMS: one message, one reservation, the same answer byte for byte', async () => {
    const a = await account(10);
    await expectReplayAfterCrash(a.token, '/v1/sms/send', { to: '+14155552671', message: 'Your code is 1' }, () => count('messages', a.id));
    expect(await count('messages', a.id)).toBe(1);
    expect((await t.call('GET', '/v1/account/balance', a.token)).json().data).toMatchObject({ reserved: 1, available: 9 });
  });

  it('a bulk send: one batch, rejected recipients listed again as they were', async () => {
    const a = await account(10);
    const body = { recipients: ['+14155552671', '+14155552672', 'nope'], message: 'Bulk once' };
    await expectReplayAfterCrash(a.token, '/v1/sms/bulk', body, () => count('messages', a.id));
    expect(await count('messages', a.id)).toBe(2);
    expect((await t.call('GET', '/v1/account/balance', a.token)).json().data).toMatchObject({ reserved: 2, available: 8 });
  });

  it('a Telegram message and photo, a WhatsApp template and an email', async () => {
    const a = await account();
    const messages = () => count('messages', a.id);
    await expectReplayAfterCrash(a.token, '/v1/telegram/send', { chat_id: '4242', message: 'Once' }, messages);
    await expectReplayAfterCrash(a.token, '/v1/telegram/photo', { chat_id: '4242', photo_url: 'https://example.com/p.jpg' }, messages);
    const template = {
      to: '+14155552671',
      template: 'verification_code',
      language: 'en_US',
      components: [{ type: 'body', parameters: [{ type: 'text', text: '123456' }] }],
    };
    await expectReplayAfterCrash(a.token, '/v1/whatsapp/send', template, messages);
    await expectReplayAfterCrash(
      a.token,
      '/v1/email/send',
      { to: 'a@example.com', from: 'b@acme.example', subject: 's', text: 't' },
      messages,
    );
    expect(await messages()).toBe(4);
  });

  it('a cancel: replayed as the canceled message, not refused as already canceled', async () => {
    const a = await account(10);
    const later = new Date(t.clock.now() + 3_600_000).toISOString();
    const sent = await t.call('POST', '/v1/sms/send', a.token, { to: '+14155552671', message: 'Later', scheduled_at: later });
    const id = sent.json().data.message_id as string;
    const canceled = await expectReplayAfterCrash(a.token, `/v1/messages/${id}/cancel`, undefined, async () => 0);
    expect(canceled.json().data.status).toBe('canceled');
    expect((await t.call('GET', '/v1/account/balance', a.token)).json().data).toMatchObject({ reserved: 0, available: 10 });
  });

  it('a webhook registration, a test event, a replayed delivery and a secret rotation', async () => {
    const a = await account();
    await expectReplayAfterCrash(
      a.token,
      '/v1/webhooks',
      { url: 'https://hooks.example.com/h', events: ['*'] },
      () => count('webhooks', a.id),
      201,
    );
    expect(await count('webhooks', a.id)).toBe(1);
    const webhookId = (await t.call('GET', '/v1/webhooks', a.token)).json().data.webhooks[0].webhook_id as string;

    const deliveries = () => count('webhook_deliveries', a.id);
    await expectReplayAfterCrash(a.token, `/v1/webhooks/${webhookId}/test`, undefined, deliveries, 202);
    expect(await deliveries()).toBe(1);
    const deliveryId = (await t.call('GET', `/v1/webhooks/${webhookId}/deliveries`, a.token)).json().data.deliveries[0].delivery_id;
    await expectReplayAfterCrash(a.token, `/v1/webhooks/${webhookId}/deliveries/${deliveryId}/replay`, undefined, deliveries, 202);
    expect(await deliveries()).toBe(2);

    // A rotation run twice would retire the secret the first answer handed out.
    const secret = async () => (await t.call('GET', '/v1/webhooks/secret', a.token)).json().data.secret as string;
    const original = await secret();
    const rotation = await expectReplayAfterCrash(a.token, '/v1/webhooks/secret/rotate', undefined, async () => 0);
    const handedOut = rotation.json().data.secret as string;
    expect(handedOut).not.toBe(original);
    expect(await secret()).toBe(handedOut);
  });

  it('a refusal creates nothing: its answer is kept afterwards, so the crash leaves the key to a retry', async () => {
    const a = await account(0);
    const body = { to: '+14155552671', message: 'No credits' };
    const first = await post(a.token, '/v1/sms/send', body, 'refused-1');
    expect(first.statusCode).toBe(402);
    t.clock.advance(60_001);
    const retry = await post(a.token, '/v1/sms/send', body, 'refused-1');
    expect(retry.statusCode).toBe(402);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await count('messages', a.id)).toBe(0);
  });
});
