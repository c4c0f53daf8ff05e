import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { PASSWORD, signedIn, Visitor } from '../../test/dashboard-visitor.js';
import { describeEachDialect } from '../../test/databases.js';
import { addOperator } from '../core/operators/manage-operators.js';
import { returnPathWithin } from './return-path.js';

describe('the page to go back to after signing in', () => {
  it('takes a path of the area, with its query', () => {
    expect(returnPathWithin('/dashboard', '/dashboard/messages?status=failed&page=2')).toBe('/dashboard/messages?status=failed&page=2');
    expect(returnPathWithin('/dashboard', '/dashboard')).toBe('/dashboard');
    expect(returnPathWithin('/dashboard/operator', '/dashboard/operator/accounts/acc_1')).toBe('/dashboard/operator/accounts/acc_1');
  });

  it('refuses anything that could lead to another site or out of the area', () => {
    for (const text of [
      'https://evil.example/dashboard',
      '//evil.example/dashboard',
      '/\\evil.example/dashboard',
      '\\\\evil.example',
      'javascript:alert(1)',
      '/dashboard/../evil',
      '/dashboard/%2e%2e/evil',
      '/dashboardx',
      '/dashboard/operator',
      '/dashboard/operator/system',
      '/dashboard/sign-in?next=/dashboard',
      '/dashboard/invitations/inv_x',
      '/dashboard\r\nLocation: https://evil.example',
      `/dashboard/${'x'.repeat(3000)}`,
      '',
      undefined,
      ['/dashboard'],
    ]) {
      expect(returnPathWithin('/dashboard', text), String(text)).toBeUndefined();
    }
    expect(returnPathWithin('/dashboard/operator', '/dashboard/credentials')).toBeUndefined();
    expect(returnPathWithin('/dashboard/operator', '/dashboard/operator/sign-out')).toBeUndefined();
  });

  it('leaves out a secret shown once: it belonged to the session that ended', () => {
    expect(returnPathWithin('/dashboard', '/dashboard/credentials?shown=shw_AAAAAAAAAAAAAAAAAAAAAA')).toBe('/dashboard/credentials');
  });
});

describeEachDialect('the dashboard: back to the page after signing in', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { security: { production: false, trustedProxies: ['127.0.0.1/32'] } });
  });
  afterAll(() => t.close());

  it('a form posted after the session ended changes nothing, says so, and signing in leads back to the page it was on', async () => {
    const account = await t.createAccount();
    const { visitor, email } = await signedIn(t, account, 'developer');
    await visitor.get('/dashboard/credentials');
    t.clock.advance(61 * 60_000);
    const posted = await visitor.post(
      '/dashboard/credentials',
      { name: 'Late', limit: 'all' },
      { headers: { referer: 'http://herald.test/dashboard/credentials' } },
    );
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fcredentials&unsent=1');
    expect(await t.store.accounts.listClients(account.account.id)).toHaveLength(1);
    // A sign-out sent then lost nothing: the sign-in page does not say it did.
    const out = await visitor.post('/dashboard/sign-out', {}, { headers: { referer: 'http://herald.test/dashboard/credentials' } });
    expect(out.headers.location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fcredentials');

    const signIn = await visitor.get(String(posted.headers.location));
    expect(signIn.statusCode).toBe(200);
    expect(signIn.body).toContain('Your session had ended, so what you sent was not saved.');
    expect(signIn.body).toContain('<input type="hidden" name="next" value="/dashboard/credentials"/>');
    const wrong = await visitor.post('/dashboard/sign-in', { email, password: 'not the password', next: '/dashboard/credentials' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('name="next" value="/dashboard/credentials"');
    const back = await visitor.post('/dashboard/sign-in', { email, password: PASSWORD, next: '/dashboard/credentials' });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/dashboard/credentials');
    expect((await visitor.get('/dashboard/credentials')).statusCode).toBe(200);
  });

  it('a page opened without a session comes back with its filters; a forged return path leads to the overview', async () => {
    const account = await t.createAccount();
    const { email } = await signedIn(t, account);
    const visitor = new Visitor(t);
    const asked = await visitor.get('/dashboard/messages?status=failed');
    expect(asked.headers.location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fmessages%3Fstatus%3Dfailed');
    await visitor.get(String(asked.headers.location));
    const back = await visitor.post('/dashboard/sign-in', { email, password: PASSWORD, next: '/dashboard/messages?status=failed' });
    expect(back.headers.location).toBe('/dashboard/messages?status=failed');
    // Already signed in: the sign-in page sends on at once, to a page of the dashboard only.
    expect((await visitor.get('/dashboard/sign-in?next=%2Fdashboard%2Fcredits')).headers.location).toBe('/dashboard/credits');
    expect((await visitor.get('/dashboard/sign-in?next=https%3A%2F%2Fevil.example')).headers.location).toBe('/dashboard');

    const forged = new Visitor(t);
    await forged.get('/dashboard/sign-in?next=%2F%2Fevil.example');
    expect(forged.csrf).not.toBe('');
    const landed = await forged.post('/dashboard/sign-in', { email, password: PASSWORD, next: '//evil.example/dashboard' });
    expect(landed.statusCode).toBe(303);
    expect(landed.headers.location).toBe('/dashboard');
    // A post from another site's page, with no session: its page is no return path (only a path of this dashboard would be).
    const foreign = await new Visitor(t).post('/dashboard/credentials', { name: 'x' }, { headers: { referer: 'https://evil.example/x' } });
    expect(foreign.headers.location).toBe('/dashboard/sign-in?unsent=1');
  });

  it("an operator whose session ended goes back to the operator's page after signing in", async () => {
    const email = `ops-back-${dialect}@example.com`;
    await addOperator(t.store, t.clock, { email, password: PASSWORD });
    const visitor = new Visitor(t);
    const asked = await visitor.get('/dashboard/operator/system');
    expect(asked.headers.location).toBe('/dashboard/operator/sign-in?next=%2Fdashboard%2Foperator%2Fsystem');
    const page = await visitor.get(String(asked.headers.location));
    expect(page.body).toContain('name="next" value="/dashboard/operator/system"');
    const back = await visitor.post('/dashboard/operator/sign-in', { email, password: PASSWORD, next: '/dashboard/operator/system' });
    expect(back.headers.location).toBe('/dashboard/operator/system');
    const notOperator = await visitor.post('/dashboard/operator/sign-out');
    expect(notOperator.headers.location).toBe('/dashboard/operator/sign-in');
    await visitor.get('/dashboard/operator/sign-in');
    const outside = await visitor.post('/dashboard/operator/sign-in', { email, password: PASSWORD, next: '/dashboard/credentials' });
    expect(outside.headers.location).toBe('/dashboard/operator');
  });
});
