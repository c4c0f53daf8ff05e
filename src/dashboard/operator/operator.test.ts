import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { PASSWORD, signedIn, Visitor } from '../../../test/dashboard-visitor.js';
import { describeEachDialect } from '../../../test/databases.js';
import { acceptMessages } from '../../core/messages/accept-messages.js';
import { addOperator, removeOperator } from '../../core/operators/manage-operators.js';
import { inviteUser } from '../../core/users/manage-users.js';

describeEachDialect('the operator pages', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { security: { production: false, trustedProxies: ['127.0.0.1/32'] } });
  });
  afterAll(() => t.close());

  let operators = 0;
  /** An operator made as the CLI makes one, signed in through the operator's sign-in page. */
  async function operator(): Promise<{ visitor: Visitor; email: string; id: string }> {
    const email = `ops${++operators}-${dialect}@example.com`;
    const added = await addOperator(t.store, t.clock, { email, password: PASSWORD });
    const visitor = new Visitor(t);
    await visitor.get('/dashboard/operator/sign-in');
    const signed = await visitor.post('/dashboard/operator/sign-in', { email, password: PASSWORD });
    expect(signed.statusCode).toBe(303);
    expect(signed.headers.location).toBe('/dashboard/operator');
    return { visitor, email, id: added.operator.id };
  }
  const accountIdIn = (body: string, name: string) =>
    new RegExp(`href="/dashboard/operator/accounts/(acc_\\w+)">${name}<`).exec(body)?.[1] ?? '';

  describe('signing in', () => {
    it('sends whoever has no operator session to the operator sign-in, an account owner included', async () => {
      const anonymous = new Visitor(t);
      for (const url of ['/dashboard/operator', '/dashboard/operator/system', '/dashboard/operator/accounts/acc_x']) {
        const response = await anonymous.get(url);
        expect(response.statusCode, url).toBe(303);
        // Told the page to come back to, unless it is the first page anyway.
        const back = url === '/dashboard/operator' ? '' : `?next=${encodeURIComponent(url)}`;
        expect(response.headers.location).toBe(`/dashboard/operator/sign-in${back}`);
      }
      const owner = await signedIn(t, await t.createAccount());
      expect((await owner.visitor.get('/dashboard/operator')).headers.location).toBe('/dashboard/operator/sign-in');
      // And an operator session opens no account's pages.
      const { visitor } = await operator();
      expect((await visitor.get('/dashboard')).headers.location).toBe('/dashboard/sign-in');
    });

    it('a generated password is shown once and works; a wrong one is refused in words; the cookie is HttpOnly, SameSite=Strict, operator-only', async () => {
      const { password } = await addOperator(t.store, t.clock, { email: `Generated-${dialect}@Example.com` });
      expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const visitor = new Visitor(t);
      await visitor.get('/dashboard/operator/sign-in');
      const wrong = await visitor.post('/dashboard/operator/sign-in', {
        email: `generated-${dialect}@example.com`,
        password: 'not it at all',
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).toContain('That email and password do not match');
      const right = await visitor.post('/dashboard/operator/sign-in', { email: `generated-${dialect}@example.com`, password });
      expect(right.statusCode).toBe(303);
      const cookie = String(right.headers['set-cookie']);
      expect(cookie).toMatch(/herald_operator=hos_[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/dashboard\/operator; HttpOnly; SameSite=Strict/);
      await expect(addOperator(t.store, t.clock, { email: `generated-${dialect}@example.com` })).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
      });
    });

    it('throttles guessing: after 5 attempts on one address the sixth is refused with 429 even with the right password', async () => {
      const email = `guessed-${dialect}@example.com`;
      await addOperator(t.store, t.clock, { email, password: PASSWORD });
      const visitor = new Visitor(t);
      await visitor.get('/dashboard/operator/sign-in');
      for (let i = 0; i < 5; i++) await visitor.post('/dashboard/operator/sign-in', { email, password: `wrong guess ${i}` });
      const sixth = await visitor.post('/dashboard/operator/sign-in', { email, password: PASSWORD });
      expect(sixth.statusCode).toBe(429);
      expect(sixth.body).toContain('Too many failed sign-ins');
    });

    it('signing out, or being removed with the CLI, ends the session', async () => {
      const first = await operator();
      expect((await first.visitor.post('/dashboard/operator/sign-out')).headers.location).toBe('/dashboard/operator/sign-in');
      expect((await first.visitor.get('/dashboard/operator')).statusCode).toBe(303);
      const second = await operator();
      expect((await second.visitor.get('/dashboard/operator')).statusCode).toBe(200);
      expect(await removeOperator(t.store, second.email.toUpperCase())).toBe(true);
      expect((await second.visitor.get('/dashboard/operator')).statusCode).toBe(303);
    });

    it('a form posted without its CSRF token is refused and changes nothing', async () => {
      const { visitor } = await operator();
      const account = await t.createAccount();
      await visitor.get(`/dashboard/operator/accounts/${account.account.id}`);
      const forged = await visitor.post(`/dashboard/operator/accounts/${account.account.id}/suspend`, {}, { csrf: false });
      expect(forged.statusCode).toBe(403);
      expect((await t.store.accounts.findAccount(account.account.id))?.suspendedAt).toBeNull();
    });
  });

  describe('accounts', () => {
    it('opens an account: the client secret is shown once and works, and the invited owner can set a password and sign in', async () => {
      const { visitor, id } = await operator();
      await visitor.get('/dashboard/operator');
      const name = `Acme ${dialect} <b>`;
      const opened = await visitor.post('/dashboard/operator/accounts', {
        name,
        email: `owner-acme-${dialect}@example.com`,
        plan: 'business',
        credits: '12.5',
        invite_owner: 'yes',
      });
      expect(opened.statusCode).toBe(303);
      expect(String(opened.headers.location)).toMatch(/^\/dashboard\/operator\?shown=shw_[\w-]{22}$/);
      const shown = await visitor.follow(opened);
      expect(shown.statusCode).toBe(200);
      expect(shown.body).toContain(`Acme ${dialect} &lt;b> is open`);
      const clientId = /data-testid="client-id">(cli_\w+)</.exec(shown.body)?.[1] ?? '';
      const secret = /data-testid="new-secret">(hsec_[\w-]+)</.exec(shown.body)?.[1] ?? '';
      const link = /data-testid="invitation-link">http:\/\/herald\.test(\/dashboard\/invitations\/inv_[\w-]+)</.exec(shown.body)?.[1] ?? '';
      // The redirect never carries the secret, and reloading the page that showed it shows it no more and opens nothing.
      expect(String(opened.headers.location)).not.toContain(secret);
      const reloaded = await visitor.get(String(opened.headers.location));
      expect(reloaded.body).not.toContain(secret);
      expect(reloaded.body).toContain('cannot be shown again; nothing was opened now');
      expect((await t.store.accounts.listAccounts()).filter((a) => a.name === name)).toHaveLength(1);
      const token = await t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }).toString(),
      });
      expect(token.statusCode).toBe(200);
      const account = await t.store.accounts.findAccountByReference(clientId);
      expect(account).toMatchObject({ name, plan: 'business', creditsMicros: 12_500_000 });

      const owner = new Visitor(t);
      await owner.get(link);
      expect((await owner.post(link, { password: PASSWORD, confirm: PASSWORD })).statusCode).toBe(303);
      await owner.get('/dashboard/sign-in');
      expect((await owner.post('/dashboard/sign-in', { email: `owner-acme-${dialect}@example.com`, password: PASSWORD })).statusCode).toBe(
        303,
      );

      // The list shows it; the secret is never shown again.
      const list = await visitor.get('/dashboard/operator');
      expect(accountIdIn(list.body, `Acme ${dialect} &lt;b>`)).toBe(account?.id);
      expect(list.body).not.toContain(secret);
      const audit = await t.store.users.listAudit(account?.id ?? '', 10);
      expect(audit.find((a) => a.action === 'user.invited')?.actor).toBe(id);
    });

    it('refuses a bad new account in words and opens nothing', async () => {
      const { visitor } = await operator();
      const before = await t.store.accounts.countAccounts();
      await visitor.get('/dashboard/operator');
      const refused = await visitor.post('/dashboard/operator/accounts', {
        name: '',
        email: 'not an address',
        plan: 'gold',
        credits: '-3',
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.body).toContain('name: is required (at most 200 characters)');
      expect(refused.body).toContain('credits: must be a positive number');
      expect(refused.body).toContain('email: must be an email address');
      expect(refused.body).toContain('plan: must be one of: developer, business, enterprise');
      const badCredits = await visitor.post('/dashboard/operator/accounts', { name: 'x', email: 'x@example.com', credits: 'lots' });
      expect(badCredits.body).toContain('credits: must be a positive number of credits');
      // The form comes back as it was sent, to be corrected rather than typed again.
      expect(badCredits.body).toContain('value="x@example.com"');
      expect(badCredits.body).toContain('value="lots"');
      expect(badCredits.body).not.toMatch(/name="invite_owner" value="yes" checked/);
      expect(await t.store.accounts.countAccounts()).toBe(before);
    });

    it('suspends and reinstates an account, changes its plan, adds credits with a note, invites a user; each is in its audit log', async () => {
      const { visitor, id } = await operator();
      const account = await t.createAccount({ credits: 1 });
      const token = await t.tokenFor(account);
      const page = `/dashboard/operator/accounts/${account.account.id}`;
      await visitor.get(page);

      const suspended = await visitor.follow(await visitor.post(`${page}/suspend`));
      expect(suspended.body).toContain('is suspended.');
      expect(suspended.body).toContain('Suspended since');
      expect((await t.call('GET', '/v1/account/balance', token)).json().error.code).toBe('ACCOUNT_SUSPENDED');
      t.clock.advance(1);
      await visitor.post(`${page}/reinstate`);
      expect((await t.call('GET', '/v1/account/balance', token)).statusCode).toBe(200);

      t.clock.advance(1);
      expect((await visitor.follow(await visitor.post(`${page}/plan`, { plan: 'enterprise' }))).body).toContain(
        'is on the enterprise plan.',
      );
      expect((await visitor.post(`${page}/plan`, { plan: 'gold' })).statusCode).toBe(422);

      t.clock.advance(1);
      const adding = await visitor.post(`${page}/credits`, { credits: '100.25', note: 'invoice 2026-114' });
      const added = await visitor.follow(adding);
      expect(added.body).toContain('Added 100.25 credits (invoice 2026-114).');
      // Reloading the page the credits were added from adds nothing again.
      expect((await visitor.get(String(adding.headers.location))).body).not.toContain('Added 100.25 credits');
      expect((await visitor.post(`${page}/credits`, { credits: '5', note: ' ' })).body).toContain('note: say what the credits are for');
      expect((await visitor.post(`${page}/credits`, { credits: '0', note: 'x' })).statusCode).toBe(422);
      const [entry] = await t.store.credits.ledgerPage({ accountId: account.account.id, limit: 1 });
      expect(entry).toMatchObject({ kind: 'top_up', creditsDeltaMicros: 100_250_000, note: 'invoice 2026-114' });
      expect((await t.call('GET', '/v1/account/balance', token)).json().data.credits).toBe(101.25);

      t.clock.advance(1);
      const inviting = await visitor.post(`${page}/invite`, {
        email: `dev-${dialect}-${account.account.id}@example.com`,
        role: 'developer',
      });
      expect(String(inviting.headers.location)).not.toContain('inv_');
      const invited = await visitor.follow(inviting);
      expect(invited.body).toMatch(
        /Invited dev-.* as developer\. Send them this link: it works once, for 24 hours, and is shown only now\./,
      );
      expect(invited.body).toMatch(/data-testid="invitation-link">http:\/\/herald\.test\/dashboard\/invitations\/inv_/);
      expect((await visitor.post(`${page}/invite`, { email: 'x@example.com', role: 'admin' })).statusCode).toBe(422);

      const audit = await t.store.users.listAudit(account.account.id, 20);
      expect(audit.filter((a) => a.actor === id).map((a) => a.action)).toEqual([
        'user.invited',
        'credits.added',
        'account.plan_changed',
        'account.reinstated',
        'account.suspended',
      ]);
      expect((await visitor.get(`/dashboard/operator/accounts/acc_unknown`)).statusCode).toBe(404);
    });
  });

  it("a suspended account's people can look and sign out, and send or change nothing from the dashboard", async () => {
    const account = await t.createAccount();
    const owner = await signedIn(t, account);
    const { visitor } = await operator();
    await visitor.get(`/dashboard/operator/accounts/${account.account.id}`);
    await visitor.post(`/dashboard/operator/accounts/${account.account.id}/suspend`);

    const before = await owner.visitor.get('/dashboard/send');
    expect(before.statusCode).toBe(200);
    // Every page says so before a form is filled in vain.
    expect(before.body).toContain('This account is suspended: its API access is stopped');
    expect((await owner.visitor.get('/dashboard')).body).toContain('This account is suspended: its API access is stopped');
    const sent = await owner.visitor.post('/dashboard/send/sms', { to: '+14155550100', message: 'still here?' });
    expect(sent.statusCode).toBe(403);
    expect(sent.body).toContain('This account is suspended');
    await owner.visitor.get('/dashboard/credentials');
    expect((await owner.visitor.post('/dashboard/credentials', { name: 'x', limit: 'all' })).statusCode).toBe(403);
    expect((await t.store.accounts.findAccount(account.account.id))?.reservedMicros).toBe(0);
    expect((await t.store.accounts.listClients(account.account.id)).length).toBe(1);
    // And core refuses a send whoever asks.
    const draft = { channel: 'sms', to: '+14155550100', body: 'x', costMicros: 1 };
    await expect(acceptMessages({ store: t.store, clock: t.clock, prices: {} }, account.account.id, [draft])).rejects.toMatchObject({
      code: 'ACCOUNT_SUSPENDED',
    });
    await owner.visitor.get('/dashboard');
    expect((await owner.visitor.post('/dashboard/sign-out')).headers.location).toBe('/dashboard/sign-in');
  });

  it('no operator page shows a secret or a token: the account list, an account, the queue', async () => {
    const { visitor } = await operator();
    const account = await t.createAccount();
    await inviteUser(t.store, t.clock, {
      accountId: account.account.id,
      email: `pending-${dialect}@example.com`,
      role: 'viewer',
      invitedBy: null,
      ip: null,
    });
    for (const url of ['/dashboard/operator', `/dashboard/operator/accounts/${account.account.id}`, '/dashboard/operator/system']) {
      const body = (await visitor.get(url)).body;
      expect(body, url).not.toMatch(/hsec_|hss_|hos_|inv_|whsec_/);
      expect(body, url).not.toContain(account.clientSecret);
    }
  });

  it('the providers and queue page shows the work queue by kind', async () => {
    const { visitor } = await operator();
    const account = await t.createAccount();
    await t.call('POST', '/v1/sms/send', await t.tokenFor(account), { to: '+14155550100', message: 'queued for the page' });
    const page = await visitor.get('/dashboard/operator/system');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('messages to hand to providers');
    expect(Number(/data-testid="queue-deliver_message">(\d+)</.exec(page.body)?.[1])).toBeGreaterThanOrEqual(1);
    expect(page.body).toContain(`ops`);
    await t.drain();
  });
});
