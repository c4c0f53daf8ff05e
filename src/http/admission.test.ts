import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { ALL_SCOPES } from '../../test/channels.js';
import { describeEachDialect } from '../../test/databases.js';
import { exchange, parseAll } from '../../test/raw-http.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';
import { MICROS_PER_CREDIT } from '../core/credits.js';
import { type AcceptBacklog, type AdmissionSettings, DEFAULT_ADMISSION_SETTINGS } from './admission.js';

/** Only the accept queue's bounds: the machine's own load never sheds a request in these tests. */
const QUEUE_BOUNDS: AdmissionSettings = Object.assign({}, DEFAULT_ADMISSION_SETTINGS, {
  // These tests send a few requests at a time: judged whatever their number.
  minRequestsInFlight: 0,
  maxQueueWaitMs: 100,
  maxQueuedMessages: 50,
  maxEventLoopDelayMs: 0,
  maxEventLoopBusyPercent: 0,
  maxHeapUsedBytes: 0,
  maxRssBytes: 0,
  retryAfterSeconds: 2,
});

const IDLE: AcceptBacklog = { units: 0, messages: 0, oldestNow: undefined };
const SEND = { to: '+14155552671', message: 'Your code is 123456' };

/** The app on a loopback port: refusals are written by the HTTP server, which inject() bypasses. */
async function listening(t: TestApp) {
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(address).port);
  return {
    /** A raw connection to the app, for what fetch will not send (pipelining, odd request targets). */
    raw: () => connect({ host: '127.0.0.1', port }),
    request: async (method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
      const response = await fetch(`${address}${path}`, {
        method,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
    },
  };
}
type Answer = Awaited<ReturnType<Awaited<ReturnType<typeof listening>>['request']>>;

const expectShed = (response: Answer, retryAfter: string) => {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe(retryAfter);
  expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  // The headers every answer carries (transport-security.ts), though no hook ran.
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = response.json();
  expect(body).toEqual({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });
  expect(body.error.message).toContain(`retry after ${retryAfter} s`);
};

/** Ticks of a few ms: a bound passed for ten ticks or so sheds everything. */
const TICK_MS = 5;

describeEachDialect('shedding sends when the accept queue is past its bounds', (dialect) => {
  let t: TestApp;
  let http: Awaited<ReturnType<typeof listening>>;
  /** The accept queue as admission sees it, set by each test. */
  let backlog: AcceptBacklog;
  let account: CreatedAccount;
  let token: string;

  beforeEach(async () => {
    backlog = IDLE;
    t = await createTestApp(dialect, { admission: { settings: QUEUE_BOUNDS, backlog: () => backlog, tickMs: TICK_MS } });
    http = await listening(t);
    account = await t.createAccount({ credits: 10 });
    token = await t.tokenFor(account);
  });
  afterEach(() => t.close());

  const load = async () => (await http.request('GET', '/readyz')).json().checks.load as string;
  /** Until the bound has held long enough that no send is let in. */
  const sheddingEverySend = () => vi.waitFor(async () => expect(await load()).toMatch(/^shedding 100 % of sends/), { timeout: 5_000 });
  const servingAgain = () => vi.waitFor(async () => expect(await load()).toBe('ok'), { timeout: 5_000 });
  const send = (idempotencyKey?: string) =>
    http.request('POST', '/v1/sms/send', { token, body: SEND, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });

  const expectNothingStoredOrCharged = async () => {
    const stored = await t.store.accounts.findAccount(account.account.id);
    expect(stored?.reservedMicros).toBe(0);
    expect(stored?.creditsMicros).toBe(10 * MICROS_PER_CREDIT);
    expect(await t.database.db.selectFrom('messages').select('id').execute()).toEqual([]);
    expect(await t.store.jobs.count()).toBe(0);
  };

  it('refuses a send with 503, Retry-After and the envelope once the oldest waiting send has waited past the bound, storing and charging nothing', async () => {
    backlog = { units: 3, messages: 3, oldestNow: t.clock.now() - 101 };
    await sheddingEverySend();
    expect(await load()).toBe('shedding 100 % of sends (sends are waiting 101 ms to be stored)');
    expectShed(await send(), '2');
    await expectNothingStoredOrCharged();
  });

  it('refuses a send while more messages wait than the bound', async () => {
    backlog = { units: 1, messages: 51, oldestNow: t.clock.now() };
    await sheddingEverySend();
    const response = await send();
    expectShed(response, '2');
    expect(response.json().error.message).toContain('51 messages are waiting');
    await expectNothingStoredOrCharged();
  });

  it('accepts sends while the queue is at its bounds but not past them', async () => {
    backlog = { units: 50, messages: 50, oldestNow: t.clock.now() - 100 };
    await new Promise((resolve) => setTimeout(resolve, 20 * TICK_MS));
    expect(await load()).toBe('ok');
    const response = await send();
    expect(response.status).toBe(200);
    expect(response.json().data.status).toBe('queued');
    expect((await t.store.accounts.findAccount(account.account.id))?.reservedMicros).toBe(MICROS_PER_CREDIT);
  });

  it('lets part of the sends in, evenly, while the share admitted climbs back, and all of them once it is whole', async () => {
    const rich = await t.createAccount({ credits: 1_000 });
    const richToken = await t.tokenFor(rich);
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    await sheddingEverySend();
    backlog = IDLE;
    // Raised a fiftieth a tick: for about 50 ticks part of the sends are let in.
    const statuses: number[] = [];
    while (statuses.length < 400 && (await load()) !== 'ok') {
      statuses.push((await http.request('POST', '/v1/sms/send', { token: richToken, body: SEND })).status);
    }
    expect(statuses[0]).toBe(503);
    const firstAdmitted = statuses.indexOf(200);
    expect(firstAdmitted).toBeGreaterThan(0);
    // After the first one let in, others are still refused: a share, not a switch.
    expect(statuses.slice(firstAdmitted + 1)).toContain(503);
    expect(new Set(statuses)).toEqual(new Set([200, 503]));
    await servingAgain();
    expect((await send()).status).toBe(200);
  });

  it('echoes a sane X-Request-Id on a refusal', async () => {
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    await sheddingEverySend();
    const response = await http.request('POST', '/v1/sms/send', { token, body: SEND, headers: { 'x-request-id': 'client-req-7' } });
    expect(response.status).toBe(503);
    expect(response.headers.get('x-request-id')).toBe('client-req-7');
  });

  it('leaves the Idempotency-Key of a refused send unused: the retry after the overload is accepted once', async () => {
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    await sheddingEverySend();
    expectShed(await send('shed-then-retried'), '2');
    backlog = IDLE;
    await servingAgain();
    const retried = await send('shed-then-retried');
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const again = await send('shed-then-retried');
    expect(again.json().data.message_id).toBe(retried.json().data.message_id);
    expect(await t.database.db.selectFrom('messages').select('id').execute()).toHaveLength(1);
  });

  it('refuses before reading the request: a send with a bad token or a body that is not JSON is answered 503, not 401 or 400', async () => {
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    await sheddingEverySend();
    expectShed(await http.request('POST', '/v1/sms/send', { token: 'not-a-token', body: SEND }), '2');
    expectShed(await http.request('POST', '/v1/sms/send', { token, body: '{"to": ' }), '2');
    // The connection stays usable: the unread body was discarded, not taken for the next request.
    expectShed(await send(), '2');
  });

  it('keeps the connection serving: a small unread body is dropped, and the next pipelined request is answered', async () => {
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    await sheddingEverySend();
    const body = JSON.stringify(Object.assign({}, SEND, { message: 'x'.repeat(1_000) }));
    const { text, closed } = await exchange(
      http.raw,
      [
        `POST /v1/sms/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` +
          'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
      ],
      { responses: 2 },
    );
    expect(closed).toBe(false);
    expect(parseAll(text).map((r) => [r.status, r.body])).toEqual([
      [503, { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } }],
      [200, { status: 'ok' }],
    ]);
  });

  it('does not read a large body it refuses: it answers and closes the connection', async () => {
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    await sheddingEverySend();
    // 10 MiB announced, a few bytes sent: the answer comes without the rest.
    const { text, closed } = await exchange(http.raw, [
      'POST /v1/email/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n{"to":',
    ]);
    expect(closed).toBe(true);
    const [answer] = parseAll(text);
    expect(answer?.status).toBe(503);
    expect(answer?.headers.connection).toBe('close');
  });

  it('answers Expect: 100-continue with the refusal, not a Continue: the body is never sent', async () => {
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    await sheddingEverySend();
    const { text, closed } = await exchange(http.raw, [
      'POST /v1/sms/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60\r\nExpect: 100-continue\r\n\r\n',
    ]);
    expect(closed).toBe(true);
    expect(text.startsWith('HTTP/1.1 503')).toBe(true);
  });

  it('tells a send by its path as the router reads it: escaped, in absolute form, with a fragment', async () => {
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    await sheddingEverySend();
    const body = JSON.stringify(SEND);
    for (const target of ['/v1/sms/sen%64', 'http://x/v1/sms/send', '/v1/sms/send#f', '/v1/sms/send/?a=1']) {
      const { text } = await exchange(
        http.raw,
        [
          `POST ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        ],
        { responses: 1 },
      );
      expect([target, parseAll(text)[0]?.status]).toEqual([target, 503]);
    }
    await expectNothingStoredOrCharged();
  });

  it('sheds every route that accepts messages, and serves reads meanwhile', async () => {
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    await sheddingEverySend();
    const sends: Array<[string, unknown]> = [
      ['/v1/sms/bulk', { recipients: ['+14155552671'], message: 'hi' }],
      ['/v1/sms/bulk/', { recipients: ['+14155552671'], message: 'hi' }],
      ['/v1/whatsapp/send', { to: '+14155552671', template: 'verification_code', language: 'en_US', parameters: ['1'] }],
      ['/v1/telegram/send', { chat_id: '12345', text: 'hi' }],
      ['/v1/telegram/photo?x=1', { chat_id: '12345', photo_url: 'https://example.com/a.png' }],
      ['/v1/email/send', { to: 'a@example.com', subject: 'hi', text: 'hi' }],
    ];
    for (const [url, body] of sends) expectShed(await http.request('POST', url, { token, body }), '2');
    await expectNothingStoredOrCharged();
    expect((await http.request('GET', '/v1/messages', { token })).status).toBe(200);
    expect((await http.request('GET', '/v1/account/balance', { token })).status).toBe(200);
  });

  it('keeps the health checks answering, and /readyz ready while it says sends are shed', async () => {
    backlog = { units: 1, messages: 1, oldestNow: t.clock.now() - 5_000 };
    await sheddingEverySend();
    expect((await http.request('GET', '/healthz')).status).toBe(200);
    const ready = await http.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json().status).toBe('ok');
    expect(ready.json().checks.load).toBe('shedding 100 % of sends (sends are waiting 5000 ms to be stored)');
    backlog = IDLE;
    await servingAgain();
  });
});

describeEachDialect('shedding every request but the health checks when the process is past a bound', (dialect) => {
  let t: TestApp;
  let http: Awaited<ReturnType<typeof listening>>;

  beforeEach(async () => {
    // A heap bound of one byte is passed at every tick: pressure without timing.
    t = await createTestApp(dialect, {
      admission: {
        settings: Object.assign({}, QUEUE_BOUNDS, { maxHeapUsedBytes: 1 }),
        backlog: () => IDLE,
        tickMs: TICK_MS,
      },
    });
    http = await listening(t);
  });
  afterEach(() => t.close());

  /** Until /readyz says no request but the health checks is let in. */
  const underPressure = () =>
    vi.waitFor(
      async () =>
        expect((await http.request('GET', '/readyz')).json().checks.load).toMatch(/^shedding 100 % of requests but health checks/),
      { timeout: 5_000 },
    );

  it('refuses API requests with 503, Retry-After and the envelope, and writes nothing', async () => {
    const account = await t.createAccount({ credits: 10 });
    // Issued directly: the token endpoint is shedding too.
    const { accessToken: token } = await t.tokens.issue({
      clientId: account.clientId,
      accountId: account.account.id,
      scopes: [...ALL_SCOPES],
    });
    await underPressure();
    const response = await http.request('POST', '/v1/sms/send', { token, body: SEND });
    expectShed(response, '2');
    expect(response.json().error.message).toContain('its heap holds');
    expectShed(await http.request('GET', '/v1/messages', { token }), '2');
    expectShed(await http.request('GET', '/no/such/route'), '2');
    expect(await t.database.db.selectFrom('messages').select('id').execute()).toEqual([]);
    expect((await t.store.accounts.findAccount(account.account.id))?.reservedMicros).toBe(0);
  });

  it('refuses token requests in the OAuth shape (temporarily_unavailable) with Retry-After', async () => {
    const account = await t.createAccount({ credits: 10 });
    await underPressure();
    const response = await http.request('POST', '/oauth/token', {
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: account.clientId,
        client_secret: account.clientSecret,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(response.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining('overloaded') });
  });

  it('answers the email tracking links, which mail clients never retry (a made-up token: 404, not 503)', async () => {
    await underPressure();
    expect((await http.request('GET', '/t/o/not-a-token')).status).toBe(404);
    expect((await http.request('GET', '/t/c/not-a-token')).status).toBe(404);
    expect((await http.request('GET', '/v1/messages')).status).toBe(503);
  });

  it('answers /healthz and /readyz, which says what is shed and why', async () => {
    await underPressure();
    expect((await http.request('GET', '/healthz')).json()).toEqual({ status: 'ok' });
    expect((await http.request('HEAD', '/healthz')).status).toBe(200);
    expect((await http.request('GET', '/healthz?probe=1')).status).toBe(200);
    const { text } = await exchange(http.raw, ['GET http://x/healthz HTTP/1.1\r\nHost: x\r\n\r\n'], { responses: 1 });
    expect(parseAll(text)[0]?.status).toBe(200);
    const ready = await http.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json().checks.load).toMatch(/^shedding 100 % of requests but health checks \(its heap holds \d+ MiB\)$/);
  });
});

describeEachDialect('a node with few requests in hand', (dialect) => {
  let t: TestApp;
  let http: Awaited<ReturnType<typeof listening>>;

  beforeEach(async () => {
    // Past a bound at every tick (heap over one byte), but judged only with 3 requests in hand.
    t = await createTestApp(dialect, {
      admission: {
        settings: Object.assign({}, QUEUE_BOUNDS, { maxHeapUsedBytes: 1, minRequestsInFlight: 3 }),
        backlog: () => IDLE,
        tickMs: TICK_MS,
      },
    });
    http = await listening(t);
  });
  afterEach(() => t.close());

  it('sheds nothing while fewer than OVERLOAD_MIN_REQUESTS_IN_FLIGHT are in hand, and sheds past it', async () => {
    await vi.waitFor(async () => expect((await http.request('GET', '/readyz')).json().checks.load).toMatch(/^shedding 100 %/), {
      timeout: 5_000,
    });
    // One client at a time: answered, however the node's signals look.
    for (let i = 0; i < 3; i++) expect((await http.request('GET', '/v1/messages')).status).toBe(401);
    // Three requests in hand (token requests whose bodies are not all sent): the next one is judged, and shed.
    const holding = [0, 1, 2].map(() => {
      const socket = http.raw();
      socket.on('error', () => {});
      socket.write(
        'POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant',
      );
      return socket;
    });
    try {
      await vi.waitFor(async () => expect((await http.request('GET', '/v1/messages')).status).toBe(503), { timeout: 5_000 });
    } finally {
      for (const socket of holding) socket.destroy();
    }
    // Answered (here: closed) they are no longer in hand: requests are let in again.
    await vi.waitFor(async () => expect((await http.request('GET', '/v1/messages')).status).toBe(401), { timeout: 5_000 });
  });
});

const LOOP_TICK_MS = 50;

describe('the event loop as a signal', () => {
  let t: TestApp;
  let http: Awaited<ReturnType<typeof listening>>;
  // Ticks long enough that every one holds a stall while the test keeps stalling, and that
  // /readyz is read before the next tick has moved the share again.
  const start = async (bounds: Partial<AdmissionSettings>, starting?: () => boolean) => {
    t = await createTestApp('sqlite', {
      admission: { settings: Object.assign({}, QUEUE_BOUNDS, bounds), backlog: () => IDLE, tickMs: LOOP_TICK_MS, starting },
    });
    http = await listening(t);
  };
  afterEach(() => t.close());

  const block = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  const load = async () => (await http.request('GET', '/readyz')).json().checks.load as string;

  it('sheds nothing for one stall past the bound (a new node builds its route schemas, a major collection)', async () => {
    await start({ maxEventLoopDelayMs: 150 });
    await vi.waitFor(async () => expect(await load()).toBe('ok'), { timeout: 5_000 });
    block(300);
    for (let read = 0; read < 5; read++) {
      expect(await load()).toBe('ok');
      expect((await http.request('GET', '/v1/messages')).status).not.toBe(503);
      await new Promise((resolve) => setTimeout(resolve, LOOP_TICK_MS));
    }
  });

  it('takes stalls lasting a few ticks as a cut in what is let in, not a refusal of everything, and wins it back', async () => {
    await start({ maxEventLoopDelayMs: 150 });
    await vi.waitFor(async () => expect(await load()).toBe('ok'), { timeout: 5_000 });
    // Three stalls, one a tick: the third tick in a row that sees one cuts the share once.
    for (let i = 0; i < 3; i++) {
      block(300);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await vi.waitFor(
      async () => expect(await load()).toMatch(/^shedding 25 % of requests but health checks \(its event loop stalled \d+ ms\)$/),
      {
        timeout: 2_000,
        interval: 1,
      },
    );
    await vi.waitFor(async () => expect(await load()).toBe('ok'), { timeout: 10_000 });
  });

  it('sheds every request while the loop keeps stalling', async () => {
    await start({ maxEventLoopDelayMs: 60 });
    const stalls = setInterval(() => block(100), 1);
    try {
      await vi.waitFor(async () => expect(await load()).toMatch(/^shedding 100 % of requests but health checks/), { timeout: 5_000 });
      expect((await http.request('GET', '/v1/messages')).status).toBe(503);
    } finally {
      clearInterval(stalls);
    }
    await vi.waitFor(async () => expect(await load()).toBe('ok'), { timeout: 10_000 });
  });

  /** Keeps the loop busy in turns of `ms`, one after the other, until the returned stop is called. */
  const keepBusy = (ms: number) => {
    let busy = true;
    const spin = () => {
      block(ms);
      if (busy) setImmediate(spin);
    };
    spin();
    return () => {
      busy = false;
    };
  };

  it('sheds while the loop is busy nearly all the time in long turns, though none stalls past its bound', async () => {
    await start({ maxEventLoopDelayMs: 0, maxEventLoopBusyPercent: 80 });
    await vi.waitFor(async () => expect(await load()).toBe('ok'), { timeout: 5_000 });
    const stop = keepBusy(40);
    try {
      await vi.waitFor(
        async () =>
          expect(await load()).toMatch(
            /^shedding 100 % of requests but health checks \(its event loop is busy \d+ % of the time, in turns of \d+ ms\)$/,
          ),
        { timeout: 10_000 },
      );
      expect((await http.request('GET', '/v1/messages')).status).toBe(503);
    } finally {
      stop();
    }
    await vi.waitFor(async () => expect(await load()).toBe('ok'), { timeout: 10_000 });
  });

  it('sheds nothing while the node does its start-up work (route schemas built after it listens) nor for a moment after, and judges once that is done', async () => {
    let starting = true;
    await start({ maxEventLoopDelayMs: 0, maxEventLoopBusyPercent: 80 }, () => starting);
    const stop = keepBusy(40);
    try {
      for (let read = 0; read < 10; read++) {
        await new Promise((resolve) => setTimeout(resolve, LOOP_TICK_MS));
        expect(await load()).toBe('ok');
      }
      starting = false;
      // Still settling (2 s): its loop is as busy, and nothing is refused.
      const settling = performance.now() + 1_000;
      while (performance.now() < settling) {
        await new Promise((resolve) => setTimeout(resolve, LOOP_TICK_MS));
        expect(await load()).toBe('ok');
      }
      await vi.waitFor(async () => expect(await load()).toMatch(/^shedding \d+ % of requests but health checks/), { timeout: 10_000 });
    } finally {
      stop();
    }
  });

  it('sheds nothing while the loop is as busy in short turns: a few clients served as fast as they ask', async () => {
    await start({ maxEventLoopDelayMs: 0, maxEventLoopBusyPercent: 80 });
    const stop = keepBusy(1);
    try {
      for (let read = 0; read < 10; read++) {
        await new Promise((resolve) => setTimeout(resolve, LOOP_TICK_MS));
        expect(await load()).toBe('ok');
      }
    } finally {
      stop();
    }
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
