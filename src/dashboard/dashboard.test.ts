import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { PASSWORD, signedIn as signedInThrough, Visitor } from '../../test/dashboard-visitor.js';
import { describeEachDialect } from '../../test/databases.js';
import { startReceiver } from '../../test/webhook-receiver.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';
import { inviteUser, removeUser } from '../core/users/manage-users.js';
import { totpCode } from '../core/users/totp.js';
import type { Role } from '../core/users/user.js';
import { CONTENT_SECURITY_POLICY } from './dashboard.plugin.js';

describeEachDialect('the dashboard', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // A proxy on loopback, believed: a request can say it came over HTTPS (X-Forwarded-Proto).
    t = await createTestApp(dialect, { security: { production: false, trustedProxies: ['127.0.0.1/32'] } });
  });
  afterAll(() => t.close());

  const signedIn = (account: CreatedAccount, role: Role = 'owner') => signedInThrough(t, account, role);

  describe('pages', () => {
    it('sends whoever is not signed in to the sign-in page, and serves every page with a strict CSP and no caching', async () => {
      for (const url of ['/dashboard', '/dashboard/messages', '/dashboard/credentials', '/dashboard/security']) {
        const response = await new Visitor(t).get(url);
        expect(response.statusCode, url).toBe(303);
        // Told the page to come back to (return-path.ts), unless it is the overview anyway.
        const back = url === '/dashboard' ? '' : `?next=${encodeURIComponent(url)}`;
        expect(response.headers.location).toBe(`/dashboard/sign-in${back}`);
      }
      const page = await new Visitor(t).get('/dashboard/sign-in');
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).not.toMatch(/<script>|<style>| on\w+=|style="/);
    });

    it('sets the session cookie HttpOnly, SameSite=Lax, for /dashboard only, and Secure over HTTPS', async () => {
      const account = await t.createAccount();
      const { visitor, email } = await signedIn(account);
      const again = new Visitor(t);
      await again.get('/dashboard/sign-in');
      const response = await again.post('/dashboard/sign-in', { email, password: PASSWORD });
      const session = (response.cookies as Array<Record<string, unknown>>).find((c) => c.name === 'herald_session');
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/dashboard' });
      expect(session?.secure).toBeUndefined();
      expect(visitor.cookies.has('herald_session')).toBe(true);
      const https = await t.app.inject({
        method: 'POST',
        url: '/dashboard/sign-in',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-proto': 'https',
          cookie: [...again.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        },
        payload: new URLSearchParams({ _csrf: again.csrf, email, password: PASSWORD }).toString(),
      });
      expect(https.statusCode).toBe(303);
      expect((https.cookies as Array<Record<string, unknown>>).find((c) => c.name === 'herald_session')).toMatchObject({
        secure: true,
        httpOnly: true,
      });
    });

    it('shows the overview with the balance, and the message log with a message of the account', async () => {
      const account = await t.createAccount({ credits: 7 });
      const { visitor } = await signedIn(account);
      const token = await t.tokenFor(account);
      const sent = (await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'Dashboard hello' })).json().data;
      const overview = await visitor.get('/dashboard');
      expect(overview.statusCode).toBe(200);
      expect(overview.body).toContain('data-testid="available">6<');
      const log = await visitor.get('/dashboard/messages');
      expect(log.body).toContain(sent.message_id);
      expect(log.body).toContain('Dashboard hello');
      const one = await visitor.get(`/dashboard/messages/${sent.message_id}`);
      expect(one.statusCode).toBe(200);
      expect(one.body).toContain('Dashboard hello');
      expect((await visitor.get('/dashboard/messages?status=nonsense')).body).toContain('There is no status called');
      expect((await visitor.get('/dashboard/messages?since=yesterday')).body).toContain('is not a date');
      // A range that ends before it starts is told on the list, with its filters, not on a page of its own.
      const backwards = await visitor.get('/dashboard/messages?since=2026-11-30&until=2026-11-28');
      expect(backwards.statusCode).toBe(200);
      expect(backwards.body).toContain('is before “From” (2026-11-30)');
      expect(backwards.body).toContain('aria-label="Filter messages"');
      expect((await visitor.get('/dashboard/messages?since=2026-11-28&until=2026-11-28')).body).not.toContain('is before');
    });
  });

  describe('the test-message form', () => {
    it('sends an SMS as the API would: charged, queued, and opened on its own page', async () => {
      const account = await t.createAccount({ credits: 5 });
      const { visitor } = await signedIn(account, 'developer');
      await visitor.get('/dashboard/send?channel=sms');
      const sent = await visitor.post('/dashboard/send/sms', { to: '+14155552671', message: 'From the form' });
      expect(sent.statusCode).toBe(303);
      const id = /\/dashboard\/messages\/(msg_sms_\w+)$/.exec(String(sent.headers.location))?.[1];
      const message = await t.store.messages.findForAccount(id ?? '', account.account.id);
      expect(message).toMatchObject({ body: 'From the form', to: '+14155552671', status: 'queued', costMicros: 1_000_000 });
      const balance = await t.store.accounts.findAccount(account.account.id);
      expect(balance?.reservedMicros).toBe(1_000_000);
      expect((await t.store.users.listAudit(account.account.id, 10)).map((e) => e.action)).toContain('message.test_sent');
    });

    it("refuses what the API refuses, in the API's words, and charges nothing", async () => {
      const account = await t.createAccount({ credits: 5 });
      const { visitor } = await signedIn(account);
      await visitor.get('/dashboard/send?channel=sms');
      const badNumber = await visitor.post('/dashboard/send/sms', { to: '+1000', message: 'hi' });
      expect(badNumber.statusCode).toBe(422);
      expect(badNumber.body).toContain('to: must be a valid phone number in E.164 format');
      const tooLong = await visitor.post('/dashboard/send/sms', { to: '+14155552671', message: 'x'.repeat(1601) });
      expect(tooLong.statusCode).toBe(422);
      expect(tooLong.body).toContain('message: must be at most 1600 characters');
      const telegram = await visitor.post('/dashboard/send/telegram', { chat_id: 'not a chat', message: 'hi' });
      expect(telegram.statusCode).toBe(422);
      expect((await t.store.accounts.findAccount(account.account.id))?.reservedMicros).toBe(0);
      expect((await visitor.post('/dashboard/send/carrier-pigeon', { to: 'x' })).statusCode).toBe(404);
    });

    it("offers a viewer no form, and refuses a viewer's post", async () => {
      const account = await t.createAccount({ credits: 5 });
      const { visitor } = await signedIn(account, 'viewer');
      const page = await visitor.get('/dashboard/send');
      expect(page.body).toContain('cannot send messages');
      expect(page.body).not.toContain('action="/dashboard/send/sms"');
      expect((await visitor.post('/dashboard/send/sms', { to: '+14155552671', message: 'hi' })).statusCode).toBe(403);
      expect((await t.store.accounts.findAccount(account.account.id))?.reservedMicros).toBe(0);
    });
  });

  describe('users', () => {
    it('lets an owner invite a person with a role (the link shown once works), and nobody else', async () => {
      const account = await t.createAccount();
      const { visitor } = await signedIn(account, 'owner');
      await visitor.get('/dashboard/security');
      const email = `invited-${dialect}@example.com`;
      const inviting = await visitor.post('/dashboard/security/invitations', { email, role: 'developer' });
      expect(inviting.statusCode).toBe(303);
      expect(String(inviting.headers.location)).not.toContain('inv_');
      const page = await visitor.follow(inviting);
      const link = /data-testid="invitation-link">([^<]+)</.exec(page.body)?.[1] ?? '';
      expect(link).toMatch(/^http:\/\/herald\.test\/dashboard\/invitations\/inv_[\w-]{43}$/);
      const joining = new Visitor(t);
      const path = new URL(link).pathname;
      await joining.get(path);
      expect((await joining.post(path, { password: PASSWORD, confirm: PASSWORD })).statusCode).toBe(303);
      expect(await t.store.users.findUserByEmail(email)).toMatchObject({ accountId: account.account.id, role: 'developer' });
      expect((await visitor.get('/dashboard/security')).body).not.toContain(link);

      const again = await visitor.post('/dashboard/security/invitations', { email, role: 'viewer' });
      expect(again.statusCode).toBe(422);
      expect(again.body).toContain('already signs in to Herald');
      // The refused form keeps what was typed and chosen.
      expect(again.body).toContain(`name="email" required maxlength="320" value="${email}"`);
      expect(again.body).toMatch(/<option value="viewer" selected/);
      expect((await visitor.post('/dashboard/security/invitations', { email: 'not an address', role: 'viewer' })).statusCode).toBe(422);
      expect((await visitor.post('/dashboard/security/invitations', { email: 'x@example.com', role: 'admin' })).statusCode).toBe(422);

      const developer = (await signedIn(account, 'developer')).visitor;
      await developer.get('/dashboard/security');
      expect((await developer.post('/dashboard/security/invitations', { email: 'y@example.com', role: 'owner' })).statusCode).toBe(403);
      expect(await t.store.users.listInvitations(account.account.id)).toHaveLength(0);
    });
  });

  it("changes roles and removes users, never the last owner, and ends sessions: an owner's any, a user's own", async () => {
    const account = await t.createAccount();
    const owner = await signedIn(account, 'owner');
    const dev = await signedIn(account, 'developer');
    const devUser = await t.store.users.findUserByEmail(dev.email);
    const ownerUser = await t.store.users.findUserByEmail(owner.email);
    await owner.visitor.get('/dashboard/security');
    const lastOwner = await owner.visitor.post(`/dashboard/security/users/${ownerUser?.id}/role`, { role: 'viewer' });
    expect(lastOwner.statusCode).toBe(409);
    expect(lastOwner.body).toContain('at least one owner');
    expect((await owner.visitor.post(`/dashboard/security/users/${ownerUser?.id}/remove`)).statusCode).toBe(409);

    expect((await owner.visitor.post(`/dashboard/security/users/${devUser?.id}/role`, { role: 'viewer' })).statusCode).toBe(303);
    await dev.visitor.get('/dashboard/credentials');
    const [client] = await t.store.accounts.listClients(account.account.id);
    // The new role holds at once, in the session already open.
    expect(
      (await dev.visitor.post(`/dashboard/credentials/${account.clientId}/rotate`, { secret_of: String(client?.createdAt) })).statusCode,
    ).toBe(403);
    await dev.visitor.get('/dashboard/security');
    expect((await dev.visitor.post(`/dashboard/security/users/${ownerUser?.id}/remove`)).statusCode).toBe(403);

    // A second browser of the viewer: the viewer may end it; may not end the owner's (404, as another account's).
    const secondBrowser = new Visitor(t);
    await secondBrowser.get('/dashboard/sign-in');
    await secondBrowser.post('/dashboard/sign-in', { email: dev.email, password: PASSWORD });
    const sessions = await t.store.users.listSessions(account.account.id, t.clock.now());
    const ofOwner = sessions.find((x) => x.userId === ownerUser?.id);
    const page = await dev.visitor.get('/dashboard/security');
    const hashes = [...page.body.matchAll(/name="session" value="([0-9a-f]{64})"/g)].map((m) => m[1]);
    expect(hashes).toHaveLength(1); // only the viewer's other browser is offered
    expect((await dev.visitor.post('/dashboard/security/sessions/end', { session: ofOwner?.tokenHash ?? '' })).statusCode).toBe(404);
    expect((await dev.visitor.post('/dashboard/security/sessions/end', { session: hashes[0] ?? '' })).statusCode).toBe(303);
    expect((await secondBrowser.get('/dashboard')).statusCode).toBe(303);

    // Removed: the user's open session ends with it.
    expect((await owner.visitor.post(`/dashboard/security/users/${devUser?.id}/remove`)).statusCode).toBe(303);
    expect((await dev.visitor.get('/dashboard')).statusCode).toBe(303);
    expect(await t.store.users.findUserByEmail(dev.email)).toBeUndefined();
    const actions = (await t.store.users.listAudit(account.account.id, 50)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['user.role_changed', 'session.ended', 'user.removed']));
  });

  it('turns on two-step sign-in with a code from the app; then sign-in needs a fresh code, each working once; a code turns it off', async () => {
    const account = await t.createAccount();
    const { visitor, email } = await signedIn(account, 'viewer');
    await visitor.get('/dashboard/security');
    const setup = await visitor.post('/dashboard/security/two-step/start');
    const secret = /data-testid="totp-secret">([A-Z2-7]+)</.exec(setup.body)?.[1] ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await visitor.post('/dashboard/security/two-step/on', { secret, code: '000000' })).statusCode).toBe(422);
    expect((await visitor.post('/dashboard/security/two-step/on', { secret, code: totpCode(secret, t.clock.now()) })).statusCode).toBe(303);
    expect((await t.store.users.findUserByEmail(email))?.twoStep).toBe(true);
    // While it is on, a session alone cannot swap the app's secret for another.
    expect((await visitor.post('/dashboard/security/two-step/start')).statusCode).toBe(409);
    const other = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    expect(
      (await visitor.post('/dashboard/security/two-step/on', { secret: other, code: totpCode(other, t.clock.now()) })).statusCode,
    ).toBe(409);

    const signIn = async (code?: string) => {
      const browser = new Visitor(t);
      await browser.get('/dashboard/sign-in');
      return browser.post('/dashboard/sign-in', { email, password: PASSWORD, ...(code !== undefined ? { code } : {}) });
    };
    const missing = await signIn();
    expect(missing.statusCode).toBe(401);
    expect(missing.body).toContain('enter the current 6-digit code');
    // The code that turned it on was used: it does not sign in. The next step's does, once.
    expect((await signIn(totpCode(secret, t.clock.now()))).statusCode).toBe(401);
    t.clock.advance(30_000);
    const code = totpCode(secret, t.clock.now());
    expect((await signIn(code)).statusCode).toBe(303);
    expect((await signIn(code)).statusCode).toBe(401);

    t.clock.advance(30_000);
    await visitor.get('/dashboard/security');
    expect((await visitor.post('/dashboard/security/two-step/off', { code: '123456' })).statusCode).toBe(422);
    expect((await visitor.post('/dashboard/security/two-step/off', { code: totpCode(secret, t.clock.now()) })).statusCode).toBe(303);
    t.clock.advance(180_000); // the failed attempts above refill
    expect((await signIn()).statusCode).toBe(303);
    const actions = (await t.store.users.listAudit(account.account.id, 50)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['user.two_step_on', 'user.two_step_off']));
  });

  it('keeps an owner when two owners remove each other at the same moment', async () => {
    const account = await t.createAccount();
    const first = await signedIn(account, 'owner');
    const second = await signedIn(account, 'owner');
    const [a, b] = await Promise.all([t.store.users.findUserByEmail(first.email), t.store.users.findUserByEmail(second.email)]);
    const results = await Promise.all([
      removeUser(t.store, t.clock, account.account.id, b?.id ?? '', { userId: a?.id ?? '', ip: '10.0.0.1' }),
      removeUser(t.store, t.clock, account.account.id, a?.id ?? '', { userId: b?.id ?? '', ip: '10.0.0.2' }),
    ]);
    expect(results.filter((r) => r === undefined)).toHaveLength(1);
    expect((await t.store.users.listUsers(account.account.id)).filter((u) => u.role === 'owner')).toHaveLength(1);
  });

  it("shows a message's webhook deliveries (here to its callback_url) on its page", async () => {
    const receiver = await startReceiver(() => 204);
    try {
      const account = await t.createAccount();
      const { visitor } = await signedIn(account, 'viewer');
      const token = await t.tokenFor(account);
      const sent = await t.call('POST', '/v1/sms/send', token, {
        to: '+14155552671',
        message: 'follow me',
        callback_url: `${receiver.url}/cb`,
      });
      const id = sent.json().data.message_id;
      await t.drain();
      const page = await visitor.get(`/dashboard/messages/${id}`);
      const rows = [...page.body.matchAll(/data-testid="message-delivery">(.*?)<\/tr>/g)].map((m) => m[1] ?? '');
      expect(rows.some((row) => row.includes('message.sent') && row.includes('(callback_url)') && row.includes('HTTP 204'))).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('answers odd requests with a page, never a 500', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(account);
    expect((await visitor.get('/dashboard/messages?id=a&id=b')).statusCode).toBe(200);
    for (const name of ['constructor', '__proto__', 'toString', '..%2Fdashboard.plugin.tsx']) {
      expect((await visitor.get(`/dashboard/assets/${name}`)).statusCode, name).toBe(404);
    }
    expect((await visitor.get('/dashboard/messages?page=99999999999')).statusCode).toBe(200);
    expect((await visitor.get('/dashboard/webhooks/wh_%00')).statusCode).toBeLessThan(500);
  });

  describe('credits', () => {
    it('pages the ledger newest first without skipping or repeating a row, and exports all of it as CSV', async () => {
      const account = await t.createAccount({ credits: 100 });
      const { visitor } = await signedIn(account, 'viewer');
      await t.store.transaction((tx) =>
        tx.credits.topUp(account.account.id, 5_000_000, t.clock.now(), '=HYPERLINK("http://evil.example")'),
      );
      const token = await t.tokenFor(account);
      const recipients = Array.from({ length: 60 }, (_, i) => `+1415555${String(1000 + i)}`);
      expect((await t.call('POST', '/v1/sms/bulk', token, { recipients, message: 'ledger' })).statusCode).toBe(200);
      const ledger = await t.store.credits.ledger(account.account.id);
      expect(ledger).toHaveLength(62);

      const ids = (body: string) => [...body.matchAll(/data-testid="ledger-entry"/g)].length;
      const first = await visitor.get('/dashboard/credits');
      expect(ids(first.body)).toBe(50);
      expect(first.body).toContain('Held for a message');
      const older = /href="(\/dashboard\/credits\?before=[^"]+)"/.exec(first.body)?.[1];
      expect(older).toBeDefined();
      const second = await visitor.get(older ?? '');
      expect(ids(second.body)).toBe(12);
      expect(second.body).toContain('Credits added');
      expect(second.body).not.toContain('Older →');

      const csv = await visitor.get('/dashboard/credits.csv');
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="herald-ledger-acc_\w+-\d{4}-\d{2}-\d{2}\.csv"$/);
      const lines = csv.body.trimEnd().split('\r\n');
      expect(lines[0]).toBe('id,created_at,kind,credits_delta,reserved_delta,message_id,note');
      expect(new Set(lines.slice(1).map((line) => line.split(',')[0]))).toEqual(new Set(ledger.map((e) => e.id)));
      expect(csv.body).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
      expect((await visitor.get('/dashboard/credits?before=nonsense')).statusCode).toBe(200);
    });
  });

  describe('webhooks', () => {
    it('registers a webhook from the form, refuses a bad one in words, and keeps viewers and other accounts out', async () => {
      const account = await t.createAccount();
      const { visitor } = await signedIn(account, 'developer');
      await visitor.get('/dashboard/webhooks');
      const bad = await visitor.post('/dashboard/webhooks', { url: 'ftp://example.com/x', events: '*' });
      expect(bad.statusCode).toBe(422);
      expect(bad.body).toContain('url:');
      const created = await visitor.post('/dashboard/webhooks', { url: 'https://hooks.example.com/h', events: 'message.failed' });
      expect(created.statusCode).toBe(303);
      const id = /\/dashboard\/webhooks\/(wh_\w+)\?done=created$/.exec(String(created.headers.location))?.[1] ?? '';
      expect((await t.store.webhooks.find(account.account.id, id))?.events).toEqual(['message.failed']);
      const webhookPage = (await visitor.get(`/dashboard/webhooks/${id}`)).body;
      expect(webhookPage).toContain('https://hooks.example.com/h');
      // Deleting it, or making a new signing secret, asks first (dashboard.js): neither can be undone.
      expect(webhookPage).toContain('data-confirm="Delete this webhook?');
      expect((await visitor.get('/dashboard/webhooks')).body).toContain('data-confirm="Make a new signing secret?');

      // Events ticked are what it gets, even with "all events" left marked; none ticked is every event.
      const registered = async (form: Record<string, string | string[]>) => {
        const answer = await visitor.post('/dashboard/webhooks', { url: 'https://hooks.example.com/e', ...form });
        const made = /\/dashboard\/webhooks\/(wh_\w+)\?done=created$/.exec(String(answer.headers.location))?.[1] ?? '';
        const events = (await t.store.webhooks.find(account.account.id, made))?.events;
        await visitor.post(`/dashboard/webhooks/${made}/delete`);
        return events;
      };
      expect(await registered({ limit: 'all', events: ['*', 'message.delivered', 'message.failed'] })).toEqual([
        'message.delivered',
        'message.failed',
      ]);
      expect(await registered({ limit: 'all' })).toEqual(['*']);
      const noneTicked = await visitor.post('/dashboard/webhooks', { url: 'https://hooks.example.com/e', limit: 'some' });
      expect(noneTicked.statusCode).toBe(422);
      expect(noneTicked.body).toContain('must name at least one event kind');

      const stranger = (await signedIn(await t.createAccount())).visitor;
      expect((await stranger.get(`/dashboard/webhooks/${id}`)).statusCode).toBe(404);
      await stranger.get('/dashboard/webhooks');
      expect((await stranger.post(`/dashboard/webhooks/${id}/delete`)).statusCode).toBe(404);

      const viewer = (await signedIn(account, 'viewer')).visitor;
      await viewer.get(`/dashboard/webhooks/${id}`);
      expect((await viewer.post(`/dashboard/webhooks/${id}/delete`)).statusCode).toBe(403);
      expect(await t.store.webhooks.find(account.account.id, id)).toBeDefined();
      expect((await visitor.post(`/dashboard/webhooks/${id}/delete`)).statusCode).toBe(303);
      expect(await t.store.webhooks.find(account.account.id, id)).toBeUndefined();
    });
  });

  describe('security', () => {
    it('renders a message text of script, onerror and javascript: as inert text on every page that shows it', async () => {
      const account = await t.createAccount();
      const { visitor } = await signedIn(account);
      const token = await t.tokenFor(account);
      const hostile = `<script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">x</a>`;
      const id = (await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: hostile })).json().data.message_id;
      for (const url of ['/dashboard/messages', `/dashboard/messages/${id}`]) {
        const body = (await visitor.get(url)).body;
        expect(body, url).not.toContain('<script>alert');
        expect(body, url).not.toContain('<img src=x');
        expect(body, url).not.toContain('href="javascript:');
        expect(body, url).toContain('&lt;script>alert(1)&lt;/script>');
      }
    });

    it('refuses a form post without the CSRF token (a form on another site), changing nothing', async () => {
      const account = await t.createAccount();
      const { visitor } = await signedIn(account);
      const [client] = await t.store.accounts.listClients(account.account.id);
      const before = client?.secretHash;
      const forged = await visitor.post(
        `/dashboard/credentials/${account.clientId}/rotate`,
        { secret_of: String(client?.createdAt) },
        { csrf: false },
      );
      expect(forged.statusCode).toBe(403);
      expect(forged.body).toContain('out of date or came from another site');
      expect((await t.store.accounts.listClients(account.account.id))[0]?.secretHash).toBe(before);
      const signIn = await new Visitor(t).post('/dashboard/sign-in', { email: 'x@example.com', password: PASSWORD }, { csrf: false });
      expect(signIn.statusCode).toBe(403);
    });

    it("answers 404 for another account's message and client, as for one that does not exist", async () => {
      const mine = await t.createAccount();
      const theirs = await t.createAccount();
      const { visitor } = await signedIn(mine);
      const token = await t.tokenFor(theirs);
      const id = (await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'not yours' })).json().data.message_id;
      const message = await visitor.get(`/dashboard/messages/${id}`);
      expect(message.statusCode).toBe(404);
      expect(message.body).not.toContain('not yours');
      expect((await visitor.get('/dashboard/messages/msg_sms_00000000000000000000000000')).statusCode).toBe(404);
      await visitor.get('/dashboard/credentials');
      const [client] = await t.store.accounts.listClients(theirs.account.id);
      const rotate = await visitor.post(`/dashboard/credentials/${theirs.clientId}/rotate`, { secret_of: String(client?.createdAt) });
      expect(rotate.statusCode).toBe(404);
      expect((await t.store.accounts.listClients(theirs.account.id))[0]?.secretHash).toBe(client?.secretHash);
      expect((await visitor.get('/dashboard/security')).body).not.toContain(theirs.account.id);
    });

    it('throttles sign-in attempts per address: 5, then one every 3 minutes, even with the right password', async () => {
      const account = await t.createAccount();
      const { email } = await signedIn(account); // one attempt of the five
      const visitor = new Visitor(t);
      await visitor.get('/dashboard/sign-in');
      for (let i = 0; i < 4; i++)
        expect((await visitor.post('/dashboard/sign-in', { email, password: `wrong password ${i}` })).statusCode).toBe(401);
      const throttled = await visitor.post('/dashboard/sign-in', { email, password: PASSWORD });
      expect(throttled.statusCode).toBe(429);
      expect(throttled.body).toContain('Too many failed sign-ins');
      t.clock.advance(180_000);
      expect((await visitor.post('/dashboard/sign-in', { email, password: PASSWORD })).statusCode).toBe(303);
    });

    it('throttles guesses sent all at once as surely as one after another', async () => {
      const account = await t.createAccount();
      const { email } = await signedIn(account);
      t.clock.advance(900_000); // the sign-in above is paid back
      const visitor = new Visitor(t);
      await visitor.get('/dashboard/sign-in');
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => visitor.post('/dashboard/sign-in', { email, password: `guess ${i}` })),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    });

    it('answers an unknown address exactly as a wrong password', async () => {
      const visitor = new Visitor(t);
      await visitor.get('/dashboard/sign-in');
      const unknown = await visitor.post('/dashboard/sign-in', { email: 'nobody@example.com', password: PASSWORD });
      expect(unknown.statusCode).toBe(401);
      expect(unknown.body).toContain('That email and password do not match');
    });

    it('ends a session at sign-out, after sitting idle past the limit, and at the end of its lifetime', async () => {
      const account = await t.createAccount();
      const { visitor } = await signedIn(account);
      const stolen = new Map(visitor.cookies);
      await visitor.get('/dashboard');
      expect((await visitor.post('/dashboard/sign-out')).headers.location).toBe('/dashboard/sign-in');
      const replay = new Visitor(t);
      for (const [k, v] of stolen) replay.cookies.set(k, v);
      expect((await replay.get('/dashboard')).statusCode).toBe(303);

      const idle = (await signedIn(account)).visitor;
      t.clock.advance(59 * 60_000);
      expect((await idle.get('/dashboard')).statusCode).toBe(200);
      t.clock.advance(59 * 60_000);
      expect((await idle.get('/dashboard')).statusCode).toBe(200);
      t.clock.advance(61 * 60_000);
      expect((await idle.get('/dashboard')).statusCode).toBe(303);

      const old = (await signedIn(account)).visitor;
      for (let step = 0; step < 15; step++) {
        t.clock.advance(50 * 60_000);
        await old.get('/dashboard');
      }
      expect((await old.get('/dashboard')).statusCode).toBe(303);
    });

    it('lets an invitation link be used once, and not after 24 hours', async () => {
      const account = await t.createAccount();
      const once = await inviteUser(t.store, t.clock, {
        accountId: account.account.id,
        email: `once-${dialect}@example.com`,
        role: 'viewer',
        invitedBy: null,
        ip: null,
      });
      const visitor = new Visitor(t);
      await visitor.get(`/dashboard/invitations/${once.token}`);
      expect((await visitor.post(`/dashboard/invitations/${once.token}`, { password: PASSWORD, confirm: PASSWORD })).statusCode).toBe(303);
      expect((await visitor.get(`/dashboard/invitations/${once.token}`)).statusCode).toBe(404);
      expect((await visitor.post(`/dashboard/invitations/${once.token}`, { password: PASSWORD, confirm: PASSWORD })).statusCode).toBe(404);
      expect((await t.store.users.listUsers(account.account.id)).map((u) => u.email)).toEqual([`once-${dialect}@example.com`]);

      const late = await inviteUser(t.store, t.clock, {
        accountId: account.account.id,
        email: `late-${dialect}@example.com`,
        role: 'viewer',
        invitedBy: null,
        ip: null,
      });
      t.clock.advance(24 * 3600_000);
      expect((await visitor.get(`/dashboard/invitations/${late.token}`)).statusCode).toBe(404);
    });

    it('refuses a short password or two that differ, and keeps the link usable', async () => {
      const account = await t.createAccount();
      const { token } = await inviteUser(t.store, t.clock, {
        accountId: account.account.id,
        email: `short-${dialect}@example.com`,
        role: 'owner',
        invitedBy: null,
        ip: null,
      });
      const visitor = new Visitor(t);
      await visitor.get(`/dashboard/invitations/${token}`);
      const short = await visitor.post(`/dashboard/invitations/${token}`, { password: 'short', confirm: 'short' });
      expect(short.statusCode).toBe(422);
      expect(short.body).toContain('at least 12 characters');
      const differ = await visitor.post(`/dashboard/invitations/${token}`, { password: PASSWORD, confirm: `${PASSWORD}!` });
      expect(differ.body).toContain('The two passwords differ');
      expect((await visitor.post(`/dashboard/invitations/${token}`, { password: PASSWORD, confirm: PASSWORD })).statusCode).toBe(303);
    });

    it('shows no secret on any page, and stores neither passwords nor session and invitation tokens in clear', async () => {
      const account = await t.createAccount();
      const { visitor } = await signedIn(account);
      for (const url of ['/dashboard', '/dashboard/messages', '/dashboard/credentials', '/dashboard/security']) {
        const body = (await visitor.get(url)).body;
        expect(body, url).not.toContain(account.clientSecret);
        expect(body, url).not.toMatch(/hsec_|hss_|inv_|whsec_/);
      }
      const rows = await t.database.db.selectFrom('users').select(['password_hash']).where('account_id', '=', account.account.id).execute();
      expect(rows[0]?.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
      const sessions = await t.database.db
        .selectFrom('user_sessions')
        .select(['token_hash'])
        .where('account_id', '=', account.account.id)
        .execute();
      expect(sessions.every((s) => /^[0-9a-f]{64}$/.test(s.token_hash))).toBe(true);
      expect(visitor.cookies.get('herald_session')).toMatch(/^hss_/);
    });
  });
});
