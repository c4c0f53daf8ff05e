import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';
import { MAX_NESTING_DEPTH } from './validation.js';

const FORM = 'application/x-www-form-urlencoded';
const UNSTORABLE = 'must not contain U+0000 or an unpaired UTF-16 surrogate';

/** `{"a": {"a": ... 1}}`: `depth` objects, as JSON text (a value this deep cannot be JSON.stringify'd). */
const nestedJson = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describeEachDialect('text no store can hold, and bodies nested too deep', (dialect) => {
  let t: TestApp;
  let account: CreatedAccount;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    account = await t.createAccount({ credits: 100 });
    token = await t.tokenFor(account);
  });
  afterAll(async () => {
    await t.close();
  });

  const send = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { payload: body } : {}),
    });

  const expectFieldRefused = (response: LightMyRequestResponse, fields: string[]): void => {
    expect(response.statusCode, response.body).toBe(422);
    const { error } = response.json();
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual(fields.map((field) => ({ field, message: UNSTORABLE })));
  };

  const messagesOfAccount = async () =>
    (
      await t.store.messages.list({
        accountId: account.account.id,
        channels: ['sms', 'whatsapp', 'email', 'telegram'],
        limit: 1,
        offset: 0,
      })
    ).total;

  describe('in a body field: 422 VALIDATION_ERROR naming it, nothing stored', () => {
    it('refuses U+0000 in a message text and an unpaired surrogate in a callback_url, and writes no message', async () => {
      expectFieldRefused(await send('POST', '/v1/sms/send', JSON.stringify({ to: '+14155552671', message: 'code\u00001234' })), [
        'message',
      ]);
      expectFieldRefused(
        await send('POST', '/v1/sms/send', '{"to":"+14155552671","message":"hi","callback_url":"https://hooks.example.com/\\ud800"}'),
        ['callback_url'],
      );
      const both = await send('POST', '/v1/sms/send', JSON.stringify({ to: '+14155552671', message: '\u0000', sender: 'A\u0000' }));
      expect(both.json().error.message).toBe('2 fields are invalid.');
      expect(await messagesOfAccount()).toBe(0);
    });

    it('refuses U+0000 in a WhatsApp template parameter, naming its path', async () => {
      const body = {
        to: '+14155552671',
        template: 'verification_code',
        language: 'en_US',
        components: [{ type: 'body', parameters: [{ type: 'text', text: '12\u000034' }] }],
      };
      expectFieldRefused(await send('POST', '/v1/whatsapp/send', JSON.stringify(body)), ['components.0.parameters.0.text']);
      expect(await messagesOfAccount()).toBe(0);
    });

    it('refuses U+0000 in a webhook description and registers nothing', async () => {
      const body = { url: 'https://hooks.example.com/h', events: ['*'], description: 'ops\u0000' };
      expectFieldRefused(await send('POST', '/v1/webhooks', JSON.stringify(body)), ['description']);
      expect((await send('GET', '/v1/webhooks')).json().data.webhooks).toEqual([]);
    });

    it('refuses a key with U+0000 by its name', async () => {
      expectFieldRefused(await send('POST', '/v1/sms/send', '{"to":"+14155552671","message":"hi","x\\u0000":1}'), ['x\u0000']);
    });

    it('still sends text with emoji (paired surrogates)', async () => {
      const sent = await send('POST', '/v1/sms/send', JSON.stringify({ to: '+14155552671', message: 'Ready 😀' }));
      expect(sent.statusCode, sent.body).toBe(200);
      const id = sent.json().data.message_id;
      expect((await t.store.messages.findById(id))?.body).toBe('Ready 😀');
    });
  });

  it('refuses U+0000 in a query field with 422 naming it', async () => {
    const response = await send('GET', '/v1/whatsapp/templates?name=welcome%00');
    expectFieldRefused(response, ['name']);
    expect(response.json().error.message).toBe(`Invalid field 'name' in the query string: ${UNSTORABLE}.`);
  });

  it('refuses a malformed %-escape in the query of a route that reads one with 400, as in the path', async () => {
    for (const url of [
      '/v1/messages?channel=%ZZ',
      '/v1/messages?channel=sms&from=%',
      '/v1/messages/%ZZ',
      '/v1/whatsapp/templates?name=50%',
      // Two hex digits, but not UTF-8.
      '/v1/messages?channel=%FF',
    ]) {
      const response = await send('GET', url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
      expect(response.json().error.code).toBe('INVALID_REQUEST');
    }
    // A well-formed escape is read as ever.
    expect((await send('GET', '/v1/messages?channel=%73ms')).statusCode).toBe(200);
    expect((await send('GET', '/v1/whatsapp/templates?name=caf%C3%A9')).statusCode).toBe(200);
  });

  it('answers 404 for an id with U+0000 in the path: it names nothing', async () => {
    for (const [method, url] of [
      ['GET', '/v1/webhooks/wh_x%00'],
      ['DELETE', '/v1/webhooks/wh_x%00'],
      ['POST', '/v1/webhooks/wh_x%00/enable'],
      ['POST', '/v1/webhooks/wh_x/deliveries/whd_%00/replay'],
      ['GET', '/v1/messages/msg_sms_%00'],
      ['GET', '/v1/sms/msg_sms_x%00'],
      // Too long to be an id is not a field problem either: it names nothing.
      ['GET', `/v1/webhooks/wh_${'x'.repeat(150)}`],
      ['POST', `/v1/webhooks/wh_x/deliveries/whd_${'x'.repeat(150)}/replay`],
      ['GET', `/v1/messages/msg_sms_${'x'.repeat(150)}`],
    ] as const) {
      const response = await send(method, url);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    }
  });

  describe('at the token endpoint: RFC 6749 invalid_request', () => {
    const postToken = (form: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': FORM, ...headers }, payload: form });
    const basic = (credentials: string) => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

    it('refuses U+0000 in any form parameter with 400 invalid_request naming it', async () => {
      for (const [form, name] of [
        ['grant_type=client_credentials&client_id=cli_x%00&client_secret=s', 'client_id'],
        [`grant_type=client_credentials&client_id=${account.clientId}&client_secret=%00`, 'client_secret'],
        [`grant_type=client_credentials%00&client_id=${account.clientId}&client_secret=x`, 'grant_type'],
        [`grant_type=client_credentials&client_id=${account.clientId}&client_secret=x&scope=sms:send%00`, 'scope'],
      ] as const) {
        const response = await postToken(form);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toEqual({ error: 'invalid_request', error_description: `Invalid field '${name}': ${UNSTORABLE}.` });
      }
    });

    it('refuses U+0000 in HTTP Basic credentials, percent-encoded or raw, with 400 invalid_request', async () => {
      for (const credentials of ['cli_x%00:secret', 'cli_x\u0000:secret', `${account.clientId}:%00`]) {
        const response = await postToken('grant_type=client_credentials', { authorization: basic(credentials) });
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().error).toBe('invalid_request');
      }
    });

    it('still issues a token for good credentials in both forms', async () => {
      const viaBasic = await postToken('grant_type=client_credentials', {
        authorization: basic(`${account.clientId}:${account.clientSecret}`),
      });
      expect(viaBasic.statusCode, viaBasic.body).toBe(200);
    });
  });

  describe(`nesting: at most ${MAX_NESTING_DEPTH} levels, 400 INVALID_REQUEST above`, () => {
    it('refuses a body nested 9,000 levels with an Idempotency-Key on a route without a body schema, and leaves the key unused', async () => {
      const deep = await send('POST', '/v1/webhooks/secret/rotate', nestedJson(9_000), { 'idempotency-key': 'deep-9000' });
      expect(deep.statusCode, deep.body).toBe(400);
      expect(deep.json().error).toEqual({
        code: 'INVALID_REQUEST',
        message: `The request body is nested more than ${MAX_NESTING_DEPTH} levels deep.`,
      });
      const retry = await send('POST', '/v1/webhooks/secret/rotate', '{}', { 'idempotency-key': 'deep-9000' });
      expect(retry.statusCode, retry.body).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
    });

    it(`takes a body nested ${MAX_NESTING_DEPTH} levels and refuses one more level`, async () => {
      const atLimit = await send('POST', '/v1/webhooks/secret/rotate', nestedJson(MAX_NESTING_DEPTH), { 'idempotency-key': 'at-limit' });
      expect(atLimit.statusCode, atLimit.body).toBe(200);
      const replay = await send('POST', '/v1/webhooks/secret/rotate', nestedJson(MAX_NESTING_DEPTH), { 'idempotency-key': 'at-limit' });
      expect(replay.headers['idempotent-replayed']).toBe('true');
      const over = await send('POST', '/v1/webhooks/secret/rotate', nestedJson(MAX_NESTING_DEPTH + 1), { 'idempotency-key': 'over' });
      expect(over.statusCode).toBe(400);
    });

    it('refuses arrays nested 100,000 levels on a send, and on the token endpoint as invalid_request', async () => {
      const body = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      const sms = await send('POST', '/v1/sms/send', body);
      expect(sms.statusCode, sms.body).toBe(400);
      expect(sms.json().error.code).toBe('INVALID_REQUEST');
      const oauth = await t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      expect(oauth.statusCode, oauth.body).toBe(400);
      expect(oauth.json().error).toBe('invalid_request');
    });
  });
});
