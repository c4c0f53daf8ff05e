import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { signedIn } from '../../test/dashboard-visitor.js';
import { describeEachDialect } from '../../test/databases.js';
import { addSuppression } from '../core/suppressions/manage-suppressions.js';

describeEachDialect('the dashboard: the suppression list', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { security: { production: false, trustedProxies: ['127.0.0.1/32'] } });
  });
  afterAll(() => t.close());

  it('lists the entries with why they are there, as text; a developer adds and removes one, each change audited; sends follow', async () => {
    const account = await t.createAccount();
    const token = await t.tokenFor(account);
    await addSuppression(t.store, {
      accountId: account.account.id,
      channel: 'email',
      recipient: 'bounced@example.com',
      reason: 'hard_bounce',
      source: 'email_bounce',
      note: '<b>markup</b> stays text',
      at: t.clock.now(),
    });
    const { visitor } = await signedIn(t, account, 'developer');
    const page = await visitor.get('/dashboard/suppressions');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<code>bounced@example.com</code>');
    expect(page.body).toContain('&lt;b>markup&lt;/b> stays text');
    expect(page.body).toContain('the address bounced for good');

    t.clock.advance(1);
    const added = await visitor.post('/dashboard/suppressions', { channel: 'sms', recipient: ' +14155550123 ', note: 'asked by phone' });
    expect(added.statusCode).toBe(303);
    expect((await t.call('POST', '/v1/sms/send', token, { to: '+14155550123', message: 'hi' })).json().error.code).toBe(
      'RECIPIENT_SUPPRESSED',
    );
    const smsOnly = await visitor.get('/dashboard/suppressions?channel=sms');
    expect(smsOnly.body).toContain('+14155550123');
    expect(smsOnly.body).toContain('asked by phone');
    expect(smsOnly.body).not.toContain('bounced');

    t.clock.advance(1);
    expect((await visitor.post('/dashboard/suppressions/remove', { channel: 'sms', recipient: '+14155550123' })).statusCode).toBe(303);
    expect((await t.call('POST', '/v1/sms/send', token, { to: '+14155550123', message: 'hi' })).statusCode).toBe(200);
    const again = await visitor.post('/dashboard/suppressions/remove', { channel: 'sms', recipient: '+14155550123' });
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain('is not on this account');
    const bad = await visitor.post('/dashboard/suppressions', { channel: 'fax', recipient: 'x' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Choose a channel');

    const audit = await t.store.users.listAudit(account.account.id, 10);
    expect(audit.filter((a) => a.action.startsWith('suppression.')).map((a) => [a.action, a.target])).toEqual([
      ['suppression.removed', 'sms +14155550123'],
      ['suppression.added', 'sms +14155550123'],
    ]);
  });

  it('a refused add comes back with the channel, recipient and note as sent, and adds nothing', async () => {
    const account = await t.createAccount();
    const { visitor } = await signedIn(t, account, 'developer');
    await visitor.get('/dashboard/suppressions');
    const refused = await visitor.post('/dashboard/suppressions', {
      channel: 'email',
      recipient: 'not an address',
      note: 'asked by phone',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('<option value="email" selected>email</option>');
    expect(refused.body).toContain('value="not an address"');
    expect(refused.body).toContain('value="asked by phone"');
    expect(await t.store.suppressions.list({ accountId: account.account.id, limit: 10 })).toEqual([]);
  });

  it('pages 50 at a time, newest first; a viewer sees the list and can change nothing', async () => {
    const account = await t.createAccount();
    for (let i = 0; i < 51; i++) {
      await addSuppression(t.store, {
        accountId: account.account.id,
        channel: 'sms',
        recipient: `+1415555${String(1000 + i)}`,
        reason: 'opt_out',
        source: 'api',
        at: t.clock.now() + i,
      });
    }
    const { visitor } = await signedIn(t, account, 'viewer');
    const first = await visitor.get('/dashboard/suppressions');
    expect(first.body).toContain('+14155551050');
    expect(first.body).not.toContain('+14155551000');
    expect(first.body).not.toContain('Remove');
    const older = /href="(\/dashboard\/suppressions\?after=[^"]+)"/.exec(first.body)?.[1]?.replaceAll('&amp;', '&') ?? '';
    const second = await visitor.get(older);
    expect(second.body).toContain('+14155551000');
    expect(second.body).not.toContain('+14155551050');
    expect((await visitor.post('/dashboard/suppressions', { channel: 'sms', recipient: '+14155550999' })).statusCode).toBe(403);
    expect(await t.store.suppressions.findAmong(account.account.id, 'sms', ['+14155550999'])).toEqual([]);
  });
});
