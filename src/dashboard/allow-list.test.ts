import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { signedIn } from '../../test/dashboard-visitor.js';
import { describeEachDialect } from '../../test/databases.js';

describeEachDialect('the dashboard: the IP allow-list', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { security: { production: false, trustedProxies: ['127.0.0.1/32'] } });
  });
  afterAll(() => t.close());

  it('an entry keeps its note, shown as text; the last one asks before it is removed; a viewer changes nothing', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account);
    await visitor.get('/dashboard/security');
    expect((await visitor.post('/dashboard/security/ip-rules', { rule: '203.0.113.0/24', note: '  <b>office</b> VPN ' })).statusCode).toBe(
      303,
    );
    t.clock.advance(1);
    expect((await visitor.post('/dashboard/security/ip-rules', { rule: '2001:db8::/32' })).statusCode).toBe(303);
    expect(await t.store.accounts.listIpRules(account.account.id)).toEqual([
      { cidr: '203.0.113.0/24', note: '<b>office</b> VPN', createdAt: t.clock.now() - 1 },
      { cidr: '2001:db8::/32', note: null, createdAt: t.clock.now() },
    ]);
    const page = await visitor.get('/dashboard/security');
    expect(page.body).toContain('<span data-testid="rule-note">&lt;b>office&lt;/b> VPN</span>');
    expect(page.body).not.toContain('data-confirm="Remove the last address?');

    const viewer = await signedIn(t, account, 'viewer');
    await viewer.visitor.get('/dashboard/security');
    expect((await viewer.visitor.post('/dashboard/security/ip-rules', { rule: '198.51.100.1', note: 'x' })).statusCode).toBe(403);

    t.clock.advance(1);
    expect((await visitor.post('/dashboard/security/ip-rules/remove', { rule: '2001:db8::/32' })).statusCode).toBe(303);
    expect((await visitor.get('/dashboard/security')).body).toContain('data-confirm="Remove the last address?');
    expect((await t.store.accounts.listIpRules(account.account.id)).map((r) => r.cidr)).toEqual(['203.0.113.0/24']);
    const audit = await t.store.users.listAudit(account.account.id, 20);
    expect(audit.filter((a) => a.action.startsWith('ip_rule.')).map((a) => [a.action, a.target])).toEqual([
      ['ip_rule.removed', '2001:db8::/32'],
      ['ip_rule.added', '2001:db8::/32'],
      ['ip_rule.added', '203.0.113.0/24'],
    ]);
  });
});
