import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { ALL_SCOPES } from '../../test/channels.js';
import { describeEachDialect } from '../../test/databases.js';
import { startReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';
import { recordInboundMessage } from '../channels/whatsapp/manage-templates.js';
import type { Scope } from '../core/scopes.js';

/**
 * The scope rules (docs/authentication.md, "Scopes") as a matrix: every /v1 operation of the OpenAPI document, called with a token holding
 * exactly one scope, for each scope. The allowed scopes get past authorization (a valid request:
 * 2xx, or the answer the domain gives); every other scope gets 403 INSUFFICIENT_SCOPE and changes
 * nothing.
 */
describeEachDialect('the scope matrix (docs/authentication.md, Scopes)', (dialect) => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let account: Awaited<ReturnType<TestApp['createAccount']>>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(dialect);
    receiver = await startReceiver(() => 500);
    account = await t.createAccount({ credits: 1_000 });
    const all = await t.tokenFor(account);
    const send = async (path: string, body: unknown) => {
      const response = await t.call('POST', path, all, body);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.message_id as string;
    };
    const later = new Date(t.clock.now() + 86_400_000).toISOString();
    ids.sms = await send('/v1/sms/send', { to: '+14155552671', message: 'matrix', scheduled_at: later });
    ids.whatsapp = await send('/v1/whatsapp/send', {
      to: '+14155552672',
      template: 'verification_code',
      language: 'en_US',
      components: [{ type: 'body', parameters: [{ type: 'text', text: '1' }] }],
    });
    ids.email = await send('/v1/email/send', { to: 'a@example.com', from: 'b@acme.example', subject: 'm', text: 'm' });
    ids.telegram = await send('/v1/telegram/send', { chat_id: '4242', message: 'matrix' });
    // The recipient wrote in, so the session window is open for POST /v1/whatsapp/session.
    await recordInboundMessage({ store: t.store, clock: t.clock, prices: t.dispatch.prices }, account.account.id, '+14155552672');
    const webhook = await t.call('POST', '/v1/webhooks', all, { url: `${receiver.url}/m`, events: ['*'] });
    ids.webhook = webhook.json().data.webhook_id;
    await t.call('POST', `/v1/webhooks/${ids.webhook}/test`, all);
    await t.drain();
    ids.delivery = (await t.call('GET', `/v1/webhooks/${ids.webhook}/deliveries`, all)).json().data.deliveries[0].delivery_id;
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  /** A valid request for each operation, and the scopes that let it through. */
  const cases = (): Array<{ operation: string; url: string; body?: unknown; allowed: Scope[] }> => [
    { operation: 'POST /v1/sms/send', url: '/v1/sms/send', body: { to: '+14155552671', message: 'm' }, allowed: ['sms:send'] },
    { operation: 'POST /v1/sms/bulk', url: '/v1/sms/bulk', body: { recipients: ['+14155552671'], message: 'm' }, allowed: ['sms:send'] },
    { operation: 'POST /v1/sms/preview', url: '/v1/sms/preview', body: { to: '+14155552671', message: 'm' }, allowed: ['sms:send'] },
    { operation: 'GET /v1/sms/{message_id}', url: `/v1/sms/${ids.sms}`, allowed: ['sms:read'] },
    {
      operation: 'POST /v1/whatsapp/send',
      url: '/v1/whatsapp/send',
      body: {
        to: '+14155552672',
        template: 'verification_code',
        language: 'en_US',
        components: [{ type: 'body', parameters: [{ type: 'text', text: '1' }] }],
      },
      allowed: ['whatsapp:send'],
    },
    {
      operation: 'POST /v1/whatsapp/session',
      url: '/v1/whatsapp/session',
      body: { to: '+14155552672', message: 'm' },
      allowed: ['whatsapp:send'],
    },
    {
      operation: 'POST /v1/whatsapp/preview',
      url: '/v1/whatsapp/preview',
      body: { to: '+14155552672', message: 'm' },
      allowed: ['whatsapp:send'],
    },
    { operation: 'GET /v1/whatsapp/templates', url: '/v1/whatsapp/templates', allowed: ['whatsapp:read'] },
    { operation: 'GET /v1/whatsapp/{message_id}', url: `/v1/whatsapp/${ids.whatsapp}`, allowed: ['whatsapp:read'] },
    {
      operation: 'POST /v1/email/send',
      url: '/v1/email/send',
      body: { to: 'a@example.com', from: 'b@acme.example', subject: 's', text: 't' },
      allowed: ['email:send'],
    },
    {
      operation: 'POST /v1/email/preview',
      url: '/v1/email/preview',
      body: { to: 'a@example.com', from: 'b@acme.example', subject: 's', text: 't' },
      allowed: ['email:send'],
    },
    { operation: 'GET /v1/email/{message_id}', url: `/v1/email/${ids.email}`, allowed: ['email:read'] },
    { operation: 'GET /v1/email/{message_id}/events', url: `/v1/email/${ids.email}/events`, allowed: ['email:read'] },
    { operation: 'POST /v1/telegram/send', url: '/v1/telegram/send', body: { chat_id: '4242', message: 'm' }, allowed: ['telegram:send'] },
    {
      operation: 'POST /v1/telegram/photo',
      url: '/v1/telegram/photo',
      body: { chat_id: '4242', photo_url: 'https://example.com/p.jpg' },
      allowed: ['telegram:send'],
    },
    {
      operation: 'POST /v1/telegram/preview',
      url: '/v1/telegram/preview',
      body: { chat_id: '4242', message: 'm' },
      allowed: ['telegram:send'],
    },
    {
      operation: 'POST /v1/telegram/photo/preview',
      url: '/v1/telegram/photo/preview',
      body: { chat_id: '4242', photo_url: 'https://example.com/p.jpg' },
      allowed: ['telegram:send'],
    },
    { operation: 'GET /v1/telegram/{message_id}', url: `/v1/telegram/${ids.telegram}`, allowed: ['telegram:read'] },
    ...(['sms', 'whatsapp', 'email', 'telegram'] as const).flatMap((channel) => [
      { operation: 'GET /v1/messages/{message_id}', url: `/v1/messages/${ids[channel]}`, allowed: [`${channel}:read` as Scope] },
    ]),
    // The scheduled SMS: still cancelable, so the allowed call succeeds.
    { operation: 'POST /v1/messages/{message_id}/cancel', url: `/v1/messages/${ids.sms}/cancel`, allowed: ['sms:send'] },
    { operation: 'GET /v1/messages', url: '/v1/messages', allowed: ['sms:read', 'whatsapp:read', 'email:read', 'telegram:read'] },
    { operation: 'GET /v1/account', url: '/v1/account', allowed: ['account:read'] },
    { operation: 'GET /v1/account/balance', url: '/v1/account/balance', allowed: ['account:read'] },
    // Any valid token may describe itself.
    { operation: 'GET /v1/token', url: '/v1/token', allowed: [...ALL_SCOPES] },
    {
      operation: 'POST /v1/webhooks',
      url: '/v1/webhooks',
      body: { url: `${receiver.url}/n`, events: ['message.sent'] },
      allowed: ['webhooks:manage'],
    },
    { operation: 'GET /v1/webhooks', url: '/v1/webhooks', allowed: ['webhooks:manage'] },
    { operation: 'GET /v1/webhooks/secret', url: '/v1/webhooks/secret', allowed: ['webhooks:manage'] },
    { operation: 'POST /v1/webhooks/secret/rotate', url: '/v1/webhooks/secret/rotate', allowed: ['webhooks:manage'] },
    { operation: 'GET /v1/webhooks/{webhook_id}', url: `/v1/webhooks/${ids.webhook}`, allowed: ['webhooks:manage'] },
    { operation: 'POST /v1/webhooks/{webhook_id}/enable', url: `/v1/webhooks/${ids.webhook}/enable`, allowed: ['webhooks:manage'] },
    { operation: 'GET /v1/webhooks/{webhook_id}/deliveries', url: `/v1/webhooks/${ids.webhook}/deliveries`, allowed: ['webhooks:manage'] },
    {
      operation: 'POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/replay',
      url: `/v1/webhooks/${ids.webhook}/deliveries/${ids.delivery}/replay`,
      allowed: ['webhooks:manage'],
    },
    {
      operation: 'POST /v1/webhooks/{webhook_id}/replay',
      url: `/v1/webhooks/${ids.webhook}/replay?since=2020-01-01T00:00:00Z`,
      allowed: ['webhooks:manage'],
    },
    { operation: 'POST /v1/webhooks/{webhook_id}/test', url: `/v1/webhooks/${ids.webhook}/test`, allowed: ['webhooks:manage'] },
    {
      operation: 'POST /v1/suppressions',
      url: '/v1/suppressions',
      body: { channel: 'sms', recipient: '+14155550999' },
      allowed: ['suppressions:manage'],
    },
    { operation: 'GET /v1/suppressions', url: '/v1/suppressions', allowed: ['suppressions:manage'] },
    // The entry the POST above added (refused scopes first: they leave it there for the allowed DELETE).
    {
      operation: 'DELETE /v1/suppressions/{channel}/{recipient}',
      url: '/v1/suppressions/sms/%2B14155550999',
      allowed: ['suppressions:manage'],
    },
    { operation: 'GET /v1/keyword-replies', url: '/v1/keyword-replies', allowed: ['suppressions:manage'] },
    {
      operation: 'PUT /v1/keyword-replies/{language}',
      url: '/v1/keyword-replies/en',
      body: { stop_reply: 'Unsubscribed.', start_reply: 'Welcome back.' },
      allowed: ['suppressions:manage'],
    },
    {
      operation: 'POST /v1/sandbox/inbound',
      url: '/v1/sandbox/inbound',
      body: { channel: 'sms', from: '+14155552671', text: 'Yes' },
      allowed: ['sms:send'],
    },
    // Last: it deletes the webhook the others use.
    { operation: 'DELETE /v1/webhooks/{webhook_id}', url: `/v1/webhooks/${ids.webhook}`, allowed: ['webhooks:manage'] },
  ];

  it('covers every /v1 operation of the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/v1'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect([...new Set(cases().map((c) => c.operation))].sort()).toEqual(documented.sort());
  });

  it('lets each operation through for its scopes only; every other single scope gets 403 INSUFFICIENT_SCOPE', async () => {
    const tokens = new Map<Scope, string>();
    for (const scope of ALL_SCOPES) tokens.set(scope, await t.tokenFor(account, scope));
    let refused = 0;
    for (const { operation, url, body, allowed } of cases()) {
      const method = operation.split(' ')[0] as 'GET' | 'POST' | 'PUT' | 'DELETE';
      const withBody = method === 'POST' || method === 'PUT';
      // Refused scopes first: they must change nothing the allowed call then relies on.
      const order = [...ALL_SCOPES.filter((s) => !allowed.includes(s)), ...allowed];
      for (const scope of order) {
        const response = await t.app.inject({
          method,
          url,
          headers: {
            authorization: `Bearer ${tokens.get(scope)}`,
            ...(withBody ? { 'content-type': 'application/json' } : {}),
          },
          ...(withBody ? { payload: JSON.stringify(body ?? {}) } : {}),
        });
        const label = `${operation} (${url}) with ${scope}: ${response.statusCode} ${response.body.slice(0, 200)}`;
        if (allowed.includes(scope)) {
          expect(response.statusCode, label).toBeLessThan(300);
        } else {
          expect(response.statusCode, label).toBe(403);
          expect(response.json().error.code, label).toBe('INSUFFICIENT_SCOPE');
          refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(200);
  });

  it('a channel filter outside the token’s read scopes is 403 on the message list', async () => {
    const token = await t.tokenFor(account, 'sms:read');
    expect((await t.call('GET', '/v1/messages?channel=sms', token)).statusCode).toBe(200);
    const outside = await t.call('GET', '/v1/messages?channel=email', token);
    expect(outside.statusCode).toBe(403);
    expect(outside.json().error.code).toBe('INSUFFICIENT_SCOPE');
  });
});
