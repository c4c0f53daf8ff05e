import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { TOKEN_TTL_SECONDS } from '../../auth/access-tokens.js';

describe('GET /v1/token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it("describes the caller's own token: client, account, sorted scopes and expiry, with any scope", async () => {
    const account = await t.createAccount();
    const issuedAt = Math.floor(t.clock.now() / 1000);
    const token = await t.tokenFor(account, 'sms:send email:read');
    const response = await t.call('GET', '/v1/token', token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        client_id: account.clientId,
        account_id: account.account.id,
        scopes: ['email:read', 'sms:send'],
        expires_at: new Date((issuedAt + TOKEN_TTL_SECONDS) * 1000).toISOString(),
      },
    });
  });

  it('refuses a missing or expired token like every /v1 route', async () => {
    const account = await t.createAccount();
    const token = await t.tokenFor(account);
    expect((await t.call('GET', '/v1/token', undefined)).json().error.code).toBe('UNAUTHORIZED');
    t.clock.advance((TOKEN_TTL_SECONDS + 1) * 1000);
    const expired = await t.call('GET', '/v1/token', token);
    expect(expired.statusCode).toBe(401);
    expect(expired.headers['www-authenticate']).toContain('invalid_token');
  });
});
