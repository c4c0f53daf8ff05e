import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import { startReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';
import { assignAddress } from '../core/inbound/addresses.js';

type Operation = { method: string; path: string; query: string };
type Parameter = { in: string; name: string; required?: boolean; schema?: { format?: string } };

/**
 * Account A walks every route of the OpenAPI document that names a resource by id, with the ids of
 * account B's resources: every answer must be 404 (never 403, never B's data), nothing of B's may
 * change, and no list of A's may show a row of B's.
 */
describeEachDialect('tenant isolation: every id-bearing route, with another account’s ids', (dialect) => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let tokenA: string;
  let tokenB: string;
  const idsOfB: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(dialect);
    receiver = await startReceiver(() => 500);
    const a = await t.createAccount({ credits: 100 });
    const b = await t.createAccount({ credits: 100 });
    tokenA = await t.tokenFor(a);
    tokenB = await t.tokenFor(b);
    const sendAsB = async (path: string, body: unknown) => {
      const response = await t.call('POST', path, tokenB, body);
      expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
      return response.json().data.message_id as string;
    };
    // B registers a webhook, then sends one message per channel; the receiver fails, so deliveries stay.
    const webhook = await t.call('POST', '/v1/webhooks', tokenB, { url: `${receiver.url}/b`, events: ['*'] });
    expect(webhook.statusCode).toBe(201);
    idsOfB.webhook = webhook.json().data.webhook_id;
    idsOfB.sms = await sendAsB('/v1/sms/send', {
      to: '+14155552671',
      message: 'B only',
      scheduled_at: new Date(t.clock.now() + 86_400_000).toISOString(),
    });
    idsOfB.whatsapp = await sendAsB('/v1/whatsapp/send', {
      to: '+14155552672',
      template: 'verification_code',
      language: 'en_US',
      components: [{ type: 'body', parameters: [{ type: 'text', text: '123456' }] }],
    });
    idsOfB.telegram = await sendAsB('/v1/telegram/send', { chat_id: '4242', message: 'B only' });
    idsOfB.email = await sendAsB('/v1/email/send', { to: 'b@example.com', from: 'b@acme.example', subject: 'B', text: 'B only' });
    // A recipient wrote to B: A must not read B's received message.
    await assignAddress(t.store, { accountId: b.account.id, channel: 'sms', address: '+14155550998', at: t.clock.now() });
    const received = await t.receive({
      channel: 'sms',
      from: '+14155552673',
      to: '+14155550998',
      text: 'for B',
      receivedAt: t.clock.now(),
    });
    idsOfB.inbound = received.outcome === 'stored' ? received.message.id : '';
    // B suppresses a recipient: A's DELETE of it must not find it.
    expect((await t.call('POST', '/v1/suppressions', tokenB, { channel: 'sms', recipient: '+14155550999' })).statusCode).toBe(201);
    await t.drain();
    const deliveries = await t.call('GET', `/v1/webhooks/${idsOfB.webhook}/deliveries`, tokenB);
    idsOfB.delivery = deliveries.json().data.deliveries[0]?.delivery_id;
    expect(idsOfB.delivery).toMatch(/^whd_/);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const operations = async (): Promise<Operation[]> => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    return (
      Object.entries(document.paths as Record<string, Record<string, { parameters?: Parameter[] }>>)
        // A language is no account's resource: each account sets its own keyword replies.
        .filter(([path]) => path.includes('{') && !path.startsWith('/v1/keyword-replies/'))
        .flatMap(([path, item]) =>
          Object.entries(item).map(([method, operation]) => {
            // Required query parameters get a valid value, so the request is judged on its ids alone.
            const query = (operation.parameters ?? [])
              .filter((p) => p.in === 'query' && p.required)
              .map((p) => `${p.name}=${encodeURIComponent(p.schema?.format?.includes('date') ? '2020-01-01T00:00:00Z' : 'x')}`)
              .join('&');
            return { method: method.toUpperCase(), path, query: query ? `?${query}` : '' };
          }),
        )
    );
  };

  /** Every way to fill a path's ids with B's: a channel route takes B's message of that channel. */
  const fillings = (path: string): string[] => {
    const channel = /^\/v1\/(sms|whatsapp|telegram|email)\//.exec(path)?.[1];
    const messages = channel
      ? [idsOfB[channel] as string]
      : ['sms', 'whatsapp', 'telegram', 'email', 'inbound'].map((c) => idsOfB[c] as string);
    return messages.map((messageId) =>
      path
        .replace('{message_id}', messageId)
        .replace('{webhook_id}', idsOfB.webhook as string)
        .replace('{delivery_id}', idsOfB.delivery as string)
        .replace('{channel}', 'sms')
        .replace('{recipient}', '%2B14155550999'),
    );
  };

  it('answers 404 to account A on every one of them, for each of B’s ids', async () => {
    const walked = await operations();
    // The walk covers every id-bearing route there is (a new one joins it by being documented).
    expect(walked.map((o) => `${o.method} ${o.path}`).sort()).toEqual(
      [
        'DELETE /v1/webhooks/{webhook_id}',
        'DELETE /v1/suppressions/{channel}/{recipient}',
        'GET /v1/email/{message_id}',
        'GET /v1/email/{message_id}/events',
        'GET /v1/messages/{message_id}',
        'GET /v1/sms/{message_id}',
        'GET /v1/telegram/{message_id}',
        'GET /v1/webhooks/{webhook_id}',
        'GET /v1/webhooks/{webhook_id}/deliveries',
        'GET /v1/whatsapp/{message_id}',
        'POST /v1/messages/{message_id}/cancel',
        'POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/replay',
        'POST /v1/webhooks/{webhook_id}/enable',
        'POST /v1/webhooks/{webhook_id}/replay',
        'POST /v1/webhooks/{webhook_id}/test',
      ].sort(),
    );
    let calls = 0;
    for (const { method, path, query } of walked) {
      for (const url of fillings(path).map((filled) => `${filled}${query}`)) {
        const response = await t.app.inject({
          method: method as 'GET' | 'POST' | 'DELETE',
          url,
          headers: { authorization: `Bearer ${tokenA}`, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
          ...(method === 'POST' ? { payload: '{}' } : {}),
        });
        calls++;
        expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(404);
        expect(response.json(), `${method} ${url}`).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
        for (const id of Object.values(idsOfB)) expect(response.body, `${method} ${url} leaks ${id}`).not.toContain(id);
      }
    }
    expect(calls).toBeGreaterThanOrEqual(16);
  });

  it('changed nothing of B’s: the webhook is there, the scheduled SMS still queued, no delivery replayed', async () => {
    expect((await t.call('GET', `/v1/webhooks/${idsOfB.webhook}`, tokenB)).statusCode).toBe(200);
    expect((await t.call('GET', '/v1/suppressions', tokenB)).json().data.suppressions).toHaveLength(1);
    expect((await t.call('GET', `/v1/messages/${idsOfB.sms}`, tokenB)).json().data.status).toBe('queued');
    const deliveries = (await t.call('GET', `/v1/webhooks/${idsOfB.webhook}/deliveries`, tokenB)).json().data.deliveries as Array<{
      attempts: number;
    }>;
    expect(deliveries.every((d) => d.attempts === 1)).toBe(true);
  });

  it('shows A none of B’s rows in any list', async () => {
    const lists = ['/v1/messages', '/v1/messages?channel=sms', '/v1/messages?status=queued', '/v1/webhooks', '/v1/whatsapp/templates'];
    for (const url of lists) {
      const response = await t.call('GET', url, tokenA);
      expect(response.statusCode, url).toBe(200);
      for (const id of Object.values(idsOfB)) expect(response.body, `${url} shows ${id}`).not.toContain(id);
    }
    expect((await t.call('GET', '/v1/messages', tokenA)).json().data.pagination.total).toBe(0);
    expect((await t.call('GET', '/v1/webhooks', tokenA)).json().data.webhooks ?? []).toEqual([]);
  });
});
