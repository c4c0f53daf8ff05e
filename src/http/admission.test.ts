import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';
import { MICROS_PER_CREDIT } from '../core/credits.js';
import { ALL_SCOPES } from '../core/scopes.js';
import { type AcceptBacklog, type AdmissionSettings, DEFAULT_ADMISSION_SETTINGS } from './admission.js';

/** Only the accept queue's bounds: the machine's own load never sheds a request in these tests. */
const QUEUE_BOUNDS: AdmissionSettings = Object.assign({}, DEFAULT_ADMISSION_SETTINGS, {
  maxQueueWaitMs: 100,
  maxQueuedMessages: 50,
  maxEventLoopDelayMs: 0,
  maxHeapUsedBytes: 0,
  maxRssBytes: 0,
  retryAfterSeconds: 2,
});

const IDLE: AcceptBacklog = { units: 0, messages: 0, oldestNow: undefined };
const SEND = { to: '+14155552671', message: 'Your code is 123456' };

const expectShed = (response: LightMyRequestResponse, retryAfter: string) => {
  expect(response.statusCode).toBe(503);
  expect(response.headers['retry-after']).toBe(retryAfter);
  expect(response.headers['x-request-id']).toBeTruthy();
  const body = response.json();
  expect(body).toEqual({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });
  expect(body.error.message).toContain(`retry after ${retryAfter} s`);
};

describeEachDialect('shedding sends when the accept queue is past its bounds', (dialect) => {
  let t: TestApp;
  /** The accept queue as admission sees it, set by each test. */
  let backlog: AcceptBacklog;
  let account: CreatedAccount;
  let token: string;

  beforeEach(async () => {
    backlog = IDLE;
    t = await createTestApp(dialect, { admission: { settings: QUEUE_BOUNDS, backlog: () => backlog } });
    account = await t.createAccount({ credits: 10 });
    token = await t.tokenFor(account);
  });
  afterEach(() => t.close());

  const send = (idempotencyKey?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/sms/send',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      payload: JSON.stringify(SEND),
    });

  const expectNothingStoredOrCharged = async () => {
    const stored = await t.store.accounts.findAccount(account.account.id);
    expect(stored?.reservedMicros).toBe(0);
    expect(stored?.creditsMicros).toBe(10 * MICROS_PER_CREDIT);
    expect(await t.database.db.selectFrom('messages').select('id').execute()).toEqual([]);
    expect(await t.store.jobs.count()).toBe(0);
  };

  it('refuses a send with 503, Retry-After and the envelope once the oldest waiting send has waited past the bound, storing and charging nothing', async () => {
    backlog = { units: 3, messages: 3, oldestNow: t.clock.now() - 101 };
    expectShed(await send(), '2');
    await expectNothingStoredOrCharged();
  });

  it('refuses a send while more messages wait than the bound', async () => {
    backlog = { units: 1, messages: 51, oldestNow: t.clock.now() };
    const response = await send();
    expectShed(response, '2');
    expect(response.json().error.message).toContain('51 messages are waiting');
    await expectNothingStoredOrCharged();
  });

  it('accepts sends while the queue is at its bounds but not past them', async () => {
    backlog = { units: 50, messages: 50, oldestNow: t.clock.now() - 100 };
    const response = await send();
    expect(response.statusCode).toBe(200);
    expect(response.json().data.status).toBe('queued');
    expect((await t.store.accounts.findAccount(account.account.id))?.reservedMicros).toBe(MICROS_PER_CREDIT);
  });

  it('leaves the Idempotency-Key of a refused send unused: the retry after the overload is accepted once', async () => {
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    expectShed(await send('shed-then-retried'), '2');
    backlog = IDLE;
    const retried = await send('shed-then-retried');
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    const again = await send('shed-then-retried');
    expect(again.json().data.message_id).toBe(retried.json().data.message_id);
    expect(await t.database.db.selectFrom('messages').select('id').execute()).toHaveLength(1);
  });

  it('refuses before authenticating: a send with a bad token is answered 503, not 401', async () => {
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    const response = await t.call('POST', '/v1/sms/send', 'not-a-token', SEND);
    expectShed(response, '2');
  });

  it('sheds every route that accepts messages, and serves reads meanwhile', async () => {
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    const sends: Array<[string, unknown]> = [
      ['/v1/sms/bulk', { recipients: ['+14155552671'], message: 'hi' }],
      ['/v1/whatsapp/send', { to: '+14155552671', template: 'verification_code', language: 'en_US', parameters: ['1'] }],
      ['/v1/telegram/send', { chat_id: '12345', text: 'hi' }],
      ['/v1/email/send', { to: 'a@example.com', subject: 'hi', text: 'hi' }],
    ];
    for (const [url, body] of sends) expectShed(await t.call('POST', url, token, body), '2');
    await expectNothingStoredOrCharged();
    expect((await t.call('GET', '/v1/messages', token)).statusCode).toBe(200);
    expect((await t.call('GET', '/v1/account/balance', token)).statusCode).toBe(200);
  });

  it('keeps the health checks answering, and /readyz ready while it says sends are shed', async () => {
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ok');
    expect(ready.json().checks.load).toBe('shedding sends (sends are waiting 5000 ms to be stored)');
    backlog = IDLE;
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json().checks.load).toBe('ok');
  });
});

describeEachDialect('shedding every request but the health checks when the process is past a bound', (dialect) => {
  let t: TestApp;

  beforeEach(async () => {
    // A heap bound of one byte is passed from the first sample on: pressure without timing.
    t = await createTestApp(dialect, {
      admission: {
        settings: Object.assign({}, QUEUE_BOUNDS, { maxHeapUsedBytes: 1 }),
        backlog: () => IDLE,
        sampleIntervalMs: 10,
      },
    });
  });
  afterEach(() => t.close());

  /** Until /readyz says the process is judged behind: past the sample that held the app's start. */
  const underPressure = () =>
    vi.waitFor(
      async () => expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json().checks.load).toMatch(/^shedding every request/),
      { timeout: 5_000 },
    );

  it('refuses API requests with 503, Retry-After and the envelope, and writes nothing', async () => {
    const account = await t.createAccount({ credits: 10 });
    // Issued directly: the token endpoint may already be shedding.
    const { accessToken: token } = await t.tokens.issue({
      clientId: account.clientId,
      accountId: account.account.id,
      scopes: [...ALL_SCOPES],
    });
    await underPressure();
    const response = await t.call('POST', '/v1/sms/send', token, SEND);
    expectShed(response, '2');
    expect(response.json().error.message).toContain('its heap holds');
    expectShed(await t.call('GET', '/v1/messages', token), '2');
    expect(await t.database.db.selectFrom('messages').select('id').execute()).toEqual([]);
    expect((await t.store.accounts.findAccount(account.account.id))?.reservedMicros).toBe(0);
  });

  it('refuses token requests in the OAuth shape (temporarily_unavailable) with Retry-After', async () => {
    const account = await t.createAccount({ credits: 10 });
    await underPressure();
    const response = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: account.clientId,
        client_secret: account.clientSecret,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(response.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining('overloaded') });
  });

  it('answers the email tracking links, which mail clients never retry (a made-up token: 404, not 503)', async () => {
    await underPressure();
    expect((await t.app.inject({ method: 'GET', url: '/t/o/not-a-token' })).statusCode).toBe(404);
    expect(await t.app.inject({ method: 'GET', url: '/v1/messages' }).then((r) => r.statusCode)).toBe(503);
  });

  it('answers /healthz and /readyz, which says what is shed', async () => {
    await underPressure();
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    // A sample that caught no turn of the event loop reads as Infinity (under-pressure's rule).
    expect(ready.json().checks.load).toMatch(
      /^shedding every request but health checks \(event loop delay (\d+|Infinity) ms, heap \d+ MiB/,
    );
  });
});

describe('the OpenAPI document', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp('sqlite');
  });
  afterEach(() => t.close());

  it('gives every /v1 route a 503 that says when load is shed and carries Retry-After', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations = Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)
      .filter(([path]) => path.startsWith('/v1/'))
      .flatMap(([, methods]) => Object.values(methods));
    expect(operations.length).toBeGreaterThan(10);
    for (const operation of operations) {
      const unavailable = operation.responses['503'] as { description: string; headers: Record<string, unknown> };
      expect(unavailable.description).toContain('OVERLOAD_MAX_QUEUE_WAIT_MS');
      expect(unavailable.headers['retry-after']).toBeDefined();
    }
  });
});
