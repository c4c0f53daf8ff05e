import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import { freePort } from '../../test/ports.js';
import { setAccountPlan } from '../core/accounts/manage-accounts.js';
import { headersOf, refillAndTake } from '../core/rate-limits.js';
import { FallbackRateLimitStore, MemoryRateLimitStore, RedisRateLimitStore } from '../storage/rate-limit-stores.js';
import type { RateLimitSettings } from './rate-limits.js';

const SETTINGS: RateLimitSettings = {
  plans: {
    developer: { perSecond: 2, burst: 3 },
    business: { perSecond: 10, burst: 6 },
    enterprise: { perSecond: 100, burst: 100 },
  },
  tokenFailures: { perClient: { perSecond: 3 / 60, burst: 3 }, perIp: { perSecond: 5 / 60, burst: 5 } },
};

describe('token buckets', () => {
  it('start full, take one a request, refill at the rate up to the burst', () => {
    const rule = { perSecond: 2, burst: 3 };
    let state: { tokens: number; last: number } | undefined;
    const take = (now: number) => {
      const result = refillAndTake(state, rule, 1, now);
      state = result.state;
      return result.allowed;
    };
    expect([take(0), take(0), take(0), take(0)]).toEqual([true, true, true, false]);
    expect(take(499)).toBe(false);
    expect(take(500)).toBe(true);
    expect(take(10_000)).toBe(true);
    expect(state?.tokens).toBe(2); // refilled to 3 (the burst), one taken
  });

  it('say when to come back: Retry-After to the next token, Reset to a full bucket', () => {
    expect(headersOf({ perSecond: 2, burst: 3 }, { allowed: false, tokens: 0.2 })).toEqual({
      limit: 3,
      remaining: 0,
      reset: 2,
      retryAfter: 1,
    });
    expect(headersOf({ perSecond: 0.1, burst: 10 }, { allowed: true, tokens: 9 })).toEqual({
      limit: 10,
      remaining: 9,
      reset: 10,
      retryAfter: 0,
    });
  });
});

describeEachDialect('rate limits on /v1 and the token endpoint', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    const clock = { now: () => t.clock.now() };
    t = await createTestApp(dialect, { rateLimiting: { store: new MemoryRateLimitStore(() => clock.now()), settings: SETTINGS } });
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (token: string) => t.app.inject({ method: 'GET', url: '/v1/account/balance', headers: { authorization: `Bearer ${token}` } });
  const tokenRequest = (clientId: string, clientSecret: string, remoteAddress = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString(),
    });

  it('an operator’s plan change applies to the next request, without a restart', async () => {
    const account = await t.createAccount();
    const token = await t.tokenFor(account);
    const limit = async () => (await t.call('GET', '/v1/account/balance', token)).headers['ratelimit-limit'];
    expect(await limit()).toBe('3');
    await setAccountPlan(t.store, t.clock, account.account.id, 'enterprise');
    expect(await limit()).toBe('100');
  });

  it('a send reads its account’s access once: the access check, the rate limit and the send share it', async () => {
    const account = await t.createAccount();
    const token = await t.tokenFor(account);
    const send = (message: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/sms/send',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ to: '+14155552671', message }),
      });
    const reads = vi.spyOn(t.store.accounts, 'access');
    try {
      const sent = await send('one read');
      expect(sent.statusCode).toBe(200);
      expect(sent.headers['ratelimit-limit']).toBe('3');
      expect(reads.mock.calls.map(([accountId]) => accountId)).toEqual([account.account.id]);
      // What it read is the request's own: a plan changed since applies to the next request.
      await setAccountPlan(t.store, t.clock, account.account.id, 'business');
      reads.mockClear();
      const next = await send('after the change');
      expect(next.statusCode).toBe(200);
      expect(next.headers['ratelimit-limit']).toBe('6');
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('gives each client its plan’s burst, counts down in RateLimit-* headers, then 429 RATE_LIMITED with Retry-After', async () => {
    const token = await t.tokenFor(await t.createAccount());
    const answers = [await get(token), await get(token), await get(token)];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((a) => [a.headers['ratelimit-limit'], a.headers['ratelimit-remaining']])).toEqual([
      ['3', '2'],
      ['3', '1'],
      ['3', '0'],
    ]);
    const refused = await get(token);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    // Nothing was sent on the refused request.
    const send = await t.app.inject({
      method: 'POST',
      url: '/v1/sms/send',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ to: '+14155552671', message: 'too fast' }),
    });
    expect(send.statusCode).toBe(429);
    t.clock.advance(500);
    expect((await get(token)).statusCode).toBe(200);
  });

  it('keeps clients apart, and sizes a business account by its plan', async () => {
    const first = await t.tokenFor(await t.createAccount());
    const other = await t.tokenFor(await t.createAccount());
    for (let i = 0; i < 3; i++) await get(first);
    expect((await get(first)).statusCode).toBe(429);
    expect((await get(other)).statusCode).toBe(200);
    const business = await t.tokenFor(await t.createAccount({ plan: 'business' }));
    const answer = await get(business);
    expect(answer.headers['ratelimit-limit']).toBe('6');
  });

  it("reads an account's plan from the store once, not on every request (a plan never changes)", async () => {
    const business = await t.tokenFor(await t.createAccount({ plan: 'business' }));
    const reads = vi.spyOn(t.store.accounts, 'findAccount');
    try {
      for (let i = 0; i < 4; i++) expect((await get(business)).headers['ratelimit-limit']).toBe('6');
      // The balance route reads the account for its answer; the rate limit only the first time.
      const first = reads.mock.calls.length;
      expect((await get(business)).headers['ratelimit-limit']).toBe('6');
      expect(reads.mock.calls.length - first).toBe(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('the token endpoint refuses a client_id after 3 failed secrets (429 slow_down), even with the right secret then', async () => {
    const account = await t.createAccount();
    for (let i = 0; i < 3; i++) expect((await tokenRequest(account.clientId, 'hsec_wrong', '198.51.100.1')).statusCode).toBe(401);
    const locked = await tokenRequest(account.clientId, account.clientSecret, '198.51.100.2');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      error: 'slow_down',
      error_description: 'Too many failed token requests; wait before trying again.',
      code: 'RATE_LIMITED',
    });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    t.clock.advance(20_000); // one failure forgiven (3 a minute)
    expect((await tokenRequest(account.clientId, account.clientSecret, '198.51.100.2')).statusCode).toBe(200);
  });

  it('and refuses an address after 5 failures across client ids, while other addresses go on', async () => {
    const account = await t.createAccount();
    for (let i = 0; i < 5; i++) expect((await tokenRequest(`cli_guess${i}`, 'hsec_x', '203.0.113.50')).statusCode).toBe(401);
    expect((await tokenRequest(account.clientId, account.clientSecret, '203.0.113.50')).statusCode).toBe(429);
    expect((await tokenRequest(account.clientId, account.clientSecret, '203.0.113.51')).statusCode).toBe(200);
  });

  it('never counts a successful token request', async () => {
    const account = await t.createAccount();
    for (let i = 0; i < 8; i++) expect((await tokenRequest(account.clientId, account.clientSecret, '203.0.113.60')).statusCode).toBe(200);
  });
});

/** A Redis of the test's own (it is stopped mid-test; the machine's shared one must never be). */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const probe = new RedisRateLimitStore(`redis://127.0.0.1:${port}`, 'probe:');
  try {
    for (let i = 0; i < 100; i++) {
      try {
        await probe.take('ready', { perSecond: 1, burst: 1 }, 0);
        return child;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error('redis-server did not start');
  } finally {
    await probe.close();
  }
}

describe('limits shared through Redis', () => {
  const rule = { perSecond: 0.001, burst: 4 };

  it('two processes’ stores on the machine’s Redis share one bucket', async () => {
    const prefix = `herald-test:${process.pid}:${Date.now()}:`;
    const one = new RedisRateLimitStore('redis://127.0.0.1:6379', prefix);
    const two = new RedisRateLimitStore('redis://127.0.0.1:6379', prefix);
    try {
      const taken = [];
      for (let i = 0; i < 6; i++) taken.push((await (i % 2 === 0 ? one : two).take('api:cli_shared', rule, 1)).allowed);
      expect(taken).toEqual([true, true, true, true, false, false]);
      expect((await one.take('api:cli_other', rule, 1)).allowed).toBe(true);
    } finally {
      await one.redis.del(`${prefix}api:cli_shared`, `${prefix}api:cli_other`);
      await one.close();
      await two.close();
    }
  });

  it('connects only when first used, and a Redis that comes up later is used from then on', async () => {
    const port = await freePort();
    const store = new RedisRateLimitStore(`redis://127.0.0.1:${port}`, 'late:');
    let redis: ChildProcess | undefined;
    try {
      expect(store.redis.status).toBe('wait'); // built, not connected: CLI commands never connect
      await expect(store.take('api:cli_late', rule, 1)).rejects.toThrow();
      redis = await startRedis(port);
      let allowed = false;
      for (let i = 0; i < 100 && !allowed; i++) {
        allowed = await store.take('api:cli_late', rule, 1).then(
          (b) => b.allowed,
          () => false,
        );
        if (!allowed) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(allowed).toBe(true);
    } finally {
      await store.close();
      redis?.kill('SIGKILL');
    }
  }, 30_000);

  it('with Redis stopped, limits go on per process (logged once), and are shared again when it is back', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const logged: string[] = [];
    const logger = {
      warn: (_: object, msg: string) => logged.push(`warn: ${msg}`),
      info: (_: object, msg: string) => logged.push(`info: ${msg}`),
    };
    const store = new FallbackRateLimitStore(
      new RedisRateLimitStore(`redis://127.0.0.1:${port}`, 'fallback:'),
      new MemoryRateLimitStore(),
      logger,
    );
    try {
      expect((await store.take('api:cli_a', rule, 1)).allowed).toBe(true);
      expect(store.degraded).toBe(false);

      redis.kill('SIGKILL');
      await new Promise((resolve) => redis.once('exit', resolve));
      const whileDown = [];
      for (let i = 0; i < 6; i++) whileDown.push((await store.take('api:cli_a', rule, 1)).allowed);
      // This process's own bucket: the full burst of 4, then refused — limits stay on.
      expect(whileDown).toEqual([true, true, true, true, false, false]);
      expect(store.degraded).toBe(true);
      expect(logged).toEqual(['warn: redis unreachable: rate limits are per process until it is back']);

      redis = await startRedis(port);
      let back = false;
      for (let i = 0; i < 100 && !back; i++) {
        await store.take('api:cli_b', rule, 1);
        back = !store.degraded;
        if (!back) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(back).toBe(true);
      expect(logged.at(-1)).toBe('info: redis is back: rate limits are shared again');
    } finally {
      await store.close();
      redis.kill('SIGKILL');
    }
  }, 30_000);
});
