import { describe, expect, it } from 'vitest';
import { Herald, HeraldError, verifyWebhook } from '../src/index.js';

const TOKEN = { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 };
const ok = (data: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ success: true, data }), { status: 200, headers: { 'content-type': 'application/json', ...headers } });
const error = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ success: false, error: { code, message: code } }), { status, headers });

/** A fetch that answers the token endpoint itself and every API call with `answer`, recording the calls. */
function fakeFetch(answer: (call: number, init: RequestInit | undefined) => Response | Promise<Response>) {
  const calls: Array<{ path: string; key: string | null }> = [];
  let apiCalls = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const path = new URL(String(input)).pathname;
    calls.push({ path, key: new Headers(init?.headers).get('idempotency-key') });
    if (path === '/oauth/token') return new Response(JSON.stringify(TOKEN), { status: 200 });
    return answer(apiCalls++, init);
  };
  return { fetch, calls, api: () => calls.filter((c) => c.path !== '/oauth/token') };
}

const herald = (fetch: typeof globalThis.fetch, extra: Partial<ConstructorParameters<typeof Herald>[0]> = {}) =>
  new Herald({ baseUrl: 'http://herald.test', clientId: 'cli_x', clientSecret: 'hsec_x', fetch, ...extra });

/** Resolves when `signal` aborts, with its reason; a fetch that never answers otherwise. */
const hang = (init: RequestInit | undefined) =>
  new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true }));

describe('the SDK transport', () => {
  it('does not retry a refusal other than 429, 5xx and 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    for (const [status, code] of [
      [400, 'INVALID_REQUEST'],
      [402, 'INSUFFICIENT_CREDITS'],
      [403, 'INSUFFICIENT_SCOPE'],
      [404, 'NOT_FOUND'],
      [409, 'IDEMPOTENCY_KEY_REUSED'],
      [422, 'INVALID_PHONE'],
    ] as const) {
      const fake = fakeFetch(() => error(status, code));
      await expect(herald(fake.fetch).sms.send({ to: '+14155552671', message: 'x' })).rejects.toMatchObject({ status, code });
      expect(fake.api(), code).toHaveLength(1);
    }
  });

  it("gives a refused token the API's code when the token endpoint names one, else UNAUTHORIZED or TOKEN_REFUSED", async () => {
    const refusing =
      (status: number, body: Record<string, string>): typeof globalThis.fetch =>
      async () =>
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const send = (fetch: typeof globalThis.fetch) => herald(fetch, { maxRetries: 0 }).account.get();
    await expect(
      send(refusing(403, { error: 'unauthorized_client', error_description: 'suspended', code: 'ACCOUNT_SUSPENDED' })),
    ).rejects.toMatchObject({ status: 403, code: 'ACCOUNT_SUSPENDED' });
    await expect(send(refusing(401, { error: 'invalid_client', error_description: 'no' }))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(send(refusing(400, { error: 'invalid_scope', error_description: 'no' }))).rejects.toMatchObject({ code: 'TOKEN_REFUSED' });
  });

  it('retries an answer cut off mid-body under the same Idempotency-Key', async () => {
    const fake = fakeFetch((call) => {
      if (call > 0) return ok({ message_id: 'msg_1' });
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"success":true,"da'));
          controller.error(new Error('connection reset'));
        },
      });
      return new Response(body, { status: 200 });
    });
    expect(await herald(fake.fetch).sms.send({ to: '+14155552671', message: 'x' })).toEqual({ message_id: 'msg_1' });
    const keys = fake.api().map((c) => c.key);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('backs off on a 5xx whatever RateLimit-Reset says, and waits RateLimit-Reset only on a 429 with none remaining', async () => {
    const fake = fakeFetch((call) =>
      call === 0 ? error(500, 'INTERNAL_ERROR', { 'ratelimit-reset': '3600', 'ratelimit-remaining': '5' }) : ok({}),
    );
    const started = Date.now();
    await herald(fake.fetch).account.get();
    expect(Date.now() - started).toBeLessThan(5_000); // not an hour: the first backoff is at most 250 ms
    const limited = fakeFetch((call) =>
      call === 0 ? error(429, 'RATE_LIMITED', { 'ratelimit-reset': '3600', 'ratelimit-remaining': '0' }) : ok({}),
    );
    // Asked to wait an hour: more than the client waits, so the 429 is the caller's to handle.
    await expect(herald(limited.fetch).account.get()).rejects.toMatchObject({ status: 429, retryAfterSeconds: 3600 });
    expect(limited.api()).toHaveLength(1);
  });

  it('throws at once a 503 whose Retry-After is longer than it waits', async () => {
    const fake = fakeFetch(() => error(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '86400' }));
    await expect(herald(fake.fetch).account.get()).rejects.toMatchObject({ status: 503, retryAfterSeconds: 86400 });
    expect(fake.api()).toHaveLength(1);
  });

  it('ends a call aborted during its backoff wait, with the signal reason', async () => {
    const fake = fakeFetch(() => error(500, 'INTERNAL_ERROR', { 'retry-after': '30' }));
    const controller = new AbortController();
    const call = herald(fake.fetch).account.get({ signal: controller.signal });
    setTimeout(() => controller.abort(new DOMException('stop', 'AbortError')), 50);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('gives TIMEOUT for an answer that never comes', async () => {
    const fake = fakeFetch((_, init) => hang(init));
    await expect(herald(fake.fetch, { timeoutMs: 50, maxRetries: 1 }).account.get()).rejects.toMatchObject({ status: 0, code: 'TIMEOUT' });
    expect(fake.api()).toHaveLength(2);
  });

  it('leaves a shared token renewal to the other callers when one caller aborts', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetch: typeof globalThis.fetch = async (input) => {
      if (new URL(String(input)).pathname === '/oauth/token') {
        await gate;
        return new Response(JSON.stringify(TOKEN), { status: 200 });
      }
      return ok({ name: 'Acme' });
    };
    const client = herald(fetch);
    const controller = new AbortController();
    const aborted = client.account.get({ signal: controller.signal });
    const patient = client.account.get();
    controller.abort(new DOMException('gone', 'AbortError'));
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' }); // at once, not when the renewal ends
    release();
    await expect(patient).resolves.toEqual({ name: 'Acme' });
  });

  it('takes a DELETE whose first attempt got no answer, and whose retry finds nothing, as done', async () => {
    const fake = fakeFetch((call) => (call === 0 ? Promise.reject(new TypeError('socket hang up')) : error(404, 'NOT_FOUND')));
    await expect(herald(fake.fetch).webhooks.delete('wh_1')).resolves.toBeUndefined();
    const once = fakeFetch(() => error(404, 'NOT_FOUND'));
    await expect(herald(once.fetch).webhooks.delete('wh_1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a webhook tolerance that is not a number, and a secret that is not base64, by name', async () => {
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,AAAA' };
    await expect(verifyWebhook('{}', headers, 'whsec_AAAA', { toleranceSeconds: Number.NaN })).rejects.toBeInstanceOf(TypeError);
    const now = { nowSeconds: 1 };
    await expect(verifyWebhook('{}', headers, 'whsec_%%%', now)).rejects.toBeInstanceOf(HeraldError);
  });
});
