import { Ajv } from 'ajv';
import formatsPlugin from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { startReceiver } from '../../test/webhook-receiver.js';
import { assignAddress } from '../core/inbound/addresses.js';

interface Operation {
  operationId?: string;
  callbacks?: Record<string, Record<string, { post?: { operationId?: string } }>>;
  requestBody?: { content?: Record<string, { schema?: { $ref?: string; required?: string[] } }> };
  responses?: Record<
    string,
    { description?: string; headers?: Record<string, unknown>; content?: Record<string, { schema?: ErrorSchema }> }
  >;
  security?: Array<Record<string, string[]>>;
  tags?: string[];
}

interface ErrorSchema {
  $ref?: string;
  properties?: { error?: { properties?: { code?: { enum?: string[] } } } };
}

/** The API reference (/openapi.json, /docs) as a client generator and a reader find it. */
describe('the API reference', () => {
  let t: TestApp;
  let operations: Array<{ path: string; method: string; operation: Operation }>;
  let components: Record<string, ErrorSchema>;
  let document: {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, ErrorSchema> };
    webhooks?: Record<string, { post?: Operation & { requestBody?: { content: Record<string, { schema: ErrorSchema }> } } }>;
  };
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    components = document.components.schemas;
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('names every operation, once, in camelCase as users think of it (sendSms, listMessages)', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id) => id === undefined)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
    expect(ids).toEqual(expect.arrayContaining(['sendSms', 'sendSmsBulk', 'listMessages', 'getMessage', 'createToken', 'createWebhook']));
  });

  it('says which scope each /v1 operation needs, that the token endpoint takes HTTP Basic or the form, and the health checks nothing', () => {
    for (const { path, method, operation } of operations) {
      if (path.startsWith('/v1/')) expect(operation.security?.length, `${method} ${path}`).toBeGreaterThan(0);
      else if (path === '/oauth/token') expect(operation.security).toEqual([{ clientBasic: [] }, {}]);
      else expect(operation.security, `${method} ${path}`).toEqual([]);
    }
  });

  it('describes every response, and documents the headers Herald sends with it', () => {
    for (const { path, method, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const where = `${method} ${path} ${status}`;
        expect(response.description, where).not.toBe('Default Response');
        expect(response.headers, where).toHaveProperty('X-Request-Id');
        const v1 = path.startsWith('/v1/');
        if (v1 && (status === '200' || status === '201' || status === '429'))
          expect(response.headers, where).toHaveProperty('RateLimit-Remaining');
        if (v1 && (status === '401' || status === '503')) expect(response.headers, where).not.toHaveProperty('RateLimit-Remaining');
        if (v1 && (status === '429' || status === '503'))
          expect(Object.keys(response.headers ?? {}).filter((h) => h.toLowerCase() === 'retry-after')).toHaveLength(1);
      }
    }
    const send = operations.find(({ operation }) => operation.operationId === 'sendSms')?.operation;
    expect(send?.responses?.['200']?.headers).toHaveProperty('Idempotent-Replayed');
    expect(send?.responses?.['402']?.description).toBe('Not enough credits: INSUFFICIENT_CREDITS');
  });

  it('gives each error status only the codes it can carry (402 INSUFFICIENT_CREDITS, 404 NOT_FOUND)', () => {
    const codesOf = (operationId: string, status: string) => {
      const schema = operations.find(({ operation }) => operation.operationId === operationId)?.operation.responses?.[status]?.content?.[
        'application/json'
      ]?.schema;
      // Each status's error envelope is written once, under components.schemas, and referenced.
      expect(schema?.$ref).toBe(`#/components/schemas/Error${status}`);
      return components[`Error${status}`]?.properties?.error?.properties?.code?.enum;
    };
    expect(codesOf('sendSms', '402')).toEqual(['INSUFFICIENT_CREDITS']);
    expect(codesOf('getMessage', '404')).toEqual(['NOT_FOUND']);
    expect(codesOf('sendSms', '422')).toEqual(expect.arrayContaining(['VALIDATION_ERROR', 'INVALID_PHONE']));
    expect(codesOf('sendSms', '422')).not.toContain('NOT_FOUND');
  });

  it('names the main objects as schemas of their own, referenced where they are used', () => {
    const schemaOf = (operationId: string, status = '200') => {
      const operation = operations.find((o) => o.operation.operationId === operationId)?.operation;
      return operation?.responses?.[status]?.content?.['application/json']?.schema as { properties?: { data?: { $ref?: string } } };
    };
    expect(schemaOf('getSms').properties?.data?.$ref).toBe('#/components/schemas/SmsDetail');
    expect(schemaOf('getBalance').properties?.data?.$ref).toBe('#/components/schemas/Balance');
    expect(schemaOf('createWebhook', '201').properties?.data?.$ref).toBe('#/components/schemas/Webhook');
    const send = operations.find((o) => o.operation.operationId === 'sendSms')?.operation;
    expect(send?.requestBody?.content?.['application/json']?.schema?.$ref).toBe('#/components/schemas/SendSmsRequest');
    expect(Object.keys(components)).toEqual(
      expect.arrayContaining([
        'SmsAccepted',
        'SmsBulkAccepted',
        'EmailDetail',
        'WhatsappTemplate',
        'TelegramDetail',
        'WebhookDelivery',
        'Account',
      ]),
    );
  });

  it('describes what Herald posts: the webhook event, and the callbacks of every send that takes a callback_url', () => {
    const receive = document.webhooks?.messageEvent?.post;
    expect(receive?.operationId).toBe('receiveEvent');
    expect(receive?.requestBody?.content['application/json']?.schema.$ref).toBe('#/components/schemas/WebhookEvent');
    for (const operationId of ['sendSms', 'sendSmsBulk']) {
      const callbacks = operations.find((o) => o.operation.operationId === operationId)?.operation.callbacks;
      expect(callbacks?.messageEvents?.['{$request.body#/callback_url}']?.post?.operationId).toBe(`${operationId}Callback`);
    }
    // A send without a callback_url has none.
    expect(operations.find((o) => o.operation.operationId === 'sendEmail')?.operation.callbacks).toBeUndefined();
  });

  it('says the token request needs grant_type client_credentials', () => {
    const token = operations.find((o) => o.operation.operationId === 'createToken')?.operation;
    const form = token?.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
    expect(form?.required).toEqual(['grant_type']);
  });

  it('describes the events Herald really posts: deliveries of a message and a test event validate against WebhookEvent', async () => {
    const receiver = await startReceiver(() => 204);
    try {
      const account = await t.createAccount();
      const token = await t.tokenFor(account);
      const sent = await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'hi', callback_url: `${receiver.url}/cb` });
      expect(sent.statusCode).toBe(200);
      const webhook = await t.call('POST', '/v1/webhooks', token, { url: `${receiver.url}/hook`, events: ['*'] });
      expect(webhook.statusCode).toBe(201);
      expect((await t.call('POST', `/v1/webhooks/${webhook.json().data.webhook_id}/test`, token)).statusCode).toBe(202);
      // A recipient writes STOP: message.received, then suppression.created; a DELETE makes suppression.deleted.
      await assignAddress(t.store, { accountId: account.account.id, channel: 'sms', address: '+14155550170', at: t.clock.now() });
      await t.receive({ channel: 'sms', from: '+14155552671', to: '+14155550170', text: 'STOP', receivedAt: t.clock.now() });
      expect((await t.call('DELETE', '/v1/suppressions/sms/%2B14155552671', token)).statusCode).toBe(200);
      await t.drain();
      await receiver.waitFor(6, 5_000);
      const ajv = new Ajv({ strict: false });
      // ajv-formats is CommonJS: its function is the default export's `default` under NodeNext.
      (formatsPlugin as unknown as { default: (a: Ajv) => void }).default(ajv);
      const validate = ajv.compile(document.components.schemas.WebhookEvent as object);
      const types: string[] = [];
      for (const delivery of receiver.received) {
        const event = JSON.parse(delivery.body) as { type: string };
        expect(validate(event), `${delivery.body}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        types.push(event.type);
      }
      expect(types).toEqual(
        expect.arrayContaining([
          'message.sent',
          'message.delivered',
          'webhook.test',
          'message.received',
          'suppression.created',
          'suppression.deleted',
        ]),
      );
      // And something else does not.
      expect(validate({ id: 'evt_1', type: 'message.sent', created_at: '2026-01-01T00:00:00Z', data: { message_id: 'm' } })).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it('gives every JSON request body a realistic example that Herald itself accepts as valid', async () => {
    const token = await t.tokenFor(await t.createAccount({ credits: 100 }));
    const withExamples = operations.filter(
      ({ operation }) => (operation.requestBody?.content?.['application/json'] as { example?: unknown } | undefined)?.example !== undefined,
    );
    expect(withExamples.map(({ operation }) => operation.operationId)).toEqual(
      expect.arrayContaining(['sendSms', 'sendSmsBulk', 'sendEmail', 'sendTelegramMessage', 'sendWhatsappTemplate', 'createWebhook']),
    );
    for (const { path, method, operation } of withExamples) {
      const example = (operation.requestBody?.content?.['application/json'] as { example?: unknown } | undefined)?.example;
      const response = await t.call(method.toUpperCase() as 'POST', path, token, example);
      // Past the schema: sent, or refused for the account's state (no open WhatsApp session), never as invalid.
      const where = `${operation.operationId}: ${response.body}`;
      expect(response.statusCode, where).not.toBe(400);
      expect(response.json().error?.code, where).not.toBe('VALIDATION_ERROR');
    }
  });

  it("keeps the validator's own keywords and formats out of the document, and still validates with them", async () => {
    const text = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).body;
    expect(text).not.toMatch(/"errorMessage"|"maxBytes"|"iso-date-time"|"format":"e164"/);
    expect(text).toContain('"x-max-bytes"');
    // The routes still answer with their own wording and limits.
    const token = await t.tokenFor(await t.createAccount());
    const bad = await t.call('POST', '/v1/sms/send', token, { to: '+1', message: 'hi', scheduled_at: 'tomorrow' });
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json().error.details)).toContain('must be an ISO 8601 date-time');
  });

  it("is Herald's reference page, not Swagger UI's", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Herald API reference</title>');
    const icon = await t.app.inject({ method: 'GET', url: '/docs/static/theme/herald.svg' });
    expect(icon.headers['content-type']).toMatch(/svg/);
    expect(icon.body).toContain('<svg');
    // The top bar's logo is Herald's wordmark (swagger-initializer.js carries it).
    const initializer = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    const logo = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(initializer.body)?.[1] ?? '';
    expect(Buffer.from(logo, 'base64').toString()).toContain('>Herald API</text>');
  });

  it('answers a path it has no endpoint for (the bare address too) with 404 NOT_FOUND naming where the reference is', async () => {
    for (const url of ['/', '/v1/nothing-here?x=1']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toMatchObject({
        code: 'NOT_FOUND',
        message: `No endpoint GET ${url.split('?')[0]}. The API reference is at /docs (OpenAPI: /openapi.json).`,
      });
    }
  });
});
