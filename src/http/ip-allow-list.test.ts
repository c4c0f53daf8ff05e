import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';

describeEachDialect('IP allow-lists on the token endpoint and /v1', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  const tokenFrom = (remoteAddress: string, account: { clientId: string; clientSecret: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: account.clientId,
        client_secret: account.clientSecret,
      }).toString(),
    });
  const balanceFrom = (remoteAddress: string, token: string) =>
    t.app.inject({ method: 'GET', url: '/v1/account/balance', remoteAddress, headers: { authorization: `Bearer ${token}` } });

  it('an account without a list may call from anywhere', async () => {
    const account = await t.createAccount();
    const token = await tokenFrom('198.51.100.23', account);
    expect(token.statusCode).toBe(200);
    expect((await balanceFrom('2001:db8::77', token.json().access_token)).statusCode).toBe(200);
  });

  it('with a list: tokens and API calls only from listed addresses; others get 403 IP_NOT_ALLOWED', async () => {
    const account = await t.createAccount();
    await t.store.accounts.addIpRule(account.account.id, '127.0.0.2/32', t.clock.now());
    await t.store.accounts.addIpRule(account.account.id, '2001:db8::/32', t.clock.now());

    const allowed = await tokenFrom('127.0.0.2', account);
    expect(allowed.statusCode).toBe(200);
    const token: string = allowed.json().access_token;
    expect((await balanceFrom('127.0.0.2', token)).statusCode).toBe(200);
    expect((await balanceFrom('::ffff:127.0.0.2', token)).statusCode).toBe(200);
    expect((await balanceFrom('2001:db8:5::1', token)).statusCode).toBe(200);

    const refusedToken = await tokenFrom('127.0.0.3', account);
    expect(refusedToken.statusCode).toBe(403);
    expect(refusedToken.json()).toEqual({
      error: 'unauthorized_client',
      error_description: 'Requests from 127.0.0.3 are not allowed for this account (its IP allow-list).',
      code: 'IP_NOT_ALLOWED',
    });
    // A token obtained from an allowed address does not work from another one.
    const refusedCall = await balanceFrom('127.0.0.3', token);
    expect(refusedCall.statusCode).toBe(403);
    expect(refusedCall.json()).toMatchObject({ success: false, error: { code: 'IP_NOT_ALLOWED' } });
  });

  it('a wrong secret from a refused address is still invalid_client: the list is checked only for a known client', async () => {
    const account = await t.createAccount();
    await t.store.accounts.addIpRule(account.account.id, '127.0.0.2/32', t.clock.now());
    const wrong = await tokenFrom('127.0.0.9', { clientId: account.clientId, clientSecret: 'hsec_wrong' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('invalid_client');
  });

  it('removing the last rule opens the account again', async () => {
    const account = await t.createAccount();
    await t.store.accounts.addIpRule(account.account.id, '127.0.0.2/32', t.clock.now());
    expect((await tokenFrom('127.0.0.4', account)).statusCode).toBe(403);
    expect(await t.store.accounts.removeIpRule(account.account.id, '127.0.0.2/32')).toBe(true);
    expect(await t.store.accounts.removeIpRule(account.account.id, '127.0.0.2/32')).toBe(false);
    expect((await tokenFrom('127.0.0.4', account)).statusCode).toBe(200);
  });

  it('keeps each rule once, in the order added', async () => {
    const account = await t.createAccount();
    expect(await t.store.accounts.addIpRule(account.account.id, '10.0.0.0/8', 1)).toBe(true);
    expect(await t.store.accounts.addIpRule(account.account.id, '10.0.0.0/8', 2)).toBe(false);
    expect(await t.store.accounts.addIpRule(account.account.id, '192.0.2.1/32', 3)).toBe(true);
    expect(await t.store.accounts.ipRules(account.account.id)).toEqual(['10.0.0.0/8', '192.0.2.1/32']);
  });
});

describeEachDialect('IP allow-lists behind a trusted proxy (TRUSTED_PROXIES)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { security: { production: false, trustedProxies: ['10.0.0.0/8'] } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes the client address from X-Forwarded-For only when the hop is a trusted proxy', async () => {
    const account = await t.createAccount();
    await t.store.accounts.addIpRule(account.account.id, '203.0.113.7/32', t.clock.now());
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: account.clientId,
      client_secret: account.clientSecret,
    }).toString();
    const tokenVia = (remoteAddress: string, forwardedFor: string) =>
      t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
        payload: form,
      });
    expect((await tokenVia('10.1.1.1', '203.0.113.7')).statusCode).toBe(200);
    expect((await tokenVia('10.1.1.1', '198.51.100.5')).statusCode).toBe(403);
    // Anyone else claiming to forward for the allowed address is judged by their own address.
    const spoofed = await tokenVia('198.51.100.5', '203.0.113.7');
    expect(spoofed.statusCode).toBe(403);
    expect(spoofed.json().error_description).toContain('198.51.100.5');
  });
});
