import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { signedIn, Visitor } from '../../test/dashboard-visitor.js';
import { describeEachDialect } from '../../test/databases.js';
import { SHOWN_ONCE_TTL_MS } from '../core/users/shown-once.js';

/** Forms that make something and show a secret once: POST-redirect-GET, the secret kept sealed for the session in between. */
describeEachDialect('the dashboard: secrets shown once after a redirect', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { security: { production: false, trustedProxies: ['127.0.0.1/32'] } });
  });
  afterAll(() => t.close());

  const secretIn = (body: string) => /data-testid="new-secret">(hsec_[A-Za-z0-9_-]+)</.exec(body)?.[1] ?? '';
  const clientsOf = async (accountId: string) => (await t.store.accounts.listClients(accountId)).length;

  it('a new API client redirects to the page that shows its secret once; reloading it shows nothing and creates nothing', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account, 'developer');
    await visitor.get('/dashboard/credentials');
    const created = await visitor.post('/dashboard/credentials', { name: 'Billing', limit: 'all' });
    expect(created.statusCode).toBe(303);
    const location = String(created.headers.location);
    expect(location).toMatch(/^\/dashboard\/credentials\?shown=shw_[\w-]{22}$/);

    const shown = await visitor.get(location);
    expect(shown.statusCode).toBe(200);
    const secret = secretIn(shown.body);
    expect(secret).not.toBe('');
    expect(location).not.toContain(secret);
    const client = (await t.store.accounts.listClients(account.account.id)).find((c) => c.name === 'Billing');
    expect((await t.tokenRequest(client?.clientId ?? '', secret)).statusCode).toBe(200);

    // A reload (the browser asks for the GET again, never the POST) shows no secret and makes no client.
    const reloaded = await visitor.get(location);
    expect(reloaded.statusCode).toBe(200);
    expect(reloaded.body).not.toContain(secret);
    expect(reloaded.body).toContain('cannot be shown again; nothing was made now');
    expect(await clientsOf(account.account.id)).toBe(2);
  });

  it('two opens of the same page at once show the secret once between them (the read deletes it in one statement)', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account, 'developer');
    await visitor.get('/dashboard/credentials');
    const location = String((await visitor.post('/dashboard/credentials', { name: 'Twice', limit: 'all' })).headers.location);
    const opens = await Promise.all(Array.from({ length: 4 }, () => visitor.get(location)));
    expect(opens.map((o) => o.statusCode)).toEqual([200, 200, 200, 200]);
    expect(opens.filter((o) => secretIn(o.body) !== '')).toHaveLength(1);
  });

  it('a regenerated secret is shown once after the redirect, and not again on reload', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account);
    const page = await visitor.get('/dashboard/credentials');
    const marker = /name="secret_of" value="([0-9a-f]+)"/.exec(page.body)?.[1] ?? '';
    const rotated = await visitor.post(`/dashboard/credentials/${account.clientId}/rotate`, { secret_of: marker, grace: '0' });
    expect(rotated.statusCode).toBe(303);
    const shown = await visitor.follow(rotated);
    const secret = secretIn(shown.body);
    expect((await t.tokenRequest(account.clientId, secret)).statusCode).toBe(200);
    expect((await visitor.get(String(rotated.headers.location))).body).not.toContain(secret);
    expect((await t.tokenRequest(account.clientId, secret)).statusCode).toBe(200);
  });

  it("shows the secret to no other session, not even the same user's other browser, and holds it sealed in the store", async () => {
    const account = await t.createAccount();
    const { visitor, email } = await signedIn(t, account);
    await visitor.get('/dashboard/credentials');
    const created = await visitor.post('/dashboard/credentials', { name: 'Sealed', limit: 'all' });
    const location = String(created.headers.location);

    const rows = await t.database.db.selectFrom('shown_once').selectAll().execute();
    const row = rows.find((r) => location.endsWith(r.id));
    expect(row?.session_hash).toMatch(/^[0-9a-f]{64}$/);

    const other = new Visitor(t);
    await other.get('/dashboard/sign-in');
    expect((await other.post('/dashboard/sign-in', { email, password: 'a long enough password' })).statusCode).toBe(303);
    const elsewhere = await other.get(location);
    expect(elsewhere.statusCode).toBe(200);
    expect(secretIn(elsewhere.body)).toBe('');

    // Still there for the session that made it; what the store held was not the secret.
    const secret = secretIn((await visitor.get(location)).body);
    expect(secret).toMatch(/^hsec_/);
    expect(row?.sealed).not.toContain(secret);
    expect(Buffer.from(row?.sealed ?? '', 'base64url').toString('latin1')).not.toContain(secret);
    expect(
      (
        await t.database.db
          .selectFrom('shown_once')
          .select('id')
          .where('id', '=', row?.id ?? '')
          .execute()
      ).length,
    ).toBe(0);
  });

  it('a secret not opened within its time is gone; a made-up id shows nothing and is no error', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account);
    await visitor.get('/dashboard/credentials');
    const created = await visitor.post('/dashboard/credentials', { name: 'Late', limit: 'all' });
    t.clock.advance(SHOWN_ONCE_TTL_MS);
    const late = await visitor.get(String(created.headers.location));
    expect(late.statusCode).toBe(200);
    expect(secretIn(late.body)).toBe('');
    for (const id of ['nonsense', 'shw_AAAAAAAAAAAAAAAAAAAAAA', "'; drop table users; --", 'x'.repeat(5000)]) {
      const page = await visitor.get(`/dashboard/credentials?shown=${encodeURIComponent(id)}`);
      expect(page.statusCode, id).toBe(200);
      expect(page.body).toContain('cannot be shown again');
    }
  });

  it("a new webhook signing secret and an owner's invitation link are shown once after a redirect; a reload makes neither again", async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account);
    const webhooks = await visitor.get('/dashboard/webhooks');
    const marker = /name="secret_of" value="(\d+)"/.exec(webhooks.body)?.[1] ?? '';
    const rotating = await visitor.post('/dashboard/webhooks/signing-secret/rotate', { secret_of: marker });
    expect(rotating.statusCode).toBe(303);
    const signing = /data-testid="new-signing-secret">(whsec_[A-Za-z0-9+/=_-]+)</.exec((await visitor.follow(rotating)).body)?.[1] ?? '';
    expect(signing).toMatch(/^whsec_/);
    const reloaded = await visitor.get(String(rotating.headers.location));
    expect(reloaded.body).not.toContain(signing);
    expect(reloaded.body).toContain('cannot be shown again; nothing was made now');

    await visitor.get('/dashboard/security');
    const inviting = await visitor.post('/dashboard/security/invitations', { email: `once-${dialect}@example.com`, role: 'viewer' });
    expect(inviting.statusCode).toBe(303);
    const link = /data-testid="invitation-link">([^<]+)</.exec((await visitor.follow(inviting)).body)?.[1] ?? '';
    expect(link).toContain('/dashboard/invitations/inv_');
    const again = await visitor.get(String(inviting.headers.location));
    expect(again.body).not.toContain(link);
    expect(again.body).toContain('nobody was invited now');
    expect(await t.store.users.listInvitations(account.account.id)).toHaveLength(1);
  });
});
