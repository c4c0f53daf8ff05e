import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import { ERROR_CODES } from '../core/errors.js';

type Operation = {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};

/** Values chosen to break parsers and validators: wrong types, edges, huge, deep, hostile keys. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -0,
    1e308,
    -1e308,
    2 ** 53 + 1,
    -(2 ** 63),
    0.1,
    '',
    ' ',
    '\u0000',
    '\uFFFF',
    '\uD800',
    '𝄞',
    '+',
    '+0',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.constant('x'.repeat(70_000)),
  fc.constant(Array.from({ length: 2_000 }, (_, i) => `+1415555${String(i).padStart(4, '0')}`)),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }),
);

const deep = (depth: number): unknown => (depth === 0 ? 1 : { a: deep(depth - 1) });
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

/** A request body: a valid-looking one with a field broken, random JSON, or raw bytes. */
const bodyFor = (sample: Record<string, unknown>): fc.Arbitrary<{ payload: string | Buffer; contentType: string }> =>
  fc.oneof(
    // A known field set to something hostile, or a hostile key added.
    fc.tuple(fc.constantFrom(...Object.keys(sample), ...HOSTILE_KEYS, 'unknown_field'), hostileValue).map(([key, value]) => ({
      payload: JSON.stringify({ ...sample, [key]: value }).replace('"unknown_field"', `"${key}"`),
      contentType: 'application/json',
    })),
    fc.json({ maxDepth: 3 }).map((payload) => ({ payload, contentType: 'application/json' })),
    fc
      .constantFrom(
        JSON.stringify(deep(2_000)),
        '{"__proto__":{"polluted":true},"to":"+14155552671"}',
        '{',
        'null',
        '[]',
        '"text"',
        '{"a":1}{',
      )
      .map((payload) => ({ payload, contentType: 'application/json' })),
    fc
      .uint8Array({ maxLength: 64 })
      .map((bytes) => ({ payload: Buffer.from([0xff, 0xfe, 0xc3, ...bytes]), contentType: 'application/json; charset=utf-8' })),
    fc
      .tuple(fc.string({ maxLength: 30 }), fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', ''))
      .map(([payload, contentType]) => ({ payload, contentType })),
  );

const queryPart = fc.oneof(
  fc.constant(''),
  fc
    .array(
      fc.tuple(
        fc.constantFrom('limit', 'offset', 'status', 'channel', 'from', 'to', 'since', '__proto__', 'x'),
        fc.string({ maxLength: 12 }),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}` : '')),
);

describeEachDialect('fuzzing every route: hostile bodies, queries and headers', (dialect) => {
  let t: TestApp;
  let token: string;
  let operations: Operation[];
  let components: unknown;
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  (formatsPlugin as unknown as { default: (a: Ajv2020) => void }).default(ajv);
  ajv.addFormat('e164', /^\+[1-9]\d{1,14}$/);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    token = await t.tokenFor(await t.createAccount({ credits: 1_000_000 }));
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    components = document.components;
    operations = Object.entries(document.paths as Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>).flatMap(
      ([path, item]) =>
        Object.entries(item).map(([method, operation]) => ({
          method: method.toUpperCase() as Operation['method'],
          path,
          responses: operation.responses,
        })),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  const SAMPLES: Record<string, Record<string, unknown>> = {
    '/v1/sms/send': { to: '+14155552671', message: 'fuzz' },
    '/v1/sms/bulk': { recipients: ['+14155552671'], message: 'fuzz' },
    '/v1/whatsapp/send': { to: '+14155552671', template: 'verification_code', language: 'en_US' },
    '/v1/whatsapp/session': { to: '+14155552671', message: 'fuzz' },
    '/v1/email/send': { to: 'a@example.com', from: 'b@acme.example', subject: 's', text: 't' },
    '/v1/telegram/send': { chat_id: '4242', message: 'fuzz' },
    '/v1/telegram/photo': { chat_id: '4242', photo_url: 'https://example.com/p.jpg' },
    '/v1/webhooks': { url: 'https://hooks.example.com/h', events: ['*'] },
    '/oauth/token': { grant_type: 'client_credentials', client_id: 'cli_x', client_secret: 'hsec_x' },
  };

  const validatorFor = (operation: Operation, status: number) => {
    const schema = operation.responses[String(status)]?.content?.['application/json']?.schema;
    if (!schema) return undefined;
    const key = `${operation.method} ${operation.path} ${status}`;
    if (!ajv.getSchema(key)) ajv.addSchema({ ...(schema as object), components }, key);
    return ajv.getSchema(key);
  };

  it('answers 10,000+ hostile requests across all routes without a 5xx, each answer as documented', async () => {
    let requests = 0;
    const idLike = fc.oneof(
      fc.constantFrom('msg_sms_01m7yttg4pdmkkw2br2369cv46', 'wh_x', 'whd_x', '..%2F..', '%00', 'x'.repeat(300)),
      fc.string({ maxLength: 20 }),
    );
    const request = fc.record({
      operation: fc.integer({ min: 0, max: 10_000 }),
      id: idLike,
      query: queryPart,
      auth: fc.constantFrom('good', 'good', 'good', 'none', 'garbage'),
      idempotencyKey: fc.option(fc.oneof(fc.string({ maxLength: 10 }), fc.constant('k'.repeat(300))), { nil: undefined }),
      requestId: fc.option(fc.string({ maxLength: 200 }), { nil: undefined }),
      body: fc.integer({ min: 0, max: 1_000_000 }),
    });
    await fc.assert(
      fc.asyncProperty(request, fc.context(), async (r, ctx) => {
        const operation = operations[r.operation % operations.length] as Operation;
        // '.' and '..' are dot segments: URL resolution turns them into another route.
        const id = /^\.*$/.test(r.id) ? 'x' : encodeURIComponent(r.id);
        const path = operation.path.replace(/\{[^}]+\}/g, () => id);
        const sample = SAMPLES[operation.path] ?? {};
        const [body] = fc.sample(bodyFor(sample), { seed: r.body, numRuns: 1 });
        const headers: Record<string, string> = {};
        if (r.auth === 'good') headers.authorization = `Bearer ${token}`;
        if (r.auth === 'garbage') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.e30.';
        if (r.idempotencyKey !== undefined) headers['idempotency-key'] = r.idempotencyKey.replace(/[\r\n]/g, '');
        if (r.requestId !== undefined) headers['x-request-id'] = r.requestId.replace(/[^\x20-\x7e]/g, '');
        const withBody = operation.method === 'POST' && body;
        if (withBody && body.contentType) headers['content-type'] = body.contentType;
        const response = await t.app.inject({
          method: operation.method,
          url: `${path}${r.query}`,
          headers,
          ...(withBody ? { payload: body.payload } : {}),
        });
        requests++;
        ctx.log(`${operation.method} ${path}${r.query} → ${response.statusCode} ${response.body.slice(0, 300)}`);
        expect(response.statusCode).toBeLessThan(500);
        if (operation.path === '/docs' || !response.headers['content-type']?.toString().startsWith('application/json')) return;
        const json = response.json();
        if (operation.path.startsWith('/v1/')) {
          if (response.statusCode >= 400) {
            expect(json.success).toBe(false);
            expect(ERROR_CODES).toContain(json.error.code);
          } else {
            expect(json.success).toBe(true);
          }
        }
        const validate = validatorFor(operation, response.statusCode);
        if (validate && !validate(json)) throw new Error(`answer does not match the documented schema: ${ajv.errorsText(validate.errors)}`);
      }),
      { numRuns: 5_200, seed: 20261121, endOnFailure: true },
    );
    expect(requests).toBeGreaterThanOrEqual(5_000);
  }, 240_000);
});
