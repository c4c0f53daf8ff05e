import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { allocateDatabase, describeEachDialect, type TestDatabaseLocation } from '../databases.js';
import { type HeraldServer, heraldEnv, killLeftoverProcesses, type ProcessEnv, runCli, runCliOk, startServer } from '../process.js';
import { AUTH_METHODS, api, fetchToken, postForm, tokenRequest } from './api.js';

/**
 * `herald serve` as an operator runs it: a real process on a real port, on an empty SQLite file
 * or PostgreSQL schema, driven over HTTP by openid-client and fetch, stopped with SIGTERM.
 */

const BANNER = 'Herald created a demo account';

interface DemoBanner {
  accountId: string;
  clientId: string;
  clientSecret: string;
  curlUrl: string;
  curlForm: Record<string, string>;
}

function parseBanner(stdout: string): DemoBanner {
  const field = (name: string): string => {
    const match = new RegExp(`^ +${name} +(\\S+)$`, 'm').exec(stdout);
    if (!match?.[1]) throw new Error(`the demo banner has no ${name} line:\n${stdout}`);
    return match[1];
  };
  const curl = /^ +curl -s (\S+)((?: -d \S+)+)$/m.exec(stdout);
  if (!curl?.[1] || !curl[2]) throw new Error(`the demo banner has no curl line:\n${stdout}`);
  const curlForm: Record<string, string> = {};
  for (const pair of curl[2].trim().split(/ ?-d /).filter(Boolean)) {
    const eq = pair.indexOf('=');
    curlForm[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { accountId: field('account_id'), clientId: field('client_id'), clientSecret: field('client_secret'), curlUrl: curl[1], curlForm };
}

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

describeEachDialect('herald serve, as a process', (dialect) => {
  let location: TestDatabaseLocation;
  let env: ProcessEnv;
  let server: HeraldServer;
  /** An account made with the CLI while the server runs; its secret is never printed by the server. */
  let account: { accountId: string; clientId: string; clientSecret: string };
  let tokenFromFirstRun: string;

  beforeAll(async () => {
    location = allocateDatabase(dialect);
    env = heraldEnv(location);
    server = await startServer(env);
    const created = await runCliOk(
      ['accounts', 'create', '--name', 'E2E Ltd', '--email', 'ops@e2e.example', '--credits', '50', '--json'],
      env,
    );
    const json = JSON.parse(created.stdout) as { account_id: string; client_id: string; client_secret: string };
    account = { accountId: json.account_id, clientId: json.client_id, clientSecret: json.client_secret };
    tokenFromFirstRun = (await fetchToken(server.url, account, 'client_secret_post')).access_token;
  });

  afterAll(async () => {
    await killLeftoverProcesses();
    await location?.drop();
  });

  it('prints the demo account once on a first start, with a curl line that works as printed', async () => {
    await server.waitForStdout((out) => out.includes('API reference:'), { what: 'the demo banner' });
    const out = server.stdout();
    expect(occurrences(out, BANNER)).toBe(1);

    const demo = parseBanner(out);
    expect(demo.accountId).toMatch(/^acc_/);
    expect(demo.clientId).toMatch(/^cli_/);
    expect(demo.clientSecret).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(out).toContain(`API reference: ${server.url}/docs`);

    // The curl line, run as printed (curl -d sends a form).
    expect(demo.curlUrl).toBe(`${server.url}/oauth/token`);
    expect(demo.curlForm).toEqual({ grant_type: 'client_credentials', client_id: demo.clientId, client_secret: demo.clientSecret });
    const token = await postForm(demo.curlUrl, demo.curlForm);
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });

    const balance = await api(server.url, 'GET', '/v1/account/balance', token.body.access_token);
    expect(balance.body).toEqual({ success: true, data: { credits: 1000, reserved: 0, available: 1000 } });

    // The secret is on standard output in the banner only (its own line and the curl line), never in a log record.
    expect(occurrences(out, demo.clientSecret)).toBe(2);
    const records = server.logRecords();
    expect(records.find((r) => r.msg === 'created the demo account')).toMatchObject({ client_id: demo.clientId });
    for (const record of records) expect(JSON.stringify(record)).not.toContain(demo.clientSecret);

    // The invite command, run with the settings it prints (the server was given a port of its own
    // and a DATABASE_URL), gives a link to this server that opens the page to choose a password.
    expect(out).toContain(`Dashboard: ${server.url}/dashboard\n`);
    const printed =
      /Invite yourself to it: ((?:[A-Z_]+=\S+ )*)npm run herald -- (users invite \S+ you@example\.com --role owner) \(with DATABASE_URL set as for the server\)\n/.exec(
        out,
      );
    const settings = Object.fromEntries(
      (printed?.[1] ?? '')
        .trim()
        .split(' ')
        .filter(Boolean)
        .map((word) => word.split('=', 2) as [string, string]),
    );
    expect(settings).toEqual({ PUBLIC_URL: server.url, ...(env.DATABASE_SCHEMA ? { DATABASE_SCHEMA: env.DATABASE_SCHEMA } : {}) });
    expect(printed?.[2]).toBe(`users invite ${demo.accountId} you@example.com --role owner`);
    const invited = await runCliOk([...(printed?.[2] ?? '').split(' '), '--json'], { ...env, ...settings });
    const link = new URL(JSON.parse(invited.stdout).link);
    expect(link.origin).toBe(server.url);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Choose your password');
    const unknown = await runCli(['users', 'two-step-off', 'nobody@example.com'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no user signs in as nobody@example.com');
  });

  it('answers /healthz and /readyz', async () => {
    const health = await api(server.url, 'GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok' });

    const ready = await api(server.url, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok' });
  });

  it('serves an OpenAPI 3.1 document and the API reference', async () => {
    const document = await api(server.url, 'GET', '/openapi.json');
    expect(document.status).toBe(200);
    expect(document.headers.get('content-type')).toMatch(/^application\/json/);
    expect(document.body.openapi).toBe('3.1.0');
    expect(Object.keys(document.body.paths)).toEqual(
      expect.arrayContaining([
        '/oauth/token',
        '/v1/sms/send',
        '/v1/sms/{message_id}',
        '/v1/messages/{message_id}',
        '/v1/account',
        '/v1/account/balance',
      ]),
    );

    const docs = await fetch(`${server.url}/docs`, { redirect: 'follow', signal: AbortSignal.timeout(10_000) });
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await docs.text()).toLowerCase()).toContain('<html');
  });

  it.each(AUTH_METHODS)('issues a token to openid-client by %s; the token sends an SMS and reads it back', async (method) => {
    const token = await fetchToken(server.url, account, method);
    expect(token.token_type).toBe('bearer'); // openid-client normalises the case
    expect(token.expires_in).toBe(3600);
    expect(token.scope?.split(' ')).toEqual(expect.arrayContaining(['sms:send', 'sms:read', 'account:read']));

    const text = `Hello from the e2e suite, authenticated by ${method}`;
    const sent = await api(server.url, 'POST', '/v1/sms/send', token.access_token, { to: '+14155550123', message: text });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      success: true,
      data: { to: '+14155550123', status: 'queued', segments: 1, credits_used: 1 },
    });
    const id: string = sent.body.data.message_id;
    expect(id).toMatch(/^msg_sms_/);

    const sms = await api(server.url, 'GET', `/v1/sms/${id}`, token.access_token);
    expect(sms.status).toBe(200);
    expect(sms.body).toMatchObject({
      success: true,
      data: { message_id: id, channel: 'sms', to: '+14155550123', message: text, segments: 1, credits_used: 1 },
    });
    expect(['queued', 'sent', 'delivered']).toContain(sms.body.data.status);

    const universal = await api(server.url, 'GET', `/v1/messages/${id}`, token.access_token);
    expect(universal.status).toBe(200);
    expect(universal.body).toMatchObject({ success: true, data: { message_id: id, channel: 'sms', to: '+14155550123', credits_used: 1 } });
    // The dispatch worker may move the message on between the two reads; the history tells the same story.
    const history: Array<{ status: string; timestamp: string }> = universal.body.data.status_history;
    expect(history[0]).toMatchObject({ status: 'queued' });
    expect(history.at(-1)?.status).toBe(universal.body.data.status);
    expect(history.map((h) => h.status)).toContain(sms.body.data.status);
  });

  it('never writes a client secret or an access token to its log', async () => {
    const tokens: string[] = [tokenFromFirstRun];
    for (const method of AUTH_METHODS) tokens.push((await fetchToken(server.url, account, method)).access_token);
    const wrongSecret = randomBytes(32).toString('base64url');
    const form = { grant_type: 'client_credentials', client_id: account.clientId };

    // Secrets where they are refused, too.
    expect((await tokenRequest(server.url, { ...form, client_secret: wrongSecret })).status).toBe(401);
    const basic = `Basic ${Buffer.from(`${account.clientId}:${wrongSecret}`).toString('base64')}`;
    expect((await tokenRequest(server.url, { grant_type: 'client_credentials' }, { authorization: basic })).status).toBe(401);
    expect((await tokenRequest(server.url, { ...form, client_secret: account.clientSecret, grant_type: 'password' })).status).toBe(400);
    expect((await tokenRequest(server.url, { ...form, client_secret: account.clientSecret, scope: 'no:such' })).status).toBe(400);
    // Tokens where they do not belong, and where they do.
    const [token] = tokens as [string];
    expect((await api(server.url, 'GET', `/v1/account?access_token=${token}`)).status).toBe(401);
    expect((await api(server.url, 'GET', '/v1/account', undefined, undefined, { authorization: `Token ${token}` })).status).toBe(401);
    expect((await api(server.url, 'GET', '/v1/nowhere', token)).status).toBe(404);
    expect((await api(server.url, 'POST', '/v1/sms/send', token, { to: 'not a number', message: 'x' })).status).toBe(422);
    const marker = `e2e-log-check-${randomBytes(6).toString('hex')}`;
    expect((await api(server.url, 'GET', '/v1/account', token, undefined, { 'x-request-id': marker })).status).toBe(200);

    // The requests were logged (so the check below looks at a log that saw them)...
    await server.waitForStdout((out) => out.includes(marker) && out.lastIndexOf('request completed') > out.indexOf(marker), {
      what: `the log record of request ${marker}`,
    });
    const records = server.logRecords();
    expect(records.filter((r) => (r.req as { url?: string } | undefined)?.url === '/oauth/token').length).toBeGreaterThanOrEqual(5);
    expect(records.some((r) => (r.req as { url?: string } | undefined)?.url === '/v1/account?access_token=[REDACTED]')).toBe(true);

    // ...and hold none of the secrets or tokens, whole or as the JWT's signature.
    const log = server.stdout() + server.stderr();
    for (const secret of [account.clientSecret, wrongSecret]) expect(log).not.toContain(secret);
    for (const t of tokens) {
      expect(log).not.toContain(t);
      expect(log).not.toContain(t.split('.')[2]);
    }
  });

  it('dispatches on a thread of its own, which stops with it on SIGTERM: exit code 0, "herald stopped" logged last', async () => {
    const started = server.logRecords().find((r) => r.msg === 'dispatch worker started');
    expect(started).toMatchObject({ thread: 'dispatch', database: dialect });
    const exit = await server.stop();
    expect(exit).toEqual({ code: 0, signal: null });
    const messages = server.logRecords().map((r) => r.msg);
    expect(messages).toContain('shutting down');
    expect(server.logRecords().find((r) => r.msg === 'dispatch worker stopped')).toMatchObject({ thread: 'dispatch' });
    expect(messages.at(-1)).toBe('herald stopped');
    expect(server.stderr()).toBe('');
    await expect(fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5_000) })).rejects.toThrow();
  });

  it('restarted on the same database, prints no demo account and honours tokens issued before', async () => {
    await server.stop(); // a no-op unless the test before failed early
    const second = await startServer(env);
    try {
      const me = await api(second.url, 'GET', '/v1/account', tokenFromFirstRun);
      expect(me.status).toBe(200);
      expect(me.body.data).toMatchObject({ name: 'E2E Ltd', email: 'ops@e2e.example' });
      const demo = parseBanner(server.stdout());
      expect(
        (await tokenRequest(second.url, { grant_type: 'client_credentials', client_id: demo.clientId, client_secret: demo.clientSecret }))
          .status,
      ).toBe(200);
    } finally {
      expect(await second.stop()).toEqual({ code: 0, signal: null });
    }
    expect(second.stdout()).not.toContain(BANNER);
    expect(second.stdout()).not.toContain('client_secret');
    // It names the demo account, with the command for a new secret pointing at the port it bound (PORT=0 here).
    expect(second.stdout()).toMatch(
      new RegExp(
        `Lost it\\? Make a new one: (DATABASE_SCHEMA=\\w+ )?PUBLIC_URL=${second.url.replaceAll('.', '\\.')} npm run herald -- clients rotate-secret`,
      ),
    );
    expect(second.stdout()).not.toContain(':0 npm run herald');
    const messages = second.logRecords().map((r) => r.msg);
    expect(messages).not.toContain('created the demo account');
    expect(messages).not.toContain('applied migrations');
    expect(messages.at(-1)).toBe('herald stopped');
  });

  it('with DISPATCH_THREAD=false dispatches on its one event loop, and delivers all the same', async () => {
    await server.stop();
    const single = await startServer({ ...env, DISPATCH_THREAD: 'false', DEMO_ACCOUNT: 'false' });
    try {
      const started = single.logRecords().find((r) => r.msg === 'dispatch worker started');
      expect(started).toBeDefined();
      expect(started?.thread).toBeUndefined();
      const token = (await fetchToken(single.url, account, 'client_secret_post')).access_token;
      const sent = await api(single.url, 'POST', '/v1/sms/send', token, { to: '+14155550123', message: 'one loop' });
      expect(sent.status).toBe(200);
      const id = (sent.body.data as { message_id: string }).message_id;
      await vi.waitFor(
        async () => {
          const read = await api(single.url, 'GET', `/v1/messages/${id}`, token);
          expect((read.body.data as { status: string }).status).toMatch(/^(sent|delivered)$/);
        },
        { timeout: 10_000, interval: 50 },
      );
    } finally {
      expect(await single.stop()).toEqual({ code: 0, signal: null });
    }
  });
});
