import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { EMBEDDED_INTERNAL_IPV4, urlOfHost } from '../../../test/ssrf-cases.js';
import type { Lookup } from '../../webhooks/ssrf-guard.js';

/** DNS as the tests want it: `inside.example.com` is a private address, everything else public. */
const lookup: Lookup = async (hostname) => [{ address: hostname === 'inside.example.com' ? '10.0.0.7' : '93.184.216.34', family: 4 }];

describeEachDialect('the SSRF guard on a message’s callback_url', (dialect) => {
  let t: TestApp;
  let token: string;
  let accountId: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { webhooks: { allowPrivateNetworks: false, lookup } });
    const account = await t.createAccount({ credits: 10 });
    accountId = account.account.id;
    token = await t.tokenFor(account);
  });
  afterAll(() => t.close());

  it.each([
    ['a name resolving to a private address', 'https://inside.example.com/cb'],
    ['loopback', 'http://127.0.0.1:8080/cb'],
    ['loopback written in decimal', 'http://2130706433/cb'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data'],
    ['localhost', 'http://localhost/cb'],
    ...EMBEDDED_INTERNAL_IPV4.map(({ host, form }): [string, string] => [`[${host}], ${form}`, urlOfHost(host, undefined, '/cb')]),
  ])('refuses %s with 422 on callback_url, writing nothing', async (_case, callbackUrl) => {
    const before = await t.store.credits.ledger(accountId);
    for (const [url, body] of [
      ['/v1/sms/send', { to: '+14155552671', message: 'hi', callback_url: callbackUrl }],
      ['/v1/sms/bulk', { recipients: ['+14155552671'], message: 'hi', callback_url: callbackUrl }],
    ] as const) {
      const response = await t.call('POST', url, token, body);
      expect(response.statusCode).toBe(422);
      expect(response.json().error.details).toEqual([{ field: 'callback_url', message: expect.stringMatching(/^is refused: the URL /) }]);
    }
    expect(await t.store.credits.ledger(accountId)).toEqual(before);
  });

  it('accepts a public callback_url', async () => {
    const response = await t.call('POST', '/v1/sms/send', token, {
      to: '+14155552671',
      message: 'hi',
      callback_url: 'https://hooks.example.com/cb',
    });
    expect(response.statusCode).toBe(200);
  });
});
