import { afterEach, beforeEach, expect, it } from 'vitest';
import { CHANNEL_MODULES } from '../../src/main/channels.js';
import { verifyWebhook } from '../../src/webhooks/verify.js';
import { createTestApp, type TestApp } from '../app-harness.js';
import { describeEachDialect } from '../databases.js';
import { startReceiver, type WebhookReceiver } from '../webhook-receiver.js';
import { echoAccounts, echoModule, echoMoves } from './echo.module.js';

/** Polls until `check` holds, for at most 5 s (a functional bound, not a speed check). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A channel is a folder plus a line in the list (src/main/channels.ts): a fifth channel, defined in
 * test code (echo.module.ts), added to that list, goes send → deliver → status → webhook through
 * the same catalogue, config, store, worker, status machine and webhooks as the four Herald ships.
 */
describeEachDialect('a channel added through the list of channel modules', (dialect) => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    t = await createTestApp(dialect, {
      channels: [...CHANNEL_MODULES, echoModule],
      env: { PRICE_ECHO: '0.5', ECHO_FAIL_TO: 'nobody' },
    });
    receiver = await startReceiver();
    echoMoves.length = 0;
  });
  afterEach(async () => {
    await receiver.close();
    await t.close();
  });

  it('is sent, delivered, read back, listed, charged at its configured price and told to a signed webhook', async () => {
    const account = await t.createAccount({ credits: 10 });
    expect(account.account.scopes).toEqual(expect.arrayContaining(['echo:send', 'echo:read']));
    expect(echoAccounts).toContain(account.account.id);
    const token = await t.tokenFor(account);
    const hook = await t.call('POST', '/v1/webhooks', token, { url: `${receiver.url}/echo`, events: ['message.delivered'] });
    expect(hook.statusCode).toBe(201);
    const secret = (await t.call('GET', '/v1/webhooks/secret', token)).json().data.secret as string;

    const sent = await t.call('POST', '/v1/echo/send', token, { to: 'alice', text: 'hello' });
    expect(sent.statusCode).toBe(200);
    const id = sent.json().data.message_id as string;
    expect(id).toMatch(/^msg_echo_[0-9a-z]{26}$/);

    await t.drain(); // the hand-over: the carrier takes it and reports it delivered a moment later
    await until(async () => (await t.call('GET', `/v1/messages/${id}`, token)).json().data.status === 'delivered');
    await t.drain(); // the webhook delivery
    await receiver.waitFor(1, 5_000);

    const universal = (await t.call('GET', `/v1/messages/${id}`, token)).json().data;
    expect(universal).toMatchObject({ message_id: id, channel: 'echo', to: 'alice', status: 'delivered', credits_used: 0.5 });
    expect(universal.status_history.map((change: { status: string }) => change.status)).toEqual(['queued', 'sent', 'delivered']);
    expect((await t.call('GET', `/v1/echo/${id}`, token)).json().data).toMatchObject({ message_id: id, status: 'delivered' });

    const listed = (await t.call('GET', '/v1/messages?channel=echo', token)).json().data;
    expect(listed.messages.map((m: { message_id: string }) => m.message_id)).toEqual([id]);
    expect((await t.call('GET', '/v1/messages', token)).json().data.pagination.total).toBe(1);
    expect((await t.call('GET', '/v1/account/balance', token)).json().data).toMatchObject({ credits: 9.5, reserved: 0, available: 9.5 });

    const [delivery] = receiver.received;
    const headers = Object.fromEntries(
      Object.entries(delivery?.headers ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    expect(verifyWebhook({ secret, body: delivery?.body ?? '', headers, nowSeconds: Math.floor(Date.now() / 1000) })).toBe(true);
    expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({
      type: 'message.delivered',
      data: { message_id: id, channel: 'echo', to: 'alice' },
    });

    // The channel's own hook heard each move.
    expect(echoMoves.filter((move) => move.messageId === id).map((move) => move.status)).toEqual(['queued', 'sent', 'delivered']);
  });

  it('fails where its carrier refuses, releasing the credits, and tells its hook why', async () => {
    const account = await t.createAccount({ credits: 10 });
    const token = await t.tokenFor(account);
    const id = (await t.call('POST', '/v1/echo/send', token, { to: 'nobody', text: 'hello' })).json().data.message_id as string;
    await t.drain();
    const message = (await t.call('GET', `/v1/messages/${id}`, token)).json().data;
    expect(message).toMatchObject({ status: 'failed', credits_used: 0, error: { code: 'ECHO_REFUSED' } });
    expect((await t.call('GET', '/v1/account/balance', token)).json().data).toMatchObject({ credits: 10, reserved: 0, available: 10 });
    expect(echoMoves.filter((move) => move.messageId === id)).toEqual([
      { messageId: id, status: 'queued', reason: undefined },
      { messageId: id, status: 'failed', reason: 'ECHO_REFUSED' },
    ]);
  });

  it('has scopes of its own: a token without echo:read neither reads nor lists it, and the reference names them', async () => {
    const account = await t.createAccount({ credits: 10 });
    const id = (await t.call('POST', '/v1/echo/send', await t.tokenFor(account), { to: 'alice', text: 'hi' })).json().data.message_id;
    const smsOnly = await t.tokenFor(account, 'sms:read echo:send');
    expect((await t.call('GET', `/v1/messages/${id}`, smsOnly)).statusCode).toBe(403);
    expect((await t.call('GET', '/v1/messages?channel=echo', smsOnly)).statusCode).toBe(403);
    expect((await t.call('GET', '/v1/messages?channel=pigeon', smsOnly)).statusCode).toBe(422);
    const reference = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(reference.components.securitySchemes.oauth2.flows.clientCredentials.scopes).toMatchObject({
      'echo:send': 'Send echoes',
      'echo:read': 'Read echoes',
    });
    expect(Object.keys(reference.paths)).toEqual(expect.arrayContaining(['/v1/echo/send', '/v1/echo/{message_id}']));
    expect(reference.tags.map((tag: { name: string }) => tag.name)).toEqual(expect.arrayContaining(['SMS', 'Echo']));
    expect(reference.info.description).toMatch(/^Send SMS, WhatsApp, Email, Telegram and Echo messages/);
  });

  it('is unknown to a Herald whose list does not name it: its id is not found, its scope not granted', async () => {
    const plain = await createTestApp(dialect);
    try {
      const account = await plain.createAccount({ credits: 10 });
      const token = await plain.tokenFor(account);
      expect((await plain.call('POST', '/v1/echo/send', token, { to: 'alice', text: 'hi' })).statusCode).toBe(404);
      const fake = 'msg_echo_01kbq5z3n4j8c0t8x9w2m6p7r5';
      expect((await plain.call('GET', `/v1/messages/${fake}`, token)).statusCode).toBe(404);
      const refused = await plain.app.inject({
        method: 'POST',
        url: '/oauth/token',
        payload: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: account.clientId,
          client_secret: account.clientSecret,
          scope: 'echo:send',
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(refused.json()).toMatchObject({ error: 'invalid_scope' });
    } finally {
      await plain.close();
    }
  });
});
