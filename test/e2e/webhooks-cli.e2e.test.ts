import { expect, it } from 'vitest';
import { describeEachDialect } from '../databases.js';
import { runCli, runCliOk } from '../process.js';
import { api } from './api.js';
import { useServerWithAccount } from './server-with-account.js';

/** `herald webhooks secret|rotate-secret` against the store of a running server, checked through its API. */

describeEachDialect('herald webhooks commands, next to a running server', (dialect) => {
  const ctx = useServerWithAccount(dialect, { name: 'Webhooks CLI', email: 'wh@example.com' });

  const heraldOk = (...args: string[]) => runCliOk(args, ctx.env);
  const apiSecret = async () => (await api(ctx.server.url, 'GET', '/v1/webhooks/secret', ctx.token)).body.data;

  it('webhooks secret prints the secret the API shows, by account id or client id', async () => {
    const printed = JSON.parse((await heraldOk('webhooks', 'secret', ctx.account.account_id, '--json')).stdout);
    expect(printed).toEqual({ account_id: ctx.account.account_id, secret: expect.stringMatching(/^whsec_/) });
    expect(await apiSecret()).toEqual({ secret: printed.secret });
    const byClient = await heraldOk('webhooks', 'secret', ctx.account.client_id);
    expect(byClient.stdout).toContain(`secret      ${printed.secret}`);
  });

  it('webhooks rotate-secret makes a new secret, the old one signing beside it for 24 hours', async () => {
    const before = (await apiSecret()).secret;
    const rotated = JSON.parse((await heraldOk('webhooks', 'rotate-secret', ctx.account.client_id, '--json')).stdout);
    expect(rotated).toEqual({
      account_id: ctx.account.account_id,
      secret: expect.stringMatching(/^whsec_/),
      previous_secret_expires_at: expect.any(String),
    });
    expect(rotated.secret).not.toBe(before);
    const hours = (Date.parse(rotated.previous_secret_expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect(await apiSecret()).toEqual({ secret: rotated.secret, previous_secret_expires_at: rotated.previous_secret_expires_at });
  });

  it('names an unknown account and exits 1', async () => {
    const result = await runCli(['webhooks', 'secret', 'acc_nobody'], ctx.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('herald: no account acc_nobody\n');
  });
});
