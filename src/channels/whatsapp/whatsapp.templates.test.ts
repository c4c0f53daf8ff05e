import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { expectError, expectNothingWritten } from '../../../test/expectations.js';
import { openSessionWindow } from '../../../test/whatsapp.js';
import { toIso } from '../../core/clock.js';

const TO = '+14155552671';
const welcome = {
  to: TO,
  template: 'welcome',
  language: 'en_US',
  components: [
    {
      type: 'body',
      parameters: [
        { type: 'text', text: 'Ada' },
        { type: 'text', text: 'Herald' },
      ],
    },
  ],
};

describeEachDialect('GET /v1/whatsapp/templates and WhatsApp scopes', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  describe('the template list', () => {
    it('gives a new account the sandbox templates, as records sorted by name then language (docs/whatsapp.md)', async () => {
      const account = await t.createAccount();
      const response = await t.call('GET', '/v1/whatsapp/templates', await t.tokenFor(account));
      expect(response.statusCode).toBe(200);
      const created_at = toIso(account.account.createdAt);
      const body = (text: string) => [{ type: 'body', text }];
      expect(response.json()).toEqual({
        success: true,
        data: {
          templates: [
            {
              name: 'appointment_reminder',
              language: 'en_US',
              category: 'UTILITY',
              status: 'APPROVED',
              components: [
                { type: 'header', text: 'Appointment on {{1}}' },
                { type: 'body', text: 'Hi {{1}}, this is a reminder of your appointment with {{2}} at {{3}}.' },
                { type: 'footer', text: 'Reply STOP to opt out.' },
              ],
              created_at,
            },
            {
              name: 'order_update',
              language: 'en_US',
              category: 'UTILITY',
              status: 'APPROVED',
              components: body('Your order {{1}} is now {{2}}.'),
              created_at,
            },
            {
              name: 'order_update',
              language: 'es_ES',
              category: 'UTILITY',
              status: 'APPROVED',
              components: body('Tu pedido {{1}} ahora está {{2}}.'),
              created_at,
            },
            {
              name: 'spring_sale',
              language: 'en_US',
              category: 'MARKETING',
              status: 'PENDING',
              components: body('Spring sale: {{1}}% off everything until {{2}}!'),
              created_at,
            },
            {
              name: 'verification_code',
              language: 'en_US',
              category: 'AUTHENTICATION',
              status: 'APPROVED',
              components: body('Your verification code is {{1}}.'),
              created_at,
            },
            {
              name: 'welcome',
              language: 'en_US',
              category: 'UTILITY',
              status: 'APPROVED',
              components: body('Hello {{1}}, welcome to {{2}}!'),
              created_at,
            },
          ],
        },
      });
    });

    it('shows each account only its own templates', async () => {
      const a = await t.createAccount();
      const b = await t.createAccount();
      await t.store.templates.upsert({
        accountId: a.account.id,
        name: 'only_for_a',
        language: 'de',
        category: 'MARKETING',
        status: 'APPROVED',
        components: [{ type: 'body', text: 'Hallo {{1}}' }],
        createdAt: t.clock.now(),
      });
      await t.store.templates.remove(b.account.id, 'welcome', 'en_US');
      const names = async (account: typeof a) =>
        (
          (await t.call('GET', '/v1/whatsapp/templates', await t.tokenFor(account))).json().data.templates as Array<{
            name: string;
            language: string;
          }>
        ).map((x) => `${x.name}/${x.language}`);
      expect(await names(a)).toContain('only_for_a/de');
      expect(await names(a)).toContain('welcome/en_US');
      expect(await names(b)).not.toContain('only_for_a/de');
      expect(await names(b)).not.toContain('welcome/en_US');
    });

    it('filters by name, language and status', async () => {
      const token = await t.tokenFor(await t.createAccount());
      const list = async (query: string) =>
        (
          (await t.call('GET', `/v1/whatsapp/templates?${query}`, token)).json().data.templates as Array<{ name: string; language: string }>
        ).map((x) => `${x.name}/${x.language}`);
      expect(await list('name=order_update')).toEqual(['order_update/en_US', 'order_update/es_ES']);
      expect(await list('language=es_ES')).toEqual(['order_update/es_ES']);
      expect(await list('status=PENDING')).toEqual(['spring_sale/en_US']);
      expect(await list('status=APPROVED&name=spring_sale')).toEqual([]);
    });

    it('refuses an unknown query parameter (400) and an unknown status (422)', async () => {
      const token = await t.tokenFor(await t.createAccount());
      expectError(await t.call('GET', '/v1/whatsapp/templates?category=UTILITY', token), 400, 'INVALID_REQUEST');
      const error = expectError(await t.call('GET', '/v1/whatsapp/templates?status=LIVE', token), 422, 'VALIDATION_ERROR');
      expect(error.details).toEqual([{ field: 'status', message: 'must be one of: APPROVED, PENDING, REJECTED, PAUSED, DISABLED' }]);
    });
  });

  describe('scopes', () => {
    it('needs whatsapp:send to send, either kind, and writes nothing without it', async () => {
      const account = await t.createAccount();
      await openSessionWindow(t, account, TO);
      for (const scope of ['whatsapp:read', 'sms:send telegram:send account:read']) {
        const token = await t.tokenFor(account, scope);
        for (const [path, body] of [
          ['/v1/whatsapp/send', welcome],
          ['/v1/whatsapp/session', { to: TO, message: 'hi' }],
        ] as const) {
          const response = await expectNothingWritten(t, account, () => t.call('POST', path, token, body));
          expectError(response, 403, 'INSUFFICIENT_SCOPE');
          expect(response.headers['www-authenticate']).toContain('scope="whatsapp:send"');
        }
      }
      const token = await t.tokenFor(account, 'whatsapp:send');
      expect((await t.call('POST', '/v1/whatsapp/send', token, welcome)).statusCode).toBe(200);
      expect((await t.call('POST', '/v1/whatsapp/session', token, { to: TO, message: 'hi' })).statusCode).toBe(200);
    });

    it('needs whatsapp:read to list templates and read a message back', async () => {
      const account = await t.createAccount();
      const sender = await t.tokenFor(account, 'whatsapp:send');
      const id = (await t.call('POST', '/v1/whatsapp/send', sender, welcome)).json().data.message_id;
      for (const path of ['/v1/whatsapp/templates', `/v1/whatsapp/${id}`]) {
        const refused = await t.call('GET', path, sender);
        expectError(refused, 403, 'INSUFFICIENT_SCOPE');
        expect(refused.headers['www-authenticate']).toContain('scope="whatsapp:read"');
      }
      const reader = await t.tokenFor(account, 'whatsapp:read');
      expect((await t.call('GET', '/v1/whatsapp/templates', reader)).statusCode).toBe(200);
      expect((await t.call('GET', `/v1/whatsapp/${id}`, reader)).statusCode).toBe(200);
    });

    it('answers 401 without a token, before looking at the body', async () => {
      expectError(await t.call('POST', '/v1/whatsapp/send', undefined, {}), 401, 'UNAUTHORIZED');
      expectError(await t.call('POST', '/v1/whatsapp/session', undefined, {}), 401, 'UNAUTHORIZED');
      expectError(await t.call('GET', '/v1/whatsapp/templates', undefined), 401, 'UNAUTHORIZED');
    });
  });

  describe('GET /v1/whatsapp/{message_id}', () => {
    it("is 404 for another account's message, another channel's id and a malformed id", async () => {
      const owner = await t.createAccount();
      const id = (await t.call('POST', '/v1/whatsapp/send', await t.tokenFor(owner), welcome)).json().data.message_id;
      const stranger = await t.tokenFor(await t.createAccount());
      expectError(await t.call('GET', `/v1/whatsapp/${id}`, stranger), 404, 'NOT_FOUND');
      const ownerToken = await t.tokenFor(owner);
      const sms = (await t.call('POST', '/v1/sms/send', ownerToken, { to: TO, message: 'hi' })).json().data.message_id;
      expectError(await t.call('GET', `/v1/whatsapp/${sms}`, ownerToken), 404, 'NOT_FOUND');
      expectError(await t.call('GET', '/v1/whatsapp/msg_whatsapp_nope', ownerToken), 404, 'NOT_FOUND');
    });
  });

  it('documents its endpoints in the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const [path, method] of [
      ['/v1/whatsapp/send', 'post'],
      ['/v1/whatsapp/session', 'post'],
      ['/v1/whatsapp/templates', 'get'],
      ['/v1/whatsapp/{message_id}', 'get'],
    ] as const) {
      const operation = document.paths[path]?.[method];
      expect(operation?.tags, path).toEqual(['WhatsApp']);
      expect(operation?.description, path).toMatch(/\S/);
    }
    expect(document.paths['/v1/whatsapp/send'].post.description).toContain('TEMPLATE_PARAMS_MISMATCH');
    expect(document.paths['/v1/whatsapp/session'].post.description).toContain('SESSION_WINDOW_CLOSED');
  });
});
