import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { PASSWORD, signedIn, Visitor } from '../../test/dashboard-visitor.js';
import { describeEachDialect } from '../../test/databases.js';
import { addCredits } from '../core/accounts/manage-accounts.js';
import { addOperator } from '../core/operators/manage-operators.js';

describeEachDialect('the dashboard: who is named in the audit log', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { security: { production: false, trustedProxies: ['127.0.0.1/32'] } });
  });
  afterAll(() => t.close());

  /** The audit log's rows as the page shows them: who, and what. */
  const auditRows = (body: string) =>
    [...(body.split('<h2 id="audit">')[1] ?? '').matchAll(/<tr><td>[^<]*<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td>/g)].map((m) => [
      m[1],
      m[2],
    ]);

  it('names a removed user by their address, never their id, in every row they made and in the session an owner ended', async () => {
    const account = await t.createAccount();
    const owner = await signedIn(t, account, 'owner');
    const developer = await signedIn(t, account, 'developer');
    const gone = await t.store.users.findUserByEmail(developer.email);
    await developer.visitor.get('/dashboard/credentials');
    t.clock.advance(1);
    expect((await developer.visitor.post('/dashboard/credentials', { name: 'Made by the developer', limit: 'all' })).statusCode).toBe(303);

    const security = await owner.visitor.get('/dashboard/security');
    const theirSession = /name="session" value="([0-9a-f]{64})"/.exec(security.body)?.[1] ?? '';
    t.clock.advance(1);
    expect((await owner.visitor.post('/dashboard/security/sessions/end', { session: theirSession })).statusCode).toBe(303);
    await owner.visitor.get('/dashboard/security');
    t.clock.advance(1);
    expect((await owner.visitor.post(`/dashboard/security/users/${gone?.id}/remove`)).statusCode).toBe(303);

    const page = await owner.visitor.get('/dashboard/security');
    expect(page.body).not.toContain(gone?.id);
    const rows = auditRows(page.body);
    expect(rows).toContainEqual([`removed user ${developer.email}`, expect.stringMatching(/^client\.created /)]);
    expect(rows).toContainEqual([`removed user ${developer.email}`, `user.joined ${developer.email} (developer)`]);
    expect(rows.some(([who, what]) => who === owner.email && what?.startsWith(`session.ended ${developer.email} from `))).toBe(true);
  });

  it("names an operator's change as the operator's to the account, and by the operator's address to operators only", async () => {
    const account = await t.createAccount();
    const owner = await signedIn(t, account, 'owner');
    const email = `ops-audit-${dialect}@example.com`;
    const { operator } = await addOperator(t.store, t.clock, { email, password: PASSWORD });
    t.clock.advance(1);
    await addCredits(t.store, t.clock, account.account.id, 5_000_000, 'goodwill', { actor: operator.id, ip: '10.9.9.9' });
    // The account's users see that an operator acted, not who of the installation's staff.
    const security = await owner.visitor.get('/dashboard/security');
    expect(auditRows(security.body)).toContainEqual(['operator', expect.stringMatching(/^credits\.added/)]);
    expect(security.body).not.toContain(email);
    // Operators see which of them it was.
    const staff = new Visitor(t);
    await staff.get('/dashboard/operator/sign-in');
    expect((await staff.post('/dashboard/operator/sign-in', { email, password: PASSWORD })).statusCode).toBe(303);
    const accountPage = await staff.get(`/dashboard/operator/accounts/${account.account.id}`);
    expect(accountPage.body).toContain(`operator ${email}`);
  });
});
