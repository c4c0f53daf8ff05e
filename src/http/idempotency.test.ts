import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';

describeEachDialect('Idempotency-Key on POST /v1', (dialect) => {
  let t: TestApp;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  const newAccount = async (credits = 100) => {
    const account = await t.createAccount({ credits });
    return { account, token: await t.tokenFor(account) };
  };
  const post = (token: string, url: string, body: unknown, key?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(key !== undefined ? { 'idempotency-key': key } : {}),
      },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const sms = () => ({ to: '+14155552671', message: `Your code is ${++n}` });
  const messagesOf = async (accountId: string) =>
    (await t.store.messages.list({ accountId, channels: ['sms'], limit: 100, offset: 0 })).total;

  it('a retry with the same key and body gets the first response again, marked replayed; one message, one charge', async () => {
    const { account, token } = await newAccount(10);
    const body = sms();
    const first = await post(token, '/v1/sms/send', body, 'order-1001');
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post(token, '/v1/sms/send', body, 'order-1001');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.json()).toEqual(first.json());
    expect(await messagesOf(account.account.id)).toBe(1);
    expect((await t.call('GET', '/v1/account/balance', token)).json().data).toMatchObject({ reserved: 1, available: 9 });
  });

  it('the same body with its keys in another order is the same request', async () => {
    const { account, token } = await newAccount();
    const first = await post(token, '/v1/sms/send', '{"to":"+14155552671","message":"Same"}', 'k-order');
    const again = await post(token, '/v1/sms/send', '{ "message": "Same", "to": "+14155552671" }', 'k-order');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.message_id).toBe(first.json().data.message_id);
    expect(await messagesOf(account.account.id)).toBe(1);
  });

  it('the key with a different body or on another route is refused: 422 IDEMPOTENCY_KEY_REUSED, nothing runs', async () => {
    const { account, token } = await newAccount();
    await post(token, '/v1/sms/send', sms(), 'k-reused');
    const otherBody = await post(token, '/v1/sms/send', sms(), 'k-reused');
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toMatchObject({ success: false, error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    const otherRoute = await post(token, '/v1/telegram/send', { chat_id: '12345', message: 'hi' }, 'k-reused');
    expect(otherRoute.statusCode).toBe(422);
    expect(await messagesOf(account.account.id)).toBe(1);
  });

  it('keys belong to the account: another account using the same key gets its own message', async () => {
    const a = await newAccount();
    const b = await newAccount();
    const body = sms();
    const fromA = await post(a.token, '/v1/sms/send', body, 'shared-key');
    const fromB = await post(b.token, '/v1/sms/send', body, 'shared-key');
    expect(fromB.statusCode).toBe(200);
    expect(fromB.headers['idempotent-replayed']).toBeUndefined();
    expect(fromB.json().data.message_id).not.toBe(fromA.json().data.message_id);
  });

  it('50 simultaneous identical requests with one key: one message and one reservation; the rest replay it or get 409', async () => {
    const { account, token } = await newAccount(100);
    const body = sms();
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(token, '/v1/sms/send', body, 'burst-key')));
    const ok = answers.filter((a) => a.statusCode === 200);
    const inUse = answers.filter((a) => a.statusCode === 409);
    expect(ok.length + inUse.length).toBe(50);
    expect(new Set(ok.map((a) => a.json().data.message_id)).size).toBe(1);
    expect(ok.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    for (const refused of inUse) {
      expect(refused.json()).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_IN_USE' } });
      expect(refused.headers['retry-after']).toBe('1');
    }
    expect(await messagesOf(account.account.id)).toBe(1);
    const holds = (await t.store.credits.ledger(account.account.id)).filter((entry) => entry.kind === 'reserve');
    expect(holds).toHaveLength(1);
    expect((await t.call('GET', '/v1/account/balance', token)).json().data).toMatchObject({ reserved: 1, available: 99 });
  });

  it('a refusal (402) is kept and replayed too; a request that failed validation was never run, so the key stays free', async () => {
    const { account, token } = await newAccount(0);
    const body = sms();
    const broke = await post(token, '/v1/sms/send', body, 'k-402');
    expect(broke.statusCode).toBe(402);
    await t.store.credits.topUp(account.account.id, 10_000_000, t.clock.now(), 'top-up after a 402');
    const replay = await post(token, '/v1/sms/send', body, 'k-402');
    expect(replay.statusCode).toBe(402);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await post(token, '/v1/sms/send', body, 'k-402-again')).statusCode).toBe(200);

    const rich = await newAccount(10);
    const invalid = await post(rich.token, '/v1/sms/send', { to: 'not a number', message: 'x' }, 'k-fix');
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().error.code).toBe('INVALID_PHONE');
    const fixed = await post(rich.token, '/v1/sms/send', sms(), 'k-fix');
    expect(fixed.statusCode).toBe(200);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keeps a key 24 hours; after that the same key runs a new request', async () => {
    const { account, token } = await newAccount();
    const body = sms();
    await post(token, '/v1/sms/send', body, 'k-day');
    t.clock.advance(23 * 3_600_000);
    const fresh = await t.tokenFor(account);
    expect((await post(fresh, '/v1/sms/send', body, 'k-day')).headers['idempotent-replayed']).toBe('true');
    t.clock.advance(3_600_000 + 1);
    const later = await t.tokenFor(account);
    const rerun = await post(later, '/v1/sms/send', body, 'k-day');
    expect(rerun.statusCode).toBe(200);
    expect(rerun.headers['idempotent-replayed']).toBeUndefined();
    expect(await messagesOf(account.account.id)).toBe(2);
  });

  it('a claim left by a process that died before its transaction is taken over once its 10 s lock lapses', async () => {
    const { account, token } = await newAccount();
    const accountId = account.account.id;
    const body = sms();
    // The same request under another key, to learn the fingerprint the claim carries.
    await post(token, '/v1/sms/send', body, 'k-probe');
    const { fingerprint } = await t.database.db
      .selectFrom('idempotency_keys')
      .select('fingerprint')
      .where('account_id', '=', accountId)
      .where('key', '=', 'k-probe')
      .executeTakeFirstOrThrow();
    // What such a process leaves behind: a running claim, and nothing written under it.
    const now = t.clock.now();
    await t.database.db
      .insertInto('idempotency_keys')
      .values({
        account_id: accountId,
        key: 'k-orphan',
        fingerprint,
        state: 'running',
        status_code: null,
        content_type: null,
        body: null,
        locked_until: now + 10_000,
        created_at: now,
        expires_at: now + 86_400_000,
      })
      .execute();
    const waiting = await post(token, '/v1/sms/send', body, 'k-orphan');
    expect(waiting.statusCode).toBe(409);
    expect(waiting.headers['retry-after']).toBe('1');
    t.clock.advance(10_001);
    const takenOver = await post(token, '/v1/sms/send', body, 'k-orphan');
    expect(takenOver.statusCode).toBe(200);
    expect(takenOver.headers['idempotent-replayed']).toBeUndefined();
    expect(await messagesOf(accountId)).toBe(2);
    expect((await post(token, '/v1/sms/send', body, 'k-orphan')).headers['idempotent-replayed']).toBe('true');
  });

  it('refuses a malformed key with 400 INVALID_REQUEST, and GET requests ignore the header', async () => {
    const { token } = await newAccount();
    for (const key of ['x'.repeat(256), 'has space', 'é']) {
      const refused = await post(token, '/v1/sms/send', sms(), key);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
    }
    const list = await t.app.inject({
      method: 'GET',
      url: '/v1/messages',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'k-get' },
    });
    expect(list.statusCode).toBe(200);
  });

  const PREVIEWS = ['/v1/sms/preview', '/v1/whatsapp/preview', '/v1/email/preview', '/v1/telegram/preview', '/v1/telegram/photo/preview'];
  it('documents the header and its answers on every POST route of the OpenAPI document, but a preview, which keeps nothing', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const posts = Object.entries(
      document.paths as Record<
        string,
        Record<string, { parameters?: Array<{ name: string; in: string }>; responses: Record<string, unknown> }>
      >,
    )
      .filter(([path]) => path.startsWith('/v1/') && !PREVIEWS.includes(path))
      .flatMap(([path, item]) => (item.post ? [[path, item.post] as const] : []));
    expect(posts.length).toBeGreaterThanOrEqual(8);
    for (const path of PREVIEWS) {
      const preview = (document.paths as Record<string, { post: { parameters?: Array<{ name: string }> } }>)[path];
      expect(preview, path).toBeDefined();
      expect(preview?.post.parameters?.some((p) => p.name === 'idempotency-key') ?? false, path).toBe(false);
    }
    for (const [path, operation] of posts) {
      expect(
        operation.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key'),
        path,
      ).toBe(true);
      expect(Object.keys(operation.responses), path).toEqual(expect.arrayContaining(['409', '422']));
    }
  });
});
