import { request } from 'node:http';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../databases.js';
import { runCli, runCliOk } from '../process.js';
import { useServerWithAccount } from './server-with-account.js';

/** A request from a chosen loopback address (127.0.0.0/8 is all this machine's). */
function callFrom(localAddress: string, url: string, options: { method: string; headers: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { method: options.method, headers: options.headers, localAddress, timeout: 5_000 }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describeEachDialect('herald accounts allow-ip | disallow-ip | show, against a running server', (dialect) => {
  const state = useServerWithAccount(dialect, { name: 'Locked down', email: 'locked@example.com', credits: 5 });

  const tokenFrom = (localAddress: string) =>
    callFrom(localAddress, `${state.server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: state.account.client_id,
        client_secret: state.account.client_secret,
      }).toString(),
    });
  const balanceFrom = (localAddress: string, token: string) =>
    callFrom(localAddress, `${state.server.url}/v1/account/balance`, { method: 'GET', headers: { authorization: `Bearer ${token}` } });

  it('allows only the listed address once a rule exists, shows the list, and opens again when it is removed', async () => {
    const accountId = state.account.account_id;
    // Calls from anywhere while the list is empty (on PostgreSQL the server now keeps the empty list
    // in memory: the CLI's change below must reach it).
    const before = await tokenFrom('127.0.0.3');
    expect(before.status).toBe(200);
    expect((await balanceFrom('127.0.0.3', JSON.parse(before.body).access_token)).status).toBe(200);

    expect((await runCliOk(['accounts', 'allow-ip', accountId, '127.0.0.2'], state.env)).stdout).toBe(
      `${accountId}: allowed 127.0.0.2/32\n`,
    );
    expect((await runCliOk(['accounts', 'allow-ip', state.account.client_id, '127.0.0.2/32'], state.env)).stdout).toBe(
      `${accountId}: already allowed 127.0.0.2/32\n`,
    );
    const shown = JSON.parse((await runCliOk(['accounts', 'show', accountId, '--json'], state.env)).stdout);
    expect(shown).toMatchObject({ account_id: accountId, ip_allow_list: ['127.0.0.2/32'], credits: 5 });

    const allowed = await tokenFrom('127.0.0.2');
    expect(allowed.status).toBe(200);
    const token = JSON.parse(allowed.body).access_token as string;
    expect((await balanceFrom('127.0.0.2', token)).status).toBe(200);

    const refused = await tokenFrom('127.0.0.3');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ error: 'unauthorized_client' });
    const refusedCall = await balanceFrom('127.0.0.3', token);
    expect(refusedCall.status).toBe(403);
    expect(JSON.parse(refusedCall.body)).toMatchObject({ error: { code: 'IP_NOT_ALLOWED' } });

    expect((await runCliOk(['accounts', 'disallow-ip', accountId, '127.0.0.2'], state.env)).stdout).toBe(
      `${accountId}: removed 127.0.0.2/32; the allow-list is empty: every address may call\n`,
    );
    expect((await tokenFrom('127.0.0.3')).status).toBe(200);
  });

  it('refuses a malformed range and an unknown account with exit code 1 and one line, changing nothing', async () => {
    const bad = await runCli(['accounts', 'allow-ip', state.account.account_id, '10.0.0.0/33'], state.env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('expected an IPv4 or IPv6 address, or a CIDR range');
    const unknown = await runCli(['accounts', 'allow-ip', 'acc_nope', '10.0.0.1'], state.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('herald: no account acc_nope');
    const missing = await runCli(['accounts', 'disallow-ip', state.account.account_id, '10.9.9.9'], state.env);
    expect(missing.code).toBe(1);
    const shown = JSON.parse((await runCliOk(['accounts', 'show', state.account.account_id, '--json'], state.env)).stdout);
    expect(shown.ip_allow_list).toEqual([]);
  });
});
