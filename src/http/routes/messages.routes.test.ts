import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { toIso } from '../../core/clock.js';
import { newMessageId } from '../../core/ids.js';

const TO = '+14155552671';
const READ_SCOPES = 'sms:read whatsapp:read email:read telegram:read';

describeEachDialect('universal message endpoint', (dialect) => {
  let t: TestApp;
  let owner: CreatedAccount;
  let token: string;
  let smsId: string;
  let sentAt: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await t.createAccount();
    token = await t.tokenFor(owner);
    sentAt = toIso(t.clock.now());
    const sent = await t.call('POST', '/v1/sms/send', token, { to: TO, message: 'a'.repeat(161), sender: 'Acme' });
    expect(sent.statusCode).toBe(200);
    smsId = sent.json().data.message_id;
  });
  afterAll(() => t.close());

  describe('GET /v1/messages/{id}', () => {
    it('returns an SMS in the universal shape with its status history', async () => {
      const response = await t.call('GET', `/v1/messages/${smsId}`, token);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        success: true,
        data: {
          message_id: smsId,
          direction: 'outbound',
          channel: 'sms',
          to: TO,
          status: 'queued',
          status_history: [{ status: 'queued', timestamp: sentAt }],
          credits_used: 2,
          created_at: sentAt,
          scheduled_at: null,
          error: null,
          route: null,
        },
      });
    });

    it('agrees with GET /v1/sms/{id} on the fields both show', async () => {
      const universal = (await t.call('GET', `/v1/messages/${smsId}`, token)).json().data;
      const sms = (await t.call('GET', `/v1/sms/${smsId}`, token)).json().data;
      for (const field of ['message_id', 'channel', 'to', 'status', 'credits_used', 'created_at', 'scheduled_at', 'error']) {
        expect(universal[field], field).toEqual(sms[field]);
      }
    });

    it('shows the scheduled time of a scheduled message, still queued', async () => {
      const at = toIso(t.clock.now() + 3600_000);
      const id = (await t.call('POST', '/v1/sms/send', token, { to: TO, message: 'later', scheduled_at: at })).json().data.message_id;
      const data = (await t.call('GET', `/v1/messages/${id}`, token)).json().data;
      expect(data).toMatchObject({ message_id: id, status: 'queued', scheduled_at: at, credits_used: 1 });
      expect(data.status_history).toEqual([{ status: 'queued', timestamp: data.created_at }]);
    });

    it('dates the history by when the message was accepted', async () => {
      t.clock.advance(90_000);
      const expected = toIso(t.clock.now());
      const id = (await t.call('POST', '/v1/sms/send', token, { to: TO, message: 'tick' })).json().data.message_id;
      t.clock.advance(5_000);
      const data = (await t.call('GET', `/v1/messages/${id}`, token)).json().data;
      expect(data.created_at).toBe(expected);
      expect(data.status_history).toEqual([{ status: 'queued', timestamp: expected }]);
    });
  });

  describe('not found', () => {
    let unknownBody: unknown;
    beforeAll(async () => {
      const unknown = await t.call('GET', `/v1/messages/${newMessageId('sms', t.clock.now())}`, token);
      expect(unknown.statusCode).toBe(404);
      unknownBody = unknown.json();
    });

    it('answers an unknown well-formed id with 404 NOT_FOUND', () => {
      expect(unknownBody).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.stringMatching(/\S/) } });
    });

    it("answers another account's message with the same 404, never 403", async () => {
      const stranger = await t.tokenFor(await t.createAccount());
      const response = await t.call('GET', `/v1/messages/${smsId}`, stranger);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(unknownBody);
      // A stranger limited to sms:read gets the same answer as well.
      const narrow = await t.tokenFor(await t.createAccount(), 'sms:read');
      expect((await t.call('GET', `/v1/messages/${smsId}`, narrow)).json()).toEqual(unknownBody);
    });

    it('answers ids of other channels with unknown suffixes, and garbage, with 404', async () => {
      const suffix = smsId.slice('msg_sms_'.length);
      for (const id of [`msg_email_${suffix}`, `msg_whatsapp_${suffix}`, `msg_telegram_${suffix}`, 'garbage', 'msg_fax_123', `${smsId}0`]) {
        const response = await t.call('GET', `/v1/messages/${id}`, token);
        expect(response.statusCode, id).toBe(404);
        expect(response.json().error.code, id).toBe('NOT_FOUND');
      }
    });

    it('answers an id the router cannot read with 400 INVALID_REQUEST in the envelope, with a request id', async () => {
      for (const id of ['msg_sms_%zz', `msg_sms_${'x'.repeat(300)}`]) {
        const response = await t.app.inject({
          method: 'GET',
          url: `/v1/messages/${id}`,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(response.statusCode, id).toBe(400);
        expect(response.json().error.code, id).toBe('INVALID_REQUEST');
        expect(response.headers['x-request-id'], id).toMatch(/^req_[0-9a-z]{20}$/);
      }
    });
  });

  describe("scopes (the read scope of the message's channel: docs/authentication.md, Scopes)", () => {
    it('serves a token holding only sms:read', async () => {
      const narrow = await t.tokenFor(owner, 'sms:read');
      const response = await t.call('GET', `/v1/messages/${smsId}`, narrow);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.message_id).toBe(smsId);
    });

    it('refuses an SMS to a token reading only other channels with 403 naming sms:read', async () => {
      const emailReader = await t.tokenFor(owner, 'email:read whatsapp:read');
      const response = await t.call('GET', `/v1/messages/${smsId}`, emailReader);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('INSUFFICIENT_SCOPE');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="herald", error="insufficient_scope", scope="sms:read"');
    });

    it('answers a missing scope alike for existing and unknown ids, so existence does not leak', async () => {
      const emailReader = await t.tokenFor(owner, 'email:read');
      const existing = await t.call('GET', `/v1/messages/${smsId}`, emailReader);
      const unknown = await t.call('GET', `/v1/messages/${newMessageId('sms', t.clock.now())}`, emailReader);
      expect(existing.statusCode).toBe(403);
      expect(unknown.statusCode).toBe(403);
      expect(unknown.json()).toEqual(existing.json());
    });

    it('refuses a token without any channel read scope with 403', async () => {
      for (const scope of ['sms:send', 'account:read', 'sms:send email:send account:read webhooks:manage']) {
        const writer = await t.tokenFor(owner, scope);
        const response = await t.call('GET', `/v1/messages/${smsId}`, writer);
        expect(response.statusCode, scope).toBe(403);
        expect(response.json().error.code, scope).toBe('INSUFFICIENT_SCOPE');
        expect(response.headers['www-authenticate'], scope).toBe(
          `Bearer realm="herald", error="insufficient_scope", scope="${READ_SCOPES}"`,
        );
      }
    });

    it('refuses a request without a token with 401', async () => {
      const response = await t.call('GET', `/v1/messages/${smsId}`, undefined);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('UNAUTHORIZED');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="herald"');
    });

    it('refuses a malformed token with 401 invalid_token', async () => {
      const response = await t.call('GET', `/v1/messages/${smsId}`, 'not.a.jwt');
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="herald", error="invalid_token"');
    });
  });
});
