import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';

describeEachDialect('account endpoints', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  describe('GET /v1/account', () => {
    it('returns the profile of the account the token belongs to', async () => {
      const created = await t.createAccount({ name: 'Acme', email: 'ops@acme.example', plan: 'business' });
      const token = await t.tokenFor(created);
      const response = await t.call('GET', '/v1/account', token);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        success: true,
        data: {
          client_id: created.clientId,
          account_id: created.account.id,
          name: 'Acme',
          email: 'ops@acme.example',
          plan: 'business',
          created_at: new Date(created.account.createdAt).toISOString(),
        },
      });
    });

    it('refuses a token without account:read with 403 INSUFFICIENT_SCOPE', async () => {
      const created = await t.createAccount();
      const token = await t.tokenFor(created, 'sms:send');
      const response = await t.call('GET', '/v1/account', token);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('INSUFFICIENT_SCOPE');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="herald", error="insufficient_scope", scope="account:read"');
    });
  });

  describe('GET /v1/account/balance', () => {
    it('shows credits, reserved and available, moving as a send reserves its cost', async () => {
      const created = await t.createAccount({ credits: 10 });
      const token = await t.tokenFor(created);
      expect((await t.call('GET', '/v1/account/balance', token)).json().data).toEqual({
        credits: 10,
        reserved: 0,
        available: 10,
      });
      const sent = await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'a'.repeat(161) });
      expect(sent.statusCode).toBe(200);
      expect((await t.call('GET', '/v1/account/balance', token)).json().data).toEqual({
        credits: 10,
        reserved: 2,
        available: 8,
      });
    });
  });
});
