import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocateDatabase, type TestDatabaseLocation } from '../../test/databases.js';
import { freePort } from '../../test/ports.js';
import { type HeraldServer, heraldEnv, killLeftoverProcesses, type ProcessEnv, runCliOk, startServer } from '../../test/process.js';
import { startReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';
import { Herald, HeraldError, isHeraldError, verifyWebhook, type WebhookEvent } from '../src/index.js';

/**
 * The SDK against a real `herald serve` (SQLite) started here: every call, tokens cached and
 * renewed, retries that never send twice (a 429 storm, a server restarted mid-call), typed errors,
 * and webhook verification of real deliveries.
 */
describe('the TypeScript SDK against a running Herald', () => {
  let location: TestDatabaseLocation;
  let env: ProcessEnv;
  let server: HeraldServer;
  let receiver: WebhookReceiver;
  let port: number;
  let credentials: { clientId: string; clientSecret: string };
  /** Token requests and API requests that went over the wire, by path. */
  const wire: string[] = [];
  const counting: typeof fetch = (input, init) => {
    wire.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
    return fetch(input, init);
  };
  const client = (extra: Partial<ConstructorParameters<typeof Herald>[0]> = {}) =>
    new Herald({ baseUrl: `http://127.0.0.1:${port}`, ...credentials, fetch: counting, ...extra });
  const tokenRequests = () => wire.filter((w) => w === 'POST /oauth/token').length;
  /** The messages the account holds, as the store counts them (the list's total). */
  const messagesInStore = async () => (await client({ maxRetries: 20 }).messages.page({ limit: 1 })).pagination.total;

  beforeAll(async () => {
    receiver = await startReceiver(() => 204);
    location = allocateDatabase('sqlite');
    port = await freePort();
    // A small rate limit (10 a second, bursts of 10): a storm of sends meets 429s.
    env = heraldEnv(location, {
      SANDBOX_DELAY_MS: '0',
      WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
      RATE_LIMIT_DEVELOPER: '10:10',
      // Tokens that live 8 s: the client renews them (halfway, as the margin is longer) while the suite runs.
      ACCESS_TOKEN_TTL_SECONDS: '8',
    });
    server = await startServer({ ...env, DEMO_ACCOUNT: 'false' }, { port });
    const created = JSON.parse(
      (await runCliOk(['accounts', 'create', '--name', 'SDK', '--email', 'sdk@example.com', '--credits', '1000', '--json'], env)).stdout,
    );
    credentials = { clientId: created.client_id, clientSecret: created.client_secret };
  });
  afterAll(async () => {
    try {
      if (server) expect(await server.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await receiver?.close();
      await killLeftoverProcesses();
      await location?.drop();
    }
  });

  it('sends an SMS, reads it back through its channel and through messages, lists and cancels', async () => {
    const herald = client();
    const sent = await herald.sms.send({ to: '+14155552671', message: 'Your code is 123456' });
    expect(sent).toMatchObject({ to: '+14155552671', status: 'queued', segments: 1 });
    expect((await herald.sms.get(sent.message_id)).message).toBe('Your code is 123456');
    expect((await herald.messages.get(sent.message_id)).message_id).toBe(sent.message_id);
    const later = await herald.sms.send({
      to: '+14155552672',
      message: 'later',
      scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect((await herald.messages.cancel(later.message_id)).status).toBe('canceled');
    const listed: string[] = [];
    for await (const message of herald.messages.list({ channel: 'sms', limit: 1 })) listed.push(message.message_id);
    expect(listed).toEqual(expect.arrayContaining([sent.message_id, later.message_id]));
    expect(await herald.account.get()).toMatchObject({ name: 'SDK', plan: 'developer' });
    expect((await herald.account.balance()).credits).toBeGreaterThan(0);
  });

  it('sends in bulk, with invalid numbers listed in rejected', async () => {
    const result = await client().sms.bulk({ recipients: ['+14155550001', 'not-a-number', '+14155550002'], message: 'hello all' });
    expect(result.messages.map((m) => m.to)).toEqual(['+14155550001', '+14155550002']);
    expect(result.rejected).toEqual([expect.objectContaining({ to: 'not-a-number' })]);
  });

  it('previews a text before sending it: segments, UCS-2 characters and cost agree with the send', async () => {
    const herald = client();
    const message = `It’s ready ${'x'.repeat(70)}`;
    const preview = await herald.sms.preview({ recipients: ['+14155550003', 'nope'], message });
    expect(preview).toMatchObject({ encoding: 'UCS-2', segments: 2, recipients: 1, non_gsm_characters: [{ character: '’', position: 2 }] });
    expect(preview.rejected.map((r) => r.to)).toEqual(['nope']);
    const sent = await herald.sms.bulk({ recipients: ['+14155550003', 'nope'], message });
    expect({ segments: sent.segments, credits: sent.credits_used }).toEqual({ segments: preview.segments, credits: preview.credits });
  });

  it('reaches the other channels and the webhook calls', async () => {
    const herald = client();
    const email = await herald.email.send({ from: 'shop@example.com', to: 'ana@example.com', subject: 'Hi', text: 'Hello' });
    expect((await herald.email.get(email.message_id)).subject).toBe('Hi');
    expect(Array.isArray((await herald.email.events(email.message_id)).events)).toBe(true);
    const telegram = await herald.telegram.send({ chat_id: '123456', message: 'hi' });
    expect((await herald.telegram.get(telegram.message_id)).message_id).toBe(telegram.message_id);
    expect((await herald.telegram.sendPhoto({ chat_id: '123456', photo_url: 'https://example.com/a.png' })).message_id).toMatch(
      /^msg_telegram_/,
    );
    expect(Array.isArray((await herald.whatsapp.templates()).templates)).toBe(true);
    const named = (await herald.whatsapp.templates({ name: 'verification_code' })).templates;
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((template) => template.name === 'verification_code')).toBe(true);
    const webhook = await herald.webhooks.create({ url: `${receiver.url}/hooks`, events: ['message.delivered'] });
    expect((await herald.webhooks.get(webhook.webhook_id)).url).toBe(`${receiver.url}/hooks`);
    expect((await herald.webhooks.list()).webhooks.map((w) => w.webhook_id)).toContain(webhook.webhook_id);
    const test = await herald.webhooks.test(webhook.webhook_id);
    expect(test.event_type).toBe('webhook.test');
    expect((await herald.webhooks.deliveries(webhook.webhook_id)).deliveries.length).toBeGreaterThan(0);
    expect((await herald.webhooks.secret()).secret).toMatch(/^whsec_/);
    // The failed deliveries since a moment, queued again (none failed here).
    expect(await herald.webhooks.replayFailed(webhook.webhook_id, { since: '2026-01-01T00:00:00Z' })).toMatchObject({ queued: 0 });
    await herald.webhooks.delete(webhook.webhook_id);
    await expect(herald.webhooks.get(webhook.webhook_id)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('manages the suppression list: a suppressed recipient is refused with RECIPIENT_SUPPRESSED until removed', async () => {
    const herald = client();
    const added = await herald.suppressions.add({ channel: 'sms', recipient: '+14155550777', reason: 'opt_out' });
    expect(added).toMatchObject({ channel: 'sms', recipient: '+14155550777', reason: 'opt_out', source: 'api' });
    const refused = await herald.sms.send({ to: '+14155550777', message: 'hi' }).catch((e: unknown) => e);
    expect(isHeraldError(refused, 'RECIPIENT_SUPPRESSED')).toBe(true);
    const listed: string[] = [];
    for await (const entry of herald.suppressions.list({ channel: 'sms', limit: 1 })) listed.push(entry.recipient);
    expect(listed).toContain('+14155550777');
    await herald.suppressions.remove('sms', '+14155550777');
    expect((await herald.sms.send({ to: '+14155550777', message: 'welcome back' })).status).toBe('queued');
    await expect(herald.suppressions.remove('sms', '+14155550777')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('reads what recipients wrote (the sandbox makes one up) and sets the STOP confirmation', async () => {
    const herald = client();
    const made = await herald.sandbox.receive({ channel: 'sms', from: '+14155550778', text: 'Yes please' });
    expect(made).toMatchObject({ direction: 'inbound', channel: 'sms', from: '+14155550778', text: 'Yes please' });
    const received: string[] = [];
    for await (const message of herald.messages.received({ channel: 'sms' })) received.push(message.message_id);
    expect(received).toContain(made.message_id);
    expect(await herald.messages.get(made.message_id)).toMatchObject({ direction: 'inbound', text: 'Yes please' });
    const set = await herald.keywordReplies.set('en', { stop_reply: 'Bye from the SDK test.', start_reply: '' });
    expect(set).toMatchObject({ language: 'en', stop_reply: 'Bye from the SDK test.', start_reply: '', custom: true });
    expect((await herald.keywordReplies.list()).languages.find((l) => l.language === 'en')?.custom).toBe(true);
  });

  it('throws HeraldError with the code, details and request id of an error answer', async () => {
    const error = await client()
      .sms.send({ to: '12', message: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HeraldError);
    expect(isHeraldError(error, 'INVALID_PHONE')).toBe(true);
    expect(error).toMatchObject({ status: 422, code: 'INVALID_PHONE', details: [{ field: 'to' }], requestId: expect.any(String) });
    const wrong = new Herald({ baseUrl: `http://127.0.0.1:${port}`, clientId: credentials.clientId, clientSecret: 'hsec_wrong' });
    await expect(wrong.account.get()).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('fetches one token for 50 concurrent calls, and renews it once after a 401', async () => {
    const herald = client();
    const start = wire.length;
    await Promise.all(Array.from({ length: 50 }, () => herald.account.get({}).catch(() => undefined)));
    // Until each of the 50 has made its first request, one token request was made. (Counting after all
    // of them would count a renewal too: at 10 calls a second, the last ones outlive the 8 s token's halfway point.)
    const since = wire.slice(start);
    let seen = 0;
    const fiftieth = since.findIndex((entry) => entry === 'GET /v1/account' && ++seen === 50);
    expect(fiftieth).toBeGreaterThan(0);
    expect(since.slice(0, fiftieth).filter((entry) => entry === 'POST /oauth/token')).toHaveLength(1);
    // The server stops honouring the token (its signing key rotated, the client revoked...): one renewal.
    const broken: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      if (headers.get('authorization')?.startsWith('Bearer ') && !wire.includes('401 seen')) {
        wire.push('401 seen');
        headers.set('authorization', 'Bearer not-a-token');
      }
      return counting(input, { ...init, headers });
    };
    const renewing = client({ fetch: broken });
    // The 50 calls emptied the rate limit's bucket (10 a second): let it fill, so no 429 wait stretches this call past its token's renewal point.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const beforeRenewing = tokenRequests();
    await renewing.account.get();
    const afterFirst = tokenRequests();
    // Its first token, then exactly one more after the 401 (a client retrying with the old token would make one).
    expect(afterFirst - beforeRenewing).toBe(2);
    expect((await renewing.account.balance()).credits).toBeGreaterThan(0);
    expect(tokenRequests()).toBe(afterFirst);
  });

  it('renews its token across an expiry: 50 concurrent calls after it make one token request', async () => {
    const herald = client({ maxRetries: 20 }); // 50 calls at once meet the rate limit too
    await herald.account.get();
    // Past the renewal point (half of the 8 s life): every waiting call shares one renewal.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    const start = wire.length;
    const balances = await Promise.all(Array.from({ length: 50 }, () => herald.account.balance().catch((e: unknown) => e)));
    expect(balances.filter((b) => b instanceof Error)).toEqual([]);
    // Before the 50 calls' first attempts went out, one token request; their retries past the
    // rate limit may take long enough to renew again, later.
    const sent = wire.slice(start);
    let attempts = 0;
    const firstAttempts = sent.findIndex((w) => w === 'GET /v1/account/balance' && ++attempts === 50);
    expect(sent.slice(0, firstAttempts).filter((w) => w === 'POST /oauth/token')).toHaveLength(1);
  }, 30_000);

  it('retries a storm of 429s to exactly one message per call', async () => {
    const herald = client({ maxRetries: 20 });
    const before = await messagesInStore();
    const sends = 40;
    const started = wire.length;
    const results = await Promise.all(
      Array.from({ length: sends }, (_, i) => herald.sms.send({ to: `+1415555${5000 + i}`, message: `storm ${i}` })),
    );
    expect(new Set(results.map((r) => r.message_id)).size).toBe(sends);
    const attempts = wire.slice(started).filter((w) => w === 'POST /v1/sms/send').length;
    expect(attempts).toBeGreaterThan(sends); // some were refused (429) and retried
    expect((await messagesInStore()) - before).toBe(sends);
  }, 60_000);

  it('retries calls across a server killed mid-call and restarted: each message is stored once', async () => {
    // Retries enough to outlast the claim a killed node held on a key (it lapses after 10 s).
    const herald = client({ maxRetries: 25, timeoutMs: 5_000 });
    await herald.account.get(); // a token already held: the calls go straight to the API
    const before = await messagesInStore();
    const sends = 20;
    // Some requests are answered, some stored but never answered, some never read: the kill takes
    // them mid-flight. Each call retries under its Idempotency-Key until the server is back.
    const calls = Array.from({ length: sends }, (_, i) => herald.sms.send({ to: `+1415556${1000 + i}`, message: `restart ${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 15));
    await server.kill();
    server = await startServer({ ...env, DEMO_ACCOUNT: 'false' }, { port });
    const results = await Promise.all(calls);
    expect(new Set(results.map((r) => r.message_id)).size).toBe(sends);
    expect((await messagesInStore()) - before).toBe(sends);
  }, 90_000);

  /** Runs an example as a user would (`npx tsx sdk/examples/NAME.ts`), against this server. */
  const example = async (name: string, args: string[] = []) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(`../examples/${name}`, import.meta.url)), ...args], {
      env: {
        ...process.env,
        HERALD_URL: `http://127.0.0.1:${port}`,
        HERALD_CLIENT_ID: credentials.clientId,
        HERALD_CLIENT_SECRET: credentials.clientSecret,
      },
      timeout: 45_000,
    });

  it('runs the examples: send and wait for delivery, a verifying webhook receiver, bulk with rejects', async () => {
    const waited = await example('send-and-wait.ts', ['+14155557777']);
    expect(waited.stdout).toMatch(/^msg_sms_\w+ queued .*\n(msg_sms_\w+ sent\n)?msg_sms_\w+ delivered\n$/);
    const received = await example('webhook-receiver.ts');
    // Deliveries may arrive out of order: message.sent can come after message.delivered, which ends the example.
    expect(received.stdout).toMatch(/^listening on \d+; sent msg_sms_\w+\n/);
    expect(received.stdout).toMatch(/evt_\w+ message\.delivered\n/);
    expect(received.stderr).toBe('');
    const bulk = await example('bulk.ts');
    expect(bulk.stdout).toMatch(/: 2 queued\n/);
    expect(bulk.stdout).toContain('rejected not-a-number: INVALID_PHONE');
  }, 120_000);

  it('verifies real webhook deliveries, refuses a tampered body, and accepts either secret during a rotation', async () => {
    const herald = client();
    const { secret } = await herald.webhooks.secret();
    const before = receiver.received.length;
    const sent = await herald.sms.send({ to: '+14155551234', message: 'hook me', callback_url: `${receiver.url}/cb` });
    await receiver.waitFor(before + 2, 20_000); // message.sent and message.delivered
    const deliveries = receiver.received.slice(before).filter((r) => r.path === '/cb');
    const events: WebhookEvent[] = [];
    for (const delivery of deliveries) events.push(await verifyWebhook(delivery.body, delivery.headers, secret));
    expect(events.map((e) => e.type).sort()).toEqual(['message.delivered', 'message.sent']);
    expect(events.every((e) => e.type !== 'webhook.test' && 'message_id' in e.data && e.data.message_id === sent.message_id)).toBe(true);

    const [first] = deliveries;
    if (!first) throw new Error('no delivery');
    await expect(verifyWebhook(first.body.replace(/}$/, ',"tampered":true}'), first.headers, secret)).rejects.toMatchObject({
      code: 'WEBHOOK_SIGNATURE_INVALID',
    });
    await expect(
      verifyWebhook(first.body, first.headers, secret, { nowSeconds: Math.floor(Date.now() / 1000) + 3600 }),
    ).rejects.toMatchObject({
      code: 'WEBHOOK_SIGNATURE_INVALID',
    });
    // Each scheme alone is enough: X-Service-Signature without the Standard Webhooks headers.
    const { 'webhook-signature': _s, 'webhook-id': _i, ...serviceOnly } = first.headers;
    expect((await verifyWebhook(first.body, serviceOnly as Record<string, string>, secret)).id).toBeDefined();

    // Rotated: deliveries are signed by both secrets for a while; a receiver holding either verifies them.
    const rotated = await herald.webhooks.rotateSecret();
    const mark = receiver.received.length;
    await herald.sms.send({ to: '+14155551235', message: 'after rotation', callback_url: `${receiver.url}/cb` });
    await receiver.waitFor(mark + 1, 20_000);
    const after = receiver.received[mark];
    if (!after) throw new Error('no delivery after the rotation');
    await expect(verifyWebhook(after.body, after.headers, rotated.secret)).resolves.toBeDefined();
    await expect(verifyWebhook(after.body, after.headers, secret)).resolves.toBeDefined();
    await expect(verifyWebhook(after.body, after.headers, 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=')).rejects.toBeInstanceOf(
      HeraldError,
    );
  }, 60_000);
});
