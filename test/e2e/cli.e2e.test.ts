import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ALL_SCOPES } from '../channels.js';
import { allocateDatabase, describeEachDialect, type TestDatabaseLocation } from '../databases.js';
import { type HeraldServer, heraldEnv, killLeftoverProcesses, type ProcessEnv, runCli, runCliOk, startServer } from '../process.js';
import { api, fetchToken, tokenRequest } from './api.js';

/**
 * The operator's CLI (`node dist/main/cli.js ...`) against the same database as a running server,
 * checked through the server's HTTP API: what the CLI says it did is what the API then does.
 */

interface CreatedJson {
  account_id: string;
  client_id: string;
  client_secret: string;
  name: string;
  email: string;
  plan: string;
  scopes: string[];
  credits: number;
}

interface ListedJson {
  account_id: string;
  client_ids: string[];
  name: string;
  email: string;
  plan: string;
  credits: number;
  reserved: number;
  created_at: string;
}

interface Credentials {
  clientId: string;
  clientSecret: string;
}

const credentialsOf = (created: { client_id: string; client_secret: string }): Credentials => ({
  clientId: created.client_id,
  clientSecret: created.client_secret,
});

describeEachDialect('herald CLI, next to a running server', (dialect) => {
  let location: TestDatabaseLocation;
  let env: ProcessEnv;
  let server: HeraldServer;
  let serial = 0;

  const herald = (...args: string[]) => runCli(args, env);
  const heraldOk = (...args: string[]) => runCliOk(args, env);

  async function createAccount(...options: string[]): Promise<CreatedJson> {
    serial++;
    const result = await heraldOk(
      'accounts',
      'create',
      '--name',
      `CLI account ${serial}`,
      '--email',
      `cli${serial}@example.com`,
      ...options,
      '--json',
    );
    return JSON.parse(result.stdout) as CreatedJson;
  }

  async function listAccounts(): Promise<ListedJson[]> {
    return JSON.parse((await heraldOk('accounts', 'list', '--json')).stdout) as ListedJson[];
  }

  /** Token through openid-client (client_secret_basic). */
  const tokenFor = async (credentials: Credentials, scope?: string) =>
    (await fetchToken(server.url, credentials, 'client_secret_basic', scope)).access_token;

  const balanceOf = async (token: string) => (await api(server.url, 'GET', '/v1/account/balance', token)).body.data;

  /** What the token endpoint says to a client_secret_post request. */
  const tokenStatus = async (credentials: Credentials) =>
    (
      await tokenRequest(server.url, {
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      })
    ).status;

  beforeAll(async () => {
    location = allocateDatabase(dialect);
    env = heraldEnv(location);
    // No demo account: every account in this store is one the CLI made.
    server = await startServer({ ...env, DEMO_ACCOUNT: 'false' });
  });

  afterAll(async () => {
    try {
      if (server) expect(await server.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await killLeftoverProcesses();
      await location?.drop();
    }
  });

  describe('accounts create', () => {
    it('--json prints the new account with its client secret, which works at the token endpoint', async () => {
      const created = await createAccount();
      expect(created).toMatchObject({ name: `CLI account ${serial}`, email: `cli${serial}@example.com`, plan: 'developer', credits: 0 });
      expect(created.account_id).toMatch(/^acc_/);
      expect(created.client_id).toMatch(/^cli_/);
      expect(created.client_secret).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      expect(created.scopes).toEqual([...ALL_SCOPES]);

      const token = await fetchToken(server.url, credentialsOf(created), 'client_secret_post');
      expect(token.scope?.split(' ').sort()).toEqual([...ALL_SCOPES].sort());
      const me = await api(server.url, 'GET', '/v1/account', token.access_token);
      expect(me.body).toMatchObject({
        success: true,
        data: { client_id: created.client_id, account_id: created.account_id, name: created.name, email: created.email, plan: 'developer' },
      });
    });

    it('without --json prints the credentials as lines, and the secret works', async () => {
      const result = await heraldOk('accounts', 'create', '--name', 'Plain Output', '--email', 'plain@example.com');
      const value = (name: string) => new RegExp(`^${name} +(\\S+)$`, 'm').exec(result.stdout)?.[1];
      const clientId = value('client_id');
      const clientSecret = value('client_secret');
      expect(value('account_id')).toMatch(/^acc_/);
      expect(clientId).toMatch(/^cli_/);
      expect(result.stdout).toContain('shown only now');
      expect(await tokenStatus({ clientId: clientId ?? '', clientSecret: clientSecret ?? '' })).toBe(200);
    });

    it('--credits 12.5 --plan business opens the account with 12.5 credits on that plan', async () => {
      const created = await createAccount('--credits', '12.5', '--plan', 'business');
      expect(created).toMatchObject({ plan: 'business', credits: 12.5 });
      const token = await tokenFor(credentialsOf(created));
      expect(await balanceOf(token)).toEqual({ credits: 12.5, reserved: 0, available: 12.5 });
      expect((await api(server.url, 'GET', '/v1/account', token)).body.data.plan).toBe('business');
    });

    it('--credits 0 opens the account with nothing, as leaving --credits out does', async () => {
      for (const created of [await createAccount('--credits', '0'), await createAccount()]) {
        expect(created).toMatchObject({ credits: 0 });
        expect(await balanceOf(await tokenFor(credentialsOf(created)))).toEqual({ credits: 0, reserved: 0, available: 0 });
      }
    });

    it('--scopes restricts what its tokens may get and do', async () => {
      const created = await createAccount('--scopes', 'sms:send account:read', '--credits', '5');
      expect(created.scopes).toEqual(['sms:send', 'account:read']);
      const credentials = credentialsOf(created);

      const token = await fetchToken(server.url, credentials, 'client_secret_post');
      expect(token.scope).toBe('sms:send account:read');
      expect((await fetchToken(server.url, credentials, 'client_secret_basic', 'account:read')).scope).toBe('account:read');
      await expect(fetchToken(server.url, credentials, 'client_secret_post', 'sms:send sms:read')).rejects.toMatchObject({
        error: 'invalid_scope',
        status: 400,
      });

      const sent = await api(server.url, 'POST', '/v1/sms/send', token.access_token, { to: '+14155550124', message: 'scoped' });
      expect(sent.status).toBe(200);
      const id: string = sent.body.data.message_id;
      for (const path of [`/v1/sms/${id}`, `/v1/messages/${id}`]) {
        const read = await api(server.url, 'GET', path, token.access_token);
        expect(read.status, path).toBe(403);
        expect(read.body.error.code, path).toBe('INSUFFICIENT_SCOPE');
      }
      expect(await balanceOf(token.access_token)).toMatchObject({ available: 4 }); // the send went through: 1 credit
    });

    it('refuses bad input with exit code 1 and a clear message, and creates nothing', async () => {
      const before = await listAccounts();
      const base = ['accounts', 'create', '--name', 'Bad Input', '--email', 'bad@example.com', '--json'];
      const cases: Array<{ args: string[]; message: RegExp }> = [
        { args: ['--scopes', 'sms:send fly:away'], message: /--scopes.*is invalid.*unknown scope fly:away/ },
        { args: ['--plan', 'gold'], message: /--plan.*'gold' is invalid.*developer, business, enterprise/ },
        { args: ['--email', 'not-an-email'], message: /--email.*'not-an-email' is invalid.*e-mail address/ },
        { args: ['--name', '  '], message: /--name.*is invalid.*must not be empty/ },
        { args: ['--credits', '-5'], message: /--credits.*'-5' is invalid.*number of credits from 0/ },
        { args: ['--credits', 'ten'], message: /--credits.*'ten' is invalid.*number of credits from 0/ },
        // More micro-credits than a JavaScript number counts exactly.
        { args: ['--credits', '99999999999'], message: /--credits.*'99999999999' is invalid.*up to 9007199254\.740991/ },
      ];
      // Argument errors never reach the store, so these may run side by side.
      const results = await Promise.all(cases.map((c) => herald(...base, ...c.args)));
      results.forEach((result, i) => {
        const { args, message } = cases[i] as (typeof cases)[number];
        const label = args.join(' ');
        expect(result.code, label).toBe(1);
        expect(result.stderr, label).toMatch(message);
        expect(result.stderr, label).not.toMatch(/\n\s+at /); // a message, not a stack trace
        expect(result.stdout, label).not.toContain('client_secret');
      });
      expect(await listAccounts()).toEqual(before);
    });
  });

  it('accounts list --json lists every account with its clients, plan and balance', async () => {
    const a = await createAccount('--credits', '3', '--plan', 'enterprise');
    const listed = await listAccounts();
    expect(listed.length).toBe(serial + 1); // the CLI accounts plus the one made without --json
    expect(listed.find((l) => l.account_id === a.account_id)).toEqual({
      account_id: a.account_id,
      client_ids: [a.client_id],
      name: a.name,
      email: a.email,
      plan: 'enterprise',
      credits: 3,
      reserved: 0,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    });
    expect(new Set(listed.map((l) => l.account_id)).size).toBe(listed.length);
    // Nothing in the list is a secret.
    expect(JSON.stringify(listed)).not.toContain(a.client_secret);
  });

  it('credits add works by account id and by client id, and refuses unknown accounts', async () => {
    const created = await createAccount('--credits', '1');
    const token = await tokenFor(credentialsOf(created));

    const byAccount = await heraldOk('credits', 'add', created.account_id, '2.5');
    expect(byAccount.stdout.trim()).toBe(`${created.account_id}: credits=3.5 available=3.5`);
    const byClient = await heraldOk('credits', 'add', created.client_id, '0.25');
    expect(byClient.stdout.trim()).toBe(`${created.account_id}: credits=3.75 available=3.75`);
    expect(await balanceOf(token)).toEqual({ credits: 3.75, reserved: 0, available: 3.75 });

    const unknowns = ['acc_00000000000000000000000000', 'cli_000000000000000000000000'];
    const refusals = await Promise.all(unknowns.map((unknown) => herald('credits', 'add', unknown, '5')));
    refusals.forEach((result, i) => {
      expect(result.code, unknowns[i]).toBe(1);
      expect(result.stderr.trim(), unknowns[i]).toBe(`herald: no account ${unknowns[i]}`);
    });
    expect(await balanceOf(token)).toMatchObject({ credits: 3.75 });
  });

  it('accounts suspend stops the account on the running server at once (its token and new tokens refused); reinstate restores it', async () => {
    const created = await createAccount('--credits', '1');
    const token = await tokenFor(credentialsOf(created));
    expect((await heraldOk('accounts', 'suspend', created.client_id)).stdout.trim()).toBe(`${created.account_id}: suspended`);
    const refused = await api(server.url, 'GET', '/v1/account', token);
    expect(refused.status).toBe(403);
    expect((refused.body as { error: { code: string } }).error.code).toBe('ACCOUNT_SUSPENDED');
    expect(await tokenStatus(credentialsOf(created))).toBe(403);
    expect((await heraldOk('accounts', 'show', created.account_id)).stdout).toMatch(/plan +developer +\(suspended since \d{4}-/);

    expect((await heraldOk('accounts', 'reinstate', created.account_id)).stdout.trim()).toBe(`${created.account_id}: reinstated`);
    expect((await api(server.url, 'GET', '/v1/account', token)).status).toBe(200);
    const unknown = await herald('accounts', 'suspend', 'acc_00000000000000000000000000');
    expect(unknown.code).toBe(1);
  });

  it('operators add prints a password once, with which the operator signs in to the running server; operators remove ends it', async () => {
    const email = `ops-${dialect}@example.com`;
    const added = await heraldOk('operators', 'add', email);
    const password = /^password +(\S+)$/m.exec(added.stdout)?.[1] ?? '';
    expect(added.stdout).toContain('/dashboard/operator/sign-in');
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await heraldOk('operators', 'list')).stdout).toContain(email);

    // The sign-in page, as a browser: its CSRF cookie and token, then the form.
    const form = await fetch(`${server.url}/dashboard/operator/sign-in`);
    const csrfCookie = (form.headers.getSetCookie().find((c) => c.startsWith('herald_csrf=')) ?? '').split(';')[0] ?? '';
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
    const signIn = await fetch(`${server.url}/dashboard/operator/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
      body: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
    });
    expect(signIn.status).toBe(303);
    const session = (signIn.headers.getSetCookie().find((c) => c.startsWith('herald_operator=')) ?? '').split(';')[0] ?? '';
    const accountsPage = await fetch(`${server.url}/dashboard/operator`, { redirect: 'manual', headers: { cookie: session } });
    expect(accountsPage.status).toBe(200);

    expect((await heraldOk('operators', 'remove', email)).stdout.trim()).toBe(`Removed operator ${email}.`);
    expect((await fetch(`${server.url}/dashboard/operator`, { redirect: 'manual', headers: { cookie: session } })).status).toBe(303);
    expect((await herald('operators', 'add', 'not-an-address')).stderr).toContain('must be an email address');
  });

  it('clients rotate-secret by account id and by client id: the old secret stops working, the new one works, earlier tokens stay valid', async () => {
    const created = await createAccount();
    const original = credentialsOf(created);
    const tokenBefore = await tokenFor(original);

    // By account id, JSON.
    const first = await heraldOk('clients', 'rotate-secret', created.account_id, '--json');
    const rotated = JSON.parse(first.stdout) as { client_id: string; client_secret: string };
    expect(rotated.client_id).toBe(created.client_id);
    expect(rotated.client_secret).not.toBe(created.client_secret);
    const second = credentialsOf(rotated);
    expect(await tokenStatus(original)).toBe(401);
    expect(await tokenStatus(second)).toBe(200);

    // By client id, as text.
    const again = await heraldOk('clients', 'rotate-secret', created.client_id);
    const newest = /^client_secret +(\S+)$/m.exec(again.stdout)?.[1];
    expect(newest).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(again.stdout).toMatch(new RegExp(`^client_id +${created.client_id}$`, 'm'));
    const third = { clientId: created.client_id, clientSecret: newest ?? '' };
    expect(await tokenStatus(second)).toBe(401);
    expect(await tokenStatus(original)).toBe(401);
    expect(await tokenStatus(third)).toBe(200);
    await expect(fetchToken(server.url, second, 'client_secret_basic')).rejects.toThrow();
    expect(await fetchToken(server.url, third, 'client_secret_basic')).toMatchObject({ token_type: 'bearer' });

    // The token from before both rotations still works: a new secret revokes no token (docs/authentication.md).
    expect((await api(server.url, 'GET', '/v1/account', tokenBefore)).status).toBe(200);

    // --grace keeps the replaced secret working for that long.
    const graced = JSON.parse((await heraldOk('clients', 'rotate-secret', created.client_id, '--grace', '24', '--json')).stdout) as {
      client_secret: string;
      previous_secret_until: string;
    };
    expect(Date.parse(graced.previous_secret_until) - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(await tokenStatus(third)).toBe(200);
    expect(await tokenStatus({ clientId: created.client_id, clientSecret: graced.client_secret })).toBe(200);

    const unknown = await herald('clients', 'rotate-secret', 'cli_000000000000000000000000');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('herald: no account or client cli_000000000000000000000000');
  });

  it('migrate applies the migrations to a fresh store once, then says the store is up to date', async () => {
    // The server's store is current already.
    expect((await heraldOk('migrate')).stdout.trim()).toBe('the store is up to date');

    const fresh = allocateDatabase(dialect);
    try {
      const freshEnv = heraldEnv(fresh);
      expect((await runCliOk(['migrate'], freshEnv)).stdout.trim()).toMatch(/^applied: 0001-initial/);
      expect((await runCliOk(['migrate'], freshEnv)).stdout.trim()).toBe('the store is up to date');
    } finally {
      await fresh.drop();
    }
  });

  it('works on the same store while the server is busy writing to it', async () => {
    const created = await createAccount('--credits', '100');
    const token = await tokenFor(credentialsOf(created));
    const sends = Array.from({ length: 20 }, (_, i) =>
      api(server.url, 'POST', '/v1/sms/send', token, { to: '+14155550125', message: `busy ${i}` }),
    );
    const [topUp, another, ...answers] = await Promise.all([
      herald('credits', 'add', created.client_id, '10'),
      herald('accounts', 'create', '--name', 'Concurrent', '--email', 'concurrent@example.com', '--json'),
      ...sends,
    ]);
    expect(topUp.code, topUp.stderr).toBe(0);
    expect(another.code, another.stderr).toBe(0);
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect((await balanceOf(token)).available).toBe(90); // 100 + 10 - 20 sends of 1 credit
    expect(await tokenStatus(credentialsOf(JSON.parse(another.stdout) as CreatedJson))).toBe(200);
  });

  it('keys rotate, then keys list shows one active and one retired key; tokens from before keep working', async () => {
    const created = await createAccount();
    const tokenBefore = await tokenFor(credentialsOf(created));
    const keyLine = /^(key_\S+) +(\S+) +created (\S+) +(active|retired (\S+))$/;

    // The key that signed it, from the JWT header.
    const oldKid = (JSON.parse(Buffer.from(tokenBefore.split('.')[0] ?? '', 'base64url').toString()) as { kid: string }).kid;
    expect(oldKid).toMatch(/^key_/);

    const rotated = await heraldOk('keys', 'rotate');
    const newKid = /^signing with (key_\S+)$/.exec(rotated.stdout.trim())?.[1];
    expect(newKid).toBeDefined();
    expect(newKid).not.toBe(oldKid);

    const lines = (await heraldOk('keys', 'list')).stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    const keys = lines.map((line) => {
      const match = keyLine.exec(line);
      if (!match) throw new Error(`unexpected keys list line: ${line}`);
      return { kid: match[1], algorithm: match[2], state: match[4]?.startsWith('retired') ? 'retired' : 'active' };
    });
    expect(keys.filter((k) => k.state === 'active').map((k) => k.kid)).toEqual([newKid]);
    expect(keys.filter((k) => k.state === 'retired').map((k) => k.kid)).toEqual([oldKid]);
    for (const key of keys) expect(key.algorithm).toBe('EdDSA');

    expect((await api(server.url, 'GET', '/v1/account', tokenBefore)).status).toBe(200);
    const tokenAfter = await tokenFor(credentialsOf(created));
    expect((await api(server.url, 'GET', '/v1/account', tokenAfter)).status).toBe(200);
  });
});

describe('herald CLI, when the store cannot be reached', () => {
  const unreachable = (databaseUrl: string): ProcessEnv => ({ ...heraldEnv({ url: databaseUrl, schema: undefined }), LOG_LEVEL: 'silent' });
  const postgresUrl = inject('postgresUrl');

  it('says why in one line with exit code 1, for a management command and for serve', async () => {
    const cases: Array<{ args: string[]; env: ProcessEnv; stderr: string }> = [
      {
        args: ['accounts', 'list'],
        env: unreachable('postgres://postgres@127.0.0.1:1/herald'),
        stderr: 'herald: connect ECONNREFUSED 127.0.0.1:1\n',
      },
      { args: ['serve'], env: unreachable('postgres://postgres@127.0.0.1:1/herald'), stderr: 'herald: connect ECONNREFUSED 127.0.0.1:1\n' },
    ];
    if (postgresUrl) {
      // The run's own PostgreSQL, asked for a database it does not have.
      const missing = new URL(postgresUrl);
      missing.pathname = `/herald_no_such_database_${process.pid}`;
      cases.push({
        args: ['accounts', 'list'],
        env: unreachable(missing.toString()),
        stderr: `herald: database "herald_no_such_database_${process.pid}" does not exist\n`,
      });
    }
    const results = await Promise.all(cases.map((c) => runCli(c.args, c.env, { timeoutMs: 30_000 })));
    results.forEach((result, i) => {
      const { args, stderr } = cases[i] as (typeof cases)[number];
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toBe(stderr);
    });
  });
});
