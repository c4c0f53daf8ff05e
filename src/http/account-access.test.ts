import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import {
  createClient,
  MAX_CLIENTS_PER_ACCOUNT,
  revokeClient,
  rotateClientSecret,
  setAccountPlan,
  setAccountSuspended,
} from '../core/accounts/manage-accounts.js';
import { ApiError } from '../core/errors.js';

describeEachDialect('API clients, secret grace periods and suspended accounts', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  const tokenRequest = (clientId: string, clientSecret: string, scope?: string) => t.tokenRequest(clientId, clientSecret, scope);

  describe('named clients', () => {
    it('a client limited to some scopes is granted only those, and refused any other', async () => {
      const account = await t.createAccount();
      t.clock.advance(1);
      const { client, clientSecret } = await createClient(t.store, t.clock, account.account.id, {
        name: 'Reporting job',
        scopes: ['sms:read', 'account:read'],
      });
      expect(client.name).toBe('Reporting job');
      const all = await tokenRequest(client.clientId, clientSecret);
      expect(all.statusCode).toBe(200);
      expect(all.json().scope.split(' ').sort()).toEqual(['account:read', 'sms:read']);
      const send = await tokenRequest(client.clientId, clientSecret, 'sms:send');
      expect(send.statusCode).toBe(400);
      expect(send.json()).toEqual({ error: 'invalid_scope', error_description: 'This client may not be granted: sms:send.' });
      // The account's first client still has every scope.
      expect((await tokenRequest(account.clientId, account.clientSecret, 'sms:send')).statusCode).toBe(200);
      expect((await t.store.accounts.listClients(account.account.id)).map((c) => c.name)).toEqual(['Default', 'Reporting job']);
    });

    it('refuses a name that is empty, no scopes, or a scope the account may not have', async () => {
      const account = await t.createAccount({ scopes: ['sms:send', 'sms:read'] });
      const attempt = (name: string, scopes: string[] | null) => createClient(t.store, t.clock, account.account.id, { name, scopes });
      await expect(attempt('  ', null)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'name' }] });
      await expect(attempt('x', [])).rejects.toMatchObject({ details: [{ field: 'scopes', message: 'choose at least one scope' }] });
      await expect(attempt('x', ['email:send'])).rejects.toBeInstanceOf(ApiError);
      expect(await t.store.accounts.listClients(account.account.id)).toHaveLength(1);
    });

    it(`never lets clients created at once pass ${MAX_CLIENTS_PER_ACCOUNT} per account`, async () => {
      const account = await t.createAccount();
      const attempts = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) => createClient(t.store, t.clock, account.account.id, { name: `svc${i}`, scopes: null })),
      );
      // The account's first client (Default) counts: 19 more fit.
      expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(MAX_CLIENTS_PER_ACCOUNT - 1);
      for (const attempt of attempts.filter((a) => a.status === 'rejected')) {
        expect((attempt as PromiseRejectedResult).reason).toMatchObject({
          code: 'VALIDATION_ERROR',
          details: [{ field: 'name', message: `an account may have at most ${MAX_CLIENTS_PER_ACCOUNT} API clients; revoke one first` }],
        });
      }
      expect(await t.store.accounts.listClients(account.account.id)).toHaveLength(MAX_CLIENTS_PER_ACCOUNT);
    });

    it('a revoked client gets no token, and the tokens it already has stop working at once', async () => {
      const account = await t.createAccount();
      const { client, clientSecret } = await createClient(t.store, t.clock, account.account.id, { name: 'CI', scopes: null });
      const token = (await tokenRequest(client.clientId, clientSecret)).json().access_token as string;
      expect((await t.call('GET', '/v1/account/balance', token)).statusCode).toBe(200);

      t.clock.advance(1);
      expect(await revokeClient(t.store, t.clock, account.account.id, client.clientId)).toBe(true);
      const refused = await t.call('GET', '/v1/account/balance', token);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error).toMatchObject({
        code: 'UNAUTHORIZED',
        message: 'The access token belongs to an API client that was revoked.',
      });
      expect((await tokenRequest(client.clientId, clientSecret)).json().error).toBe('invalid_client');
      // Revoking it again, or from another account, changes nothing.
      expect(await revokeClient(t.store, t.clock, account.account.id, client.clientId)).toBe(false);
      const other = await t.createAccount();
      expect(await revokeClient(t.store, t.clock, other.account.id, account.clientId)).toBe(false);
      expect((await tokenRequest(account.clientId, account.clientSecret)).statusCode).toBe(200);
      const audit = await t.store.users.listAudit(account.account.id, 10);
      expect(audit.map((a) => a.action)).toEqual(['client.revoked', 'client.created']);
    });
  });

  describe('secret rotation', () => {
    it('without a grace period the old secret stops at once', async () => {
      const account = await t.createAccount();
      const rotated = await rotateClientSecret(t.store, t.clock, account.clientId);
      expect(rotated?.outcome === 'rotated' ? rotated.previousUntil : 'not rotated').toBeNull();
      expect((await tokenRequest(account.clientId, account.clientSecret)).statusCode).toBe(401);
      expect((await tokenRequest(account.clientId, rotated?.outcome === 'rotated' ? rotated.clientSecret : '')).statusCode).toBe(200);
    });

    it('with a grace period both secrets work until it ends, then only the new one', async () => {
      const account = await t.createAccount();
      const rotated = await rotateClientSecret(t.store, t.clock, account.clientId, { actor: 'operator', ip: null }, 3600_000);
      expect(rotated?.outcome === 'rotated' ? rotated.previousUntil : 'not rotated').toBe(t.clock.now() + 3600_000);
      expect((await tokenRequest(account.clientId, account.clientSecret)).statusCode).toBe(200);
      expect((await tokenRequest(account.clientId, rotated?.outcome === 'rotated' ? rotated.clientSecret : '')).statusCode).toBe(200);
      t.clock.advance(3600_000);
      expect((await tokenRequest(account.clientId, account.clientSecret)).json().error).toBe('invalid_client');
      expect((await tokenRequest(account.clientId, rotated?.outcome === 'rotated' ? rotated.clientSecret : '')).statusCode).toBe(200);
    });

    it('a second rotation ends the first secret: only the one it replaces gets a grace period', async () => {
      const account = await t.createAccount();
      const first = await rotateClientSecret(t.store, t.clock, account.clientId, undefined, 3600_000);
      const second = await rotateClientSecret(t.store, t.clock, account.clientId, undefined, 3600_000);
      expect((await tokenRequest(account.clientId, account.clientSecret)).statusCode).toBe(401);
      expect((await tokenRequest(account.clientId, first?.outcome === 'rotated' ? first.clientSecret : '')).statusCode).toBe(200);
      expect((await tokenRequest(account.clientId, second?.outcome === 'rotated' ? second.clientSecret : '')).statusCode).toBe(200);
    });

    it('refuses a grace period longer than a week, changing nothing', async () => {
      const account = await t.createAccount();
      await expect(rotateClientSecret(t.store, t.clock, account.clientId, undefined, 8 * 24 * 3600_000)).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
      });
      expect((await tokenRequest(account.clientId, account.clientSecret)).statusCode).toBe(200);
    });
  });

  describe('suspension', () => {
    it('a suspended account gets no token and its tokens are refused with 403 ACCOUNT_SUSPENDED, until reinstated', async () => {
      const account = await t.createAccount();
      const token = await t.tokenFor(account);
      expect(await setAccountSuspended(t.store, t.clock, account.account.id, true)).toBe(true);
      expect((await t.store.accounts.findAccount(account.account.id))?.suspendedAt).toBe(t.clock.now());
      // Suspending again keeps the first time and writes no second audit row.
      t.clock.advance(5);
      expect(await setAccountSuspended(t.store, t.clock, account.account.id, true)).toBe(false);
      expect((await t.store.accounts.findAccount(account.account.id))?.suspendedAt).toBe(t.clock.now() - 5);

      const call = await t.call('GET', '/v1/account/balance', token);
      expect(call.statusCode).toBe(403);
      expect(call.json().error.code).toBe('ACCOUNT_SUSPENDED');
      const tokenRefused = await tokenRequest(account.clientId, account.clientSecret);
      expect(tokenRefused.statusCode).toBe(403);
      // OAuth's code for OAuth clients, and Herald's, the same as the API's, for everyone else.
      expect(tokenRefused.json()).toMatchObject({ error: 'unauthorized_client', code: 'ACCOUNT_SUSPENDED' });
      // Another account is untouched.
      const other = await t.createAccount();
      expect((await t.call('GET', '/v1/account/balance', await t.tokenFor(other))).statusCode).toBe(200);

      t.clock.advance(1);
      expect(await setAccountSuspended(t.store, t.clock, account.account.id, false)).toBe(true);
      expect((await t.call('GET', '/v1/account/balance', token)).statusCode).toBe(200);
      const audit = await t.store.users.listAudit(account.account.id, 10);
      expect(audit.map((a) => a.action)).toEqual(['account.reinstated', 'account.suspended']);
    });

    it('a plan change is kept and audited; an unknown plan is refused', async () => {
      const account = await t.createAccount();
      expect(await setAccountPlan(t.store, t.clock, account.account.id, 'business')).toBe(true);
      expect((await t.store.accounts.access(account.account.id)).plan).toBe('business');
      expect((await t.store.accounts.findAccount(account.account.id))?.plan).toBe('business');
      await expect(setAccountPlan(t.store, t.clock, account.account.id, 'platinum')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(await setAccountPlan(t.store, t.clock, 'acc_missing', 'business')).toBe(false);
    });
  });

  it('allow-list entries keep their note', async () => {
    const account = await t.createAccount();
    await t.store.accounts.addIpRule(account.account.id, '192.0.2.0/24', t.clock.now(), 'office VPN');
    await t.store.accounts.addIpRule(account.account.id, '198.51.100.7/32', t.clock.now() + 1);
    expect(await t.store.accounts.listIpRules(account.account.id)).toEqual([
      { cidr: '192.0.2.0/24', note: 'office VPN', createdAt: t.clock.now() },
      { cidr: '198.51.100.7/32', note: null, createdAt: t.clock.now() + 1 },
    ]);
    expect(await t.store.accounts.access(account.account.id)).toEqual({
      suspended: false,
      plan: 'developer',
      ipRules: ['192.0.2.0/24', '198.51.100.7/32'],
      clientIds: [account.clientId],
    });
  });
});
