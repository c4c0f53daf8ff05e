import { createHmac } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { TEST_PROVIDER_SECRETS } from '../../../test/logs.js';
import { fakeGraphSettings, startFakeGraphApi } from '../../../test/whatsapp.js';
import type { OutboundMessage } from '../../core/delivery/provider.js';
import { assignAddress } from '../../core/inbound/addresses.js';
import { createWhatsappCloudProvider } from './cloud-api.provider.js';
import { whatsappWebhookRoutes } from './whatsapp-webhook.routes.js';

const outbound = (to: string, payload: Record<string, unknown>, body = 'Hello Ada'): OutboundMessage => ({
  id: `msg_whatsapp_${'0'.repeat(26)}`,
  accountId: 'acc_x',
  channel: 'whatsapp',
  to,
  sender: null,
  body,
  payload,
  segments: null,
  attempt: 1,
});

describe('WhatsApp Cloud API provider against a fake Graph API on loopback', () => {
  let graph: Awaited<ReturnType<typeof startFakeGraphApi>>;
  const signal = new AbortController().signal;
  beforeAll(async () => {
    graph = await startFakeGraphApi();
  });
  afterAll(() => graph.close());

  it('posts a template to /{version}/{phone_number_id}/messages with the bearer token, and returns the wamid', async () => {
    const provider = createWhatsappCloudProvider(fakeGraphSettings(graph.url));
    const components = [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }];
    const outcome = await provider.send(
      outbound('+14155552671', { type: 'template', template: { name: 'welcome', language: 'en_US', components } }),
      signal,
    );
    expect(outcome).toEqual({ ok: true, providerMessageId: expect.stringMatching(/^wamid\./) });
    const call = graph.calls.at(-1);
    expect({ path: call?.path, authorization: call?.headers.authorization, body: call?.body }).toEqual({
      path: '/v21.0/106540352242922/messages',
      authorization: `Bearer ${TEST_PROVIDER_SECRETS.whatsappAccessToken}`,
      body: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '14155552671',
        type: 'template',
        template: { name: 'welcome', language: { code: 'en_US' }, components },
      },
    });
  });

  it('posts a session message as text', async () => {
    const provider = createWhatsappCloudProvider(fakeGraphSettings(graph.url));
    await provider.send(outbound('+14155552671', { type: 'text' }, 'See you at 10'), signal);
    expect(graph.calls.at(-1)?.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '14155552671',
      type: 'text',
      text: { body: 'See you at 10', preview_url: false },
    });
  });

  it.each([
    ['+15550000047', { ok: false, retryable: false, code: 'SESSION_WINDOW_CLOSED' }],
    ['+15550000050', { ok: false, retryable: false, code: 'WHATSAPP_OPTED_OUT' }],
    ['+15550000429', { ok: false, retryable: true, code: 'WHATSAPP_130429' }],
    ['+15550000100', { ok: false, retryable: false, code: 'WHATSAPP_100', message: 'Parameter name is invalid.' }],
  ])('maps the Cloud API error for %s', async (to, expected) => {
    const provider = createWhatsappCloudProvider(fakeGraphSettings(graph.url));
    expect(await provider.send(outbound(to, { type: 'text' }), signal)).toMatchObject(expected);
  });

  it('treats a refused access token as retryable, for an operator to fix', async () => {
    const provider = createWhatsappCloudProvider({ ...fakeGraphSettings(graph.url), accessToken: 'wrong' });
    expect(await provider.send(outbound('+14155552671', { type: 'text' }), signal)).toMatchObject({
      ok: false,
      retryable: true,
      code: 'WHATSAPP_190',
    });
  });
});

describeEachDialect('WhatsApp Cloud API webhooks', (dialect) => {
  let t: TestApp;
  let hooks: FastifyInstance;
  const SECRET = TEST_PROVIDER_SECRETS.whatsappAppSecret;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    hooks = Fastify();
    await hooks.register(whatsappWebhookRoutes, {
      store: t.store,
      clock: t.clock,
      appSecret: SECRET,
      verifyToken: TEST_PROVIDER_SECRETS.whatsappVerifyToken,
      receive: t.receive,
    });
    await hooks.ready();
  });
  afterAll(async () => {
    await hooks.close();
    await t.close();
  });

  const post = (body: unknown, signature?: string) => {
    const raw = JSON.stringify(body);
    return hooks.inject({
      method: 'POST',
      url: '/webhooks/whatsapp',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signature ?? `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`,
      },
      payload: raw,
    });
  };
  const statuses = (wamid: string, ...list: Array<{ status: string; timestamp: number; errors?: unknown[] }>) => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '1',
        changes: [{ field: 'messages', value: { statuses: list.map((s) => ({ id: wamid, recipient_id: '14155552671', ...s })) } }],
      },
    ],
  });

  it('answers Meta’s subscription check with the challenge, only with the right verify token', async () => {
    const ok = await hooks.inject({
      method: 'GET',
      url: `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${TEST_PROVIDER_SECRETS.whatsappVerifyToken}&hub.challenge=1158201444`,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const wrong = await hooks.inject({ method: 'GET', url: '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1' });
    expect(wrong.statusCode).toBe(403);
  });

  it('refuses a notification with a forged or missing signature with 401, and records nothing', async () => {
    const body = statuses('wamid.X', { status: 'delivered', timestamp: 1_800_000_000 });
    expect((await post(body, 'sha256=00')).statusCode).toBe(401);
    expect((await post(body, `sha256=${createHmac('sha256', 'other').update(JSON.stringify(body)).digest('hex')}`)).statusCode).toBe(401);
    const before = await t.store.jobs.count();
    const missing = await hooks.inject({
      method: 'POST',
      url: '/webhooks/whatsapp',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(missing.statusCode).toBe(401);
    expect(await t.store.jobs.count()).toBe(before);
  });

  it('applies statuses in the machine’s order whatever order they arrive in: read before delivered ends read', async () => {
    const account = await t.createAccount();
    const token = await t.tokenFor(account);
    await t.store.inbound.recordInbound(account.account.id, '+14155552671', t.clock.now());
    const sent = await t.call('POST', '/v1/whatsapp/session', token, { to: '+14155552671', message: 'Hello' });
    const id = sent.json().data.message_id as string;
    // Hand it to a stand-in provider that answers with a known wamid.
    t.providers.whatsapp = {
      name: 'cloud-stand-in',
      channel: 'whatsapp',
      send: async () => ({ ok: true, providerMessageId: 'wamid.ORDER' }),
    };
    await t.drain();
    // Meta's read arrives first; the delivered that happened before it comes late.
    const seconds = Math.floor(t.clock.now() / 1000);
    expect((await post(statuses('wamid.ORDER', { status: 'read', timestamp: seconds - 10 }))).statusCode).toBe(200);
    await t.drain();
    expect((await post(statuses('wamid.ORDER', { status: 'delivered', timestamp: seconds - 20 }))).statusCode).toBe(200);
    await t.drain();
    const message = (await t.call('GET', `/v1/messages/${id}`, await t.tokenFor(account))).json().data;
    expect(message.status).toBe('read');
    expect(message.status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'sent', 'read']);
    // Read implies delivered: dated by the read, not left empty (the late delivered changes nothing).
    const detail = (await t.call('GET', `/v1/whatsapp/${id}`, await t.tokenFor(account))).json().data;
    expect(detail).toMatchObject({ status: 'read', delivered_at: new Date((seconds - 10) * 1000).toISOString() });
  });

  it('fails a message on a failed status with the Cloud API error', async () => {
    const account = await t.createAccount();
    const token = await t.tokenFor(account);
    await t.store.inbound.recordInbound(account.account.id, '+14155552672', t.clock.now());
    const id = (await t.call('POST', '/v1/whatsapp/session', token, { to: '+14155552672', message: 'Hello' })).json().data
      .message_id as string;
    t.providers.whatsapp = {
      name: 'cloud-stand-in',
      channel: 'whatsapp',
      send: async () => ({ ok: true, providerMessageId: 'wamid.FAIL' }),
    };
    await t.drain();
    await post(
      statuses('wamid.FAIL', { status: 'failed', timestamp: 1_800_000_000, errors: [{ code: 131026, title: 'Message undeliverable' }] }),
    );
    await t.drain();
    const message = (await t.call('GET', `/v1/messages/${id}`, await t.tokenFor(account))).json().data;
    expect(message.status).toBe('failed');
    expect(message.error).toEqual({ code: 'WHATSAPP_131026', message: 'Message undeliverable' });
  });

  it('takes a notification with text no store can hold (U+0000, a lone surrogate) as Meta sent it, the characters replaced: Meta would resend a refusal forever', async () => {
    const account = await t.createAccount();
    const token = await t.tokenFor(account);
    await t.store.inbound.recordInbound(account.account.id, '+14155552673', t.clock.now());
    const id = (await t.call('POST', '/v1/whatsapp/session', token, { to: '+14155552673', message: 'Hello' })).json().data
      .message_id as string;
    t.providers.whatsapp = {
      name: 'cloud-stand-in',
      channel: 'whatsapp',
      send: async () => ({ ok: true, providerMessageId: 'wamid.NUL' }),
    };
    await t.drain();
    const answer = await post(
      statuses('wamid.NUL', { status: 'failed', timestamp: 1_800_000_000, errors: [{ code: 131026, title: 'Bad\u0000title \ud800' }] }),
    );
    expect(answer.statusCode).toBe(200);
    // An id with such a character names no message: nothing to apply, nothing fails.
    expect((await post(statuses('wamid.\u0000', { status: 'read', timestamp: 1_800_000_001 }))).statusCode).toBe(200);
    await t.drain();
    const message = (await t.call('GET', `/v1/messages/${id}`, token)).json().data;
    expect(message.status).toBe('failed');
    expect(message.error).toEqual({ code: 'WHATSAPP_131026', message: 'Bad\ufffdtitle \ufffd' });
  });

  it('opens the 24 h window for the accounts that wrote to the number when its owner writes back', async () => {
    const account = await t.createAccount();
    const stranger = await t.createAccount();
    const token = await t.tokenFor(account);
    // The account wrote to +14155552673 with a template; the stranger never did.
    await t.call('POST', '/v1/whatsapp/send', token, {
      to: '+14155552673',
      template: 'verification_code',
      language: 'en_US',
      components: [{ type: 'body', parameters: [{ type: 'text', text: '123456' }] }],
    });
    const now = Math.floor(t.clock.now() / 1000);
    const inbound = {
      entry: [
        {
          changes: [
            {
              field: 'messages',
              value: { messages: [{ from: '14155552673', id: 'wamid.IN', timestamp: String(now), type: 'text', text: { body: 'hi' } }] },
            },
          ],
        },
      ],
    };
    expect((await post(inbound)).statusCode).toBe(200);
    expect(await t.store.inbound.lastInboundAt(account.account.id, '+14155552673')).toBe(now * 1000);
    expect(await t.store.inbound.lastInboundAt(stranger.account.id, '+14155552673')).toBeUndefined();
    const session = await t.call('POST', '/v1/whatsapp/session', token, { to: '+14155552673', message: 'Thanks for writing' });
    expect(session.statusCode).toBe(200);
  });

  it('stores a customer’s first message to the account’s business number and opens the window for a reply (Meta allows it)', async () => {
    const account = await t.createAccount();
    const token = await t.tokenFor(account);
    await assignAddress(t.store, { accountId: account.account.id, channel: 'whatsapp', address: '+1 555 010 0001', at: t.clock.now() });
    const now = Math.floor(t.clock.now() / 1000);
    // The shape of a text message notification in Meta's "Webhooks: messages" reference: metadata
    // names the business number it was sent to, contacts the customer's profile.
    const notification = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550100001', phone_number_id: '106540352242922' },
                contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '14155552690' }],
                messages: [
                  { from: '14155552690', id: 'wamid.FIRST', timestamp: String(now), type: 'text', text: { body: 'Is my order shipped?' } },
                  {
                    from: '14155552690',
                    id: 'wamid.BUTTON',
                    timestamp: String(now),
                    type: 'interactive',
                    interactive: { type: 'button_reply', button_reply: { id: 'track', title: 'Track order' } },
                  },
                ],
              },
            },
          ],
        },
      ],
    };
    expect((await post(notification)).statusCode).toBe(200);
    // Meta sends a notification again when it is unsure: nothing is added.
    expect((await post(notification)).statusCode).toBe(200);
    const listed = (await t.call('GET', '/v1/messages?direction=inbound&channel=whatsapp', token)).json().data;
    expect(listed.pagination.total).toBe(2);
    const texts = listed.messages.map((m: { text: string; details: unknown }) => [m.text, m.details]);
    expect(texts).toEqual(
      expect.arrayContaining([
        ['Is my order shipped?', { type: 'text', profile_name: 'Sheena Nelson' }],
        ['Track order', { type: 'interactive', profile_name: 'Sheena Nelson', payload: 'track' }],
      ]),
    );
    expect(listed.messages[0]).toMatchObject({ from: '+14155552690', to: '+15550100001', direction: 'inbound' });
    const reply = await t.call('POST', '/v1/whatsapp/session', token, { to: '+14155552690', message: 'Yes, it left today.' });
    expect(reply.statusCode).toBe(200);
  });

  /** A notification of customer messages to the business number +1 555 010 0005. */
  const customerMessages = (...messages: unknown[]) => ({
    object: 'whatsapp_business_account',
    entry: [{ changes: [{ field: 'messages', value: { metadata: { display_phone_number: '15550100005' }, messages } }] }],
  });

  it('names the account’s own message a reply answers by Herald’s id (`in_reply_to`), the wamid in `context_id`', async () => {
    const account = await t.createAccount();
    const other = await t.createAccount();
    const token = await t.tokenFor(account);
    await assignAddress(t.store, { accountId: account.account.id, channel: 'whatsapp', address: '+1 555 010 0005', at: t.clock.now() });
    await t.store.inbound.recordInbound(account.account.id, '+14155552691', t.clock.now());
    await t.store.inbound.recordInbound(other.account.id, '+14155552691', t.clock.now());
    const ours = (await t.call('POST', '/v1/whatsapp/session', token, { to: '+14155552691', message: 'Shall we ship?' })).json().data
      .message_id as string;
    const theirs = (await t.call('POST', '/v1/whatsapp/session', await t.tokenFor(other), { to: '+14155552691', message: 'Other' })).json()
      .data.message_id as string;
    const wamids = new Map([
      [ours, 'wamid.OURS'],
      [theirs, 'wamid.THEIRS'],
    ]);
    t.providers.whatsapp = {
      name: 'cloud-stand-in',
      channel: 'whatsapp',
      send: async (message) => ({ ok: true, providerMessageId: wamids.get(message.id) ?? 'wamid.X' }),
    };
    await t.drain();
    const now = String(Math.floor(t.clock.now() / 1000));
    const answer = (id: string, context: string) => ({
      from: '14155552691',
      id,
      timestamp: now,
      type: 'text',
      text: { body: 'Yes' },
      context: { id: context },
    });
    const posted = await post(
      customerMessages(answer('wamid.R1', 'wamid.OURS'), answer('wamid.R2', 'wamid.THEIRS'), answer('wamid.R3', 'wamid.SENT_FROM_THE_APP')),
    );
    expect(posted.statusCode).toBe(200);
    const listed = (await t.call('GET', '/v1/messages?direction=inbound&channel=whatsapp', token)).json().data.messages;
    const details = Object.fromEntries(
      listed.map((m: { provider_message_id?: string; details: Record<string, unknown> }) => [m.details.context_id, m.details]),
    );
    expect(details['wamid.OURS']).toMatchObject({ in_reply_to: ours, context_id: 'wamid.OURS' });
    // Another account's message, or one Herald did not send, is named by its wamid alone.
    expect(details['wamid.THEIRS']).not.toHaveProperty('in_reply_to');
    expect(details['wamid.SENT_FROM_THE_APP']).not.toHaveProperty('in_reply_to');
  });

  it('skips (200) messages of another shape than the Cloud API documents and takes the rest; dates none in the future', async () => {
    const account = await t.createAccount();
    const token = await t.tokenFor(account);
    await assignAddress(t.store, { accountId: account.account.id, channel: 'whatsapp', address: '+1 555 010 0003', at: t.clock.now() });
    const now = Math.floor(t.clock.now() / 1000);
    const message = (id: string, extra: Record<string, unknown>) =>
      Object.assign({ from: '14155552692', id, timestamp: String(now), type: 'text', text: { body: id } }, extra);
    for (const body of [null, 5, 'x', [], { entry: 5 }, { entry: [null, 5, { changes: 'x' }, { changes: [null, { value: 5 }] }] }]) {
      expect((await post(body)).statusCode, JSON.stringify(body)).toBe(200);
    }
    const notification = {
      entry: [
        {
          changes: [
            {
              field: 'messages',
              value: {
                metadata: { display_phone_number: '15550100003' },
                messages: [
                  message('wamid.NUMBER', { text: { body: 123 } }),
                  message('wamid.OBJECT', { text: 'not an object' }),
                  message('wamid.CONTEXT', { context: { id: 7 } }),
                  message('wamid.GOOD', {}),
                  message('wamid.FUTURE', { timestamp: String(now + 10 * 86_400) }),
                ],
                statuses: [{ id: 5, status: 'read' }, null],
              },
            },
          ],
        },
      ],
    };
    expect((await post(notification)).statusCode).toBe(200);
    const listed = (await t.call('GET', '/v1/messages?direction=inbound&channel=whatsapp', token)).json().data.messages;
    expect(listed.map((m: { text: string }) => m.text).sort()).toEqual(['wamid.FUTURE', 'wamid.GOOD']);
    const future = listed.find((m: { text: string }) => m.text === 'wamid.FUTURE');
    expect(Date.parse(future.received_at)).toBeLessThanOrEqual(t.clock.now());
  });

  it('takes STOP on WhatsApp as an opt-out: the next template send is 422 RECIPIENT_SUPPRESSED', async () => {
    const account = await t.createAccount();
    const token = await t.tokenFor(account);
    await assignAddress(t.store, { accountId: account.account.id, channel: 'whatsapp', address: '+15550100002', at: t.clock.now() });
    const now = Math.floor(t.clock.now() / 1000);
    const stop = {
      entry: [
        {
          changes: [
            {
              field: 'messages',
              value: {
                metadata: { display_phone_number: '15550100002', phone_number_id: '106540352242923' },
                messages: [{ from: '14155552691', id: 'wamid.STOP', timestamp: String(now), type: 'text', text: { body: 'STOP' } }],
              },
            },
          ],
        },
      ],
    };
    expect((await post(stop)).statusCode).toBe(200);
    const send = await t.call('POST', '/v1/whatsapp/send', token, {
      to: '+14155552691',
      template: 'verification_code',
      language: 'en_US',
      components: [{ type: 'body', parameters: [{ type: 'text', text: '123456' }] }],
    });
    expect(send.statusCode).toBe(422);
    expect(send.json().error.code).toBe('RECIPIENT_SUPPRESSED');
  });

  it('on a business number no account has (the installation’s, shared), a reply is the account’s that wrote last; every writer gets the window', async () => {
    const first = await t.createAccount();
    const last = await t.createAccount();
    const template = {
      to: '+14155552693',
      template: 'verification_code',
      language: 'en_US',
      components: [{ type: 'body', parameters: [{ type: 'text', text: '1' }] }],
    };
    const firstToken = await t.tokenFor(first);
    const lastToken = await t.tokenFor(last);
    expect((await t.call('POST', '/v1/whatsapp/send', firstToken, template)).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await t.call('POST', '/v1/whatsapp/send', lastToken, template)).statusCode).toBe(200);
    const now = Math.floor(t.clock.now() / 1000);
    const reply = {
      entry: [
        {
          changes: [
            {
              field: 'messages',
              value: {
                metadata: { display_phone_number: '15550109999', phone_number_id: '106540352249999' },
                messages: [
                  { from: '14155552693', id: 'wamid.SHARED', timestamp: String(now), type: 'text', text: { body: 'Which order?' } },
                ],
              },
            },
          ],
        },
      ],
    };
    expect((await post(reply)).statusCode).toBe(200);
    const inboundOf = async (token: string) => (await t.call('GET', '/v1/messages?direction=inbound', token)).json().data.messages;
    expect((await inboundOf(lastToken)).map((m: { text: string }) => m.text)).toEqual(['Which order?']);
    expect(await inboundOf(firstToken)).toEqual([]);
    for (const token of [firstToken, lastToken]) {
      expect((await t.call('POST', '/v1/whatsapp/session', token, { to: '+14155552693', message: 'Happy to help' })).statusCode).toBe(200);
    }
  });
});
