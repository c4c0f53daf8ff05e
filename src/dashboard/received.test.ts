import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { PASSWORD, signedIn, Visitor } from '../../test/dashboard-visitor.js';
import { describeEachDialect } from '../../test/databases.js';
import { assignAddress } from '../core/inbound/addresses.js';
import { addOperator } from '../core/operators/manage-operators.js';

describeEachDialect('the dashboard: received messages and addresses', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { security: { production: false, trustedProxies: ['127.0.0.1/32'] } });
  });
  afterAll(() => t.close());

  it('shows what recipients wrote to the account’s addresses, as text, newest first, and one message with its details', async () => {
    const account = await t.createAccount();
    await assignAddress(t.store, { accountId: account.account.id, channel: 'sms', address: '+14155550300', at: t.clock.now() });
    await t.receive({ channel: 'sms', from: '+14155552301', to: '+14155550300', text: 'first', receivedAt: t.clock.now() });
    t.clock.advance(1000);
    const second = await t.receive({
      channel: 'sms',
      from: '+14155552302',
      to: '14155550300',
      text: '<script>alert(1)</script> yes',
      receivedAt: t.clock.now(),
      details: { parts: 3 },
    });
    const { visitor } = await signedIn(t, account, 'viewer');
    const page = await visitor.get('/dashboard/received');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<code>+14155550300</code> (sms)');
    expect(page.body).toContain('2 messages');
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body.indexOf('+14155552302')).toBeLessThan(page.body.indexOf('+14155552301'));
    const id = second.outcome === 'stored' ? second.message.id : '';
    const one = await visitor.get(`/dashboard/received/${id}`);
    expect(one.statusCode).toBe(200);
    expect(one.body).toContain('&lt;script>alert(1)&lt;/script> yes');
    expect(one.body).toMatch(/<dt>Parts<\/dt><dd>3<\/dd>/);
    // Another account's message is not found.
    const other = await signedIn(t, await t.createAccount(), 'viewer');
    expect((await other.visitor.get(`/dashboard/received/${id}`)).statusCode).toBe(404);
    expect((await other.visitor.get('/dashboard/received')).body).toContain('it has none yet');
    expect((await visitor.get('/dashboard/received?channel=fax')).body).toContain('There is no channel called “fax”.');
  });

  it('lets an operator give an address to an account and take it back, each audited; a taken address is refused', async () => {
    const email = `ops-addr-${dialect}@example.com`;
    await addOperator(t.store, t.clock, { email, password: PASSWORD });
    const operator = new Visitor(t);
    await operator.get('/dashboard/operator/sign-in');
    expect((await operator.post('/dashboard/operator/sign-in', { email, password: PASSWORD })).statusCode).toBe(303);
    const account = await t.createAccount();
    const path = `/dashboard/operator/accounts/${account.account.id}`;

    const added = await operator.follow(await operator.post(`${path}/addresses`, { channel: 'telegram', address: '@Acme_Bot' }));
    expect(added.statusCode).toBe(200);
    expect(added.body).toContain('telegram @acme_bot now belongs to');
    expect((await t.receive({ channel: 'telegram', from: '4242', to: '@acme_bot', text: 'hi', receivedAt: t.clock.now() })).outcome).toBe(
      'stored',
    );
    const taken = await operator.post(`/dashboard/operator/accounts/${(await t.createAccount()).account.id}/addresses`, {
      channel: 'telegram',
      address: '@acme_bot',
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.body).toContain('already belongs to an account');

    t.clock.advance(1);
    const removed = await operator.post(`${path}/addresses/remove`, { channel: 'telegram', address: '@acme_bot' });
    expect(removed.statusCode).toBe(303);
    expect((await t.receive({ channel: 'telegram', from: '4242', to: '@acme_bot', text: 'hi', receivedAt: t.clock.now() })).outcome).toBe(
      'unrouted',
    );
    const audit = await t.store.users.listAudit(account.account.id, 10);
    expect(audit.filter((a) => a.action.startsWith('address.')).map((a) => [a.action, a.target, a.actor.slice(0, 4)])).toEqual([
      ['address.removed', 'telegram @acme_bot', 'opr_'],
      ['address.added', 'telegram @acme_bot', 'opr_'],
    ]);
  });
});
