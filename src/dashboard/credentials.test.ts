import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { signedIn } from '../../test/dashboard-visitor.js';
import { describeEachDialect } from '../../test/databases.js';

describeEachDialect('the dashboard: API clients', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { security: { production: false, trustedProxies: ['127.0.0.1/32'] } });
  });
  afterAll(() => t.close());

  const tokenRequest = (clientId: string, clientSecret: string, scope?: string) => t.tokenRequest(clientId, clientSecret, scope);
  /** The regenerate form's marker of the secret it replaces, as the page gives it. */
  const markerIn = (body: string) => /name="secret_of" value="([0-9a-f]+)"/.exec(body)?.[1] ?? '';
  const shownSecret = (body: string) => /data-testid="new-secret">(hsec_[A-Za-z0-9_-]+)</.exec(body)?.[1] ?? '';

  it('a developer creates a named client limited to some scopes; its secret is shown once and gets only those scopes', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account, 'developer');
    await visitor.get('/dashboard/credentials');
    const created = await visitor.follow(
      await visitor.post('/dashboard/credentials', { name: 'Reports', limit: 'some', scopes: ['sms:read', 'account:read'] }),
    );
    expect(created.statusCode).toBe(200);
    const secret = shownSecret(created.body);
    const client = (await t.store.accounts.listClients(account.account.id)).find((c) => c.name === 'Reports');
    expect(client?.scopes).toEqual(
      ['sms:read', 'account:read'].sort((a, b) => (client?.scopes ?? []).indexOf(a) - (client?.scopes ?? []).indexOf(b)),
    );
    expect(created.body).toContain(client?.clientId);
    const token = await tokenRequest(client?.clientId ?? '', secret);
    expect(token.statusCode).toBe(200);
    expect(token.json().scope.split(' ').sort()).toEqual(['account:read', 'sms:read']);
    expect((await tokenRequest(client?.clientId ?? '', secret, 'sms:send')).json().error).toBe('invalid_scope');

    // Shown once: the page afterwards lists the client, never its secret.
    const listed = await visitor.get('/dashboard/credentials');
    expect(listed.body).toContain('Reports');
    expect(listed.body).toContain('sms:read, account:read');
    expect(listed.body).not.toContain(secret);
  });

  it('shows a new secret in the answer itself when it cannot be kept for the page after (a store hiccup): made once, never lost', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account, 'developer');
    await visitor.get('/dashboard/credentials');
    const keepNote = t.store.users.keepNote;
    t.store.users.keepNote = async () => {
      throw new Error('the store hiccuped');
    };
    let answer: Awaited<ReturnType<typeof visitor.post>>;
    try {
      answer = await visitor.post('/dashboard/credentials', { name: 'Hiccup', limit: 'all' });
    } finally {
      t.store.users.keepNote = keepNote;
    }
    expect(answer.statusCode).toBe(200);
    const secret = shownSecret(answer.body);
    const made = (await t.store.accounts.listClients(account.account.id)).filter((c) => c.name === 'Hiccup');
    expect(made).toHaveLength(1);
    expect((await tokenRequest(made[0]?.clientId ?? '', secret)).statusCode).toBe(200);
  });

  it('gives a client the scopes ticked, even with "all" left marked (it granted every scope)', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account, 'developer');
    await visitor.get('/dashboard/credentials');
    expect((await visitor.post('/dashboard/credentials', { name: 'Ticked', limit: 'all', scopes: 'sms:read' })).statusCode).toBe(303);
    expect((await t.store.accounts.listClients(account.account.id)).find((c) => c.name === 'Ticked')?.scopes).toEqual(['sms:read']);
  });

  it('a bad form (no name, no scope chosen) comes back with the problem in words and creates nothing', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account);
    await visitor.get('/dashboard/credentials');
    const noName = await visitor.post('/dashboard/credentials', { name: ' ', limit: 'all' });
    expect(noName.statusCode).toBe(422);
    expect(noName.body).toContain('name: must be 1 to 100 characters');
    const noScope = await visitor.post('/dashboard/credentials', { name: 'x', limit: 'some' });
    expect(noScope.body).toContain('choose at least one scope');
    const foreign = await visitor.post('/dashboard/credentials', { name: 'x', limit: 'some', scopes: 'root:everything' });
    expect(foreign.statusCode).toBe(422);
    expect(await t.store.accounts.listClients(account.account.id)).toHaveLength(1);
  });

  it('a refused new client comes back with its name, "only these" and the scopes ticked, so sending it again cannot grant every scope', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account);
    await visitor.get('/dashboard/credentials');
    const name = `Reports ${'x'.repeat(100)}`;
    const refused = await visitor.post('/dashboard/credentials', { name, limit: 'some', scopes: ['sms:read', 'account:read'] });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('name: must be 1 to 100 characters');
    expect(refused.body).toContain(`name="name" required maxlength="100" placeholder="Billing service" value="${name}"`);
    expect(refused.body).toMatch(/name="limit" value="some" checked/);
    expect(refused.body).not.toMatch(/name="limit" value="all" checked/);
    expect(refused.body).toMatch(/name="scopes" value="sms:read" checked/);
    expect(refused.body).toMatch(/name="scopes" value="account:read" checked/);
    expect(refused.body).not.toMatch(/name="scopes" value="sms:send" checked/);

    // "Only these" with nothing ticked stays so: the same refusal again, never every scope.
    const noneTicked = await visitor.post('/dashboard/credentials', { name: 'Ticked none', limit: 'some' });
    expect(noneTicked.statusCode).toBe(422);
    expect(noneTicked.body).toMatch(/name="limit" value="some" checked/);
    expect(noneTicked.body).not.toMatch(/name="scopes" value="[^"]+" checked/);
    // A fresh page starts from "all", nothing ticked.
    const fresh = await visitor.get('/dashboard/credentials');
    expect(fresh.body).toMatch(/name="limit" value="all" checked/);
    expect(fresh.body).not.toMatch(/name="scopes" value="[^"]+" checked/);
    expect(await t.store.accounts.listClients(account.account.id)).toHaveLength(1);
  });

  it('a secret regenerated with a grace period leaves the old one working until then, and the page says until when', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account);
    const page = await visitor.get('/dashboard/credentials');
    const rotated = await visitor.follow(
      await visitor.post(`/dashboard/credentials/${account.clientId}/rotate`, {
        secret_of: markerIn(page.body),
        grace: String(24 * 3600_000),
      }),
    );
    expect(rotated.statusCode).toBe(200);
    const until = new Date(t.clock.now() + 24 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
    expect(rotated.body).toContain(`The old secret keeps working until ${until} UTC`);
    expect((await tokenRequest(account.clientId, account.clientSecret)).statusCode).toBe(200);
    expect((await tokenRequest(account.clientId, shownSecret(rotated.body))).statusCode).toBe(200);
    const bogus = await visitor.post(`/dashboard/credentials/${account.clientId}/rotate`, {
      secret_of: markerIn(rotated.body),
      grace: '99999999999',
    });
    expect(bogus.statusCode).toBe(422);
    expect(bogus.body).toContain('must be between none and 7 days');
    t.clock.advance(24 * 3600_000);
    expect((await tokenRequest(account.clientId, account.clientSecret)).statusCode).toBe(401);
  });

  it('the same regenerate form sent twice at once makes one new secret; the other answer says it was already done', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account);
    const page = await visitor.get('/dashboard/credentials');
    const form = { secret_of: markerIn(page.body), grace: String(3600_000) };
    const answers = await Promise.all([
      visitor.post(`/dashboard/credentials/${account.clientId}/rotate`, form),
      visitor.post(`/dashboard/credentials/${account.clientId}/rotate`, form),
    ]);
    expect(answers.filter((a) => a.statusCode === 303)).toHaveLength(1);
    const shown = await Promise.all(answers.filter((a) => a.statusCode === 303).map((a) => visitor.follow(a)));
    const secrets = shown.map((a) => shownSecret(a.body)).filter((secret) => secret !== '');
    expect(secrets).toHaveLength(1);
    expect(answers.some((a) => a.body.includes('already regenerated'))).toBe(true);
    // The original keeps its grace period; the one new secret works.
    expect((await tokenRequest(account.clientId, account.clientSecret)).statusCode).toBe(200);
    expect((await tokenRequest(account.clientId, secrets[0] ?? '')).statusCode).toBe(200);
    // While it runs, regenerating again asks first: it would end that grace period.
    expect((await visitor.get('/dashboard/credentials')).body).toContain('still works until');
  });

  it('revoking a client stops its token at once; a viewer can do none of it; another account’s client is 404', async () => {
    const account = await t.createAccount();
    const owner = await signedIn(t, account);
    const viewer = await signedIn(t, account, 'viewer');
    const token = await t.tokenFor(account);

    await viewer.visitor.get('/dashboard/credentials');
    expect((await viewer.visitor.post('/dashboard/credentials', { name: 'sneaky', limit: 'all' })).statusCode).toBe(403);
    expect((await viewer.visitor.post(`/dashboard/credentials/${account.clientId}/revoke`)).statusCode).toBe(403);

    const other = await t.createAccount();
    // Revoking asks first (assets/dashboard.js), as it cannot be undone.
    expect((await owner.visitor.get('/dashboard/credentials')).body).toContain('data-confirm="Revoke Default?');
    expect((await owner.visitor.post(`/dashboard/credentials/${other.clientId}/revoke`)).statusCode).toBe(404);
    expect((await t.call('GET', '/v1/account/balance', await t.tokenFor(other))).statusCode).toBe(200);

    const revoked = await owner.visitor.post(`/dashboard/credentials/${account.clientId}/revoke`);
    expect(revoked.statusCode).toBe(303);
    expect((await t.call('GET', '/v1/account/balance', token)).statusCode).toBe(401);
    const page = await owner.visitor.get('/dashboard/credentials');
    expect(page.body).toContain('This account has no API clients');
    const security = await owner.visitor.get('/dashboard/security');
    expect(security.body).toContain('client.revoked');
  });
});
