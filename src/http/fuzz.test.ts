import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';
import { ERROR_CODES } from '../core/errors.js';
import { OAUTH_ERRORS } from './oauth/oauth-errors.js';

/**
 * HERALD_FUZZ=full runs the full size (16,000 random requests a dialect, plus the sweep); the suite
 * runs 1,500 a dialect. Both end with a line of figures: requests, statuses seen, 5xx.
 */
const FULL = process.env.HERALD_FUZZ === 'full';
const RANDOM_RUNS = FULL ? 16_000 : 1_500;

type Method = 'GET' | 'POST' | 'DELETE';
type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; $ref?: string };

/** The document's named schemas (components.schemas), which request bodies and their parts reference. */
let namedSchemas: Record<string, Schema> = {};
/** A schema, read through its `$ref` when it names one. */
const resolved = (schema: Schema): Schema =>
  schema.$ref ? (namedSchemas[schema.$ref.replace('#/components/schemas/', '')] ?? schema) : schema;
type Operation = {
  method: Method;
  path: string;
  parameters: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};
type FieldPath = Array<string | number>;
type Attempt = {
  method: Method;
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
  /** What the answer must be, when the attempt is built to provoke one refusal. */
  expected?: { status: number; code: string; field?: string };
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

/** Text no store can hold: U+0000 or an unpaired surrogate, somewhere in otherwise ordinary text. */
const UNSTORABLE_PIECES = ['\u0000', '\uD800', '\uDFFF', '\uDBFF\u0000', '\u0000\u0000', '😀\uD83D'];
const unstorableText = fc
  .tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...UNSTORABLE_PIECES), fc.string({ maxLength: 12 }))
  .map(([before, bad, after]) => `${before}${bad}${after}`);
/** The same in a URL: %00 (an unpaired surrogate has no UTF-8 to percent-encode; %ED%A0%80 is its CESU-8 try). */
const unstorableUrlText = fc
  .tuple(fc.stringMatching(/^[A-Za-z0-9_]{0,12}$/), fc.constantFrom('%00', '%00%00', '%ED%A0%80'), fc.stringMatching(/^[A-Za-z0-9_]{0,6}$/))
  .map(([before, bad, after]) => `${before}${bad}${after}`);

/** `depth` levels of arrays, objects or both, as JSON text (values this deep cannot be JSON.stringify'd). */
const nestedJson = (depth: number, shape: 'array' | 'object' | 'mixed'): string => {
  const open = { array: '[', object: '{"a":', mixed: '[{"a":' }[shape];
  const close = { array: ']', object: '}', mixed: '}]' }[shape];
  const levels = shape === 'mixed' ? Math.ceil(depth / 2) : depth;
  return `${open.repeat(levels)}1${close.repeat(levels)}`;
};
const depth = fc.oneof(fc.integer({ min: 1, max: 130 }), fc.integer({ min: 1, max: 100_000 }), fc.constant(100_000));

const deep = (levels: number): unknown => (levels === 0 ? 1 : { a: deep(levels - 1) });
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
        fc.constantFrom('limit', 'offset', 'status', 'channel', 'from', 'to', 'since', 'name', 'language', '__proto__', 'x'),
        fc.oneof(fc.string({ maxLength: 12 }).map(encodeURIComponent), unstorableUrlText),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : '')),
);

/** Valid bodies, so that a field broken alone is the request's only fault. */
const SAMPLES: Record<string, Record<string, unknown>> = {
  '/v1/sms/send': { to: '+14155552671', message: 'fuzz', sender: 'Acme', callback_url: 'https://hooks.example.com/cb' },
  '/v1/sms/bulk': { recipients: ['+14155552671'], message: 'fuzz' },
  '/v1/sms/preview': { to: '+14155552671', message: 'fuzz' },
  '/v1/whatsapp/send': {
    to: '+14155552671',
    template: 'verification_code',
    language: 'en_US',
    components: [{ type: 'body', parameters: [{ type: 'text', text: '1234' }] }],
  },
  '/v1/whatsapp/session': { to: '+14155552671', message: 'fuzz' },
  '/v1/whatsapp/preview': { to: '+14155552671', message: 'fuzz' },
  '/v1/email/send': { to: 'a@example.com', from: 'b@acme.example', subject: 's', text: 't', html: '<p>t</p>', cc: ['c@example.com'] },
  '/v1/email/preview': { to: 'a@example.com', from: 'b@acme.example', subject: 's', text: 't', html: '<p>t</p>', cc: ['c@example.com'] },
  '/v1/telegram/send': { chat_id: '4242', message: 'fuzz', reply_markup: { inline_keyboard: [[{ text: 'Yes', callback_data: 'y' }]] } },
  '/v1/telegram/photo': { chat_id: '4242', photo_url: 'https://example.com/p.jpg', caption: 'c' },
  '/v1/telegram/preview': { chat_id: '4242', message: 'fuzz', parse_mode: 'HTML' },
  '/v1/telegram/photo/preview': { chat_id: '4242', photo_url: 'https://example.com/p.jpg', caption: 'c' },
  '/v1/webhooks': { url: 'https://hooks.example.com/h', events: ['*'], description: 'd' },
  '/oauth/token': { grant_type: 'client_credentials', client_id: 'cli_x', client_secret: 'hsec_x' },
};

/** Every string in a request schema, by path (`components.0.parameters.0.text`); arrays by their first item. */
function stringFields(given: Schema, path: FieldPath = []): FieldPath[] {
  const schema = resolved(given);
  if (schema.type === 'string' || schema.anyOf?.every((branch) => branch.type === 'string')) return [path];
  const fields: FieldPath[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) fields.push(...stringFields(property, [...path, name]));
  if (schema.items) fields.push(...stringFields(schema.items, [...path, 0]));
  for (const branch of schema.anyOf ?? []) fields.push(...stringFields(branch, path));
  return fields;
}

/** A copy of `body` with `value` at `path`, making the arrays and objects on the way. */
function withField(body: Record<string, unknown>, path: FieldPath, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let node: Record<string | number, unknown> = copy;
  path.forEach((step, i) => {
    if (i === path.length - 1) {
      node[step] = value;
      return;
    }
    const next = path[i + 1];
    const existing = node[step];
    if (existing === null || typeof existing !== 'object') node[step] = typeof next === 'number' ? [] : {};
    node = node[step] as Record<string | number, unknown>;
  });
  return copy;
}

const isForm = (operation: Operation) => Boolean(operation.requestBody?.content['application/x-www-form-urlencoded']);
const bodySchemaOf = (operation: Operation): Schema | undefined => {
  const schema =
    operation.requestBody?.content['application/json']?.schema ??
    operation.requestBody?.content['application/x-www-form-urlencoded']?.schema;
  return schema && resolved(schema);
};
const paramsIn = (operation: Operation, where: 'path' | 'query') => operation.parameters.filter((p) => p.in === where).map((p) => p.name);
/** What a header can carry through inject: Latin-1 without line breaks (U+0000 included, which only a real socket refuses). */
const headerText = (text: string) => [...text].filter((c) => c !== '\r' && c !== '\n' && c.charCodeAt(0) <= 0xff).join('');
const basic = (credentials: string) => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

describeEachDialect('fuzzing every route: hostile bodies, queries, ids and headers', (dialect) => {
  let t: TestApp;
  let account: CreatedAccount;
  let token: string;
  let operations: Operation[];
  let components: unknown;
  const statuses = new Map<number, number>();
  let requests = 0;
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  (formatsPlugin as unknown as { default: (a: Ajv2020) => void }).default(ajv);
  ajv.addFormat('e164', /^\+[1-9]\d{1,14}$/);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    account = await t.createAccount({ credits: 1_000_000 });
    token = await t.tokenFor(account);
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    components = document.components;
    namedSchemas = document.components.schemas;
    operations = Object.entries(document.paths as Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>).flatMap(
      ([path, item]) =>
        Object.entries(item).map(([method, operation]) => ({
          method: method.toUpperCase() as Method,
          path,
          parameters: operation.parameters ?? [],
          requestBody: operation.requestBody,
          responses: operation.responses,
        })),
    );
  });
  afterAll(async () => {
    const seen = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`);
    const fivexx = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
    console.log(`fuzz [${dialect}]${FULL ? ' (full)' : ''}: ${requests} requests; statuses ${seen.join(', ')}; ${fivexx} of 5xx`);
    await t.close();
  });

  const validatorFor = (operation: Operation, status: number) => {
    const schema = operation.responses[String(status)]?.content?.['application/json']?.schema;
    if (!schema) return undefined;
    const key = `${operation.method} ${operation.path} ${status}`;
    if (!ajv.getSchema(key)) ajv.addSchema({ ...(schema as object), components }, key);
    return ajv.getSchema(key);
  };

  const withAuth = (headers: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...headers });

  /** Sends one attempt and checks the answer: never a 5xx, errors in the documented envelope, as expected when built to be refused. */
  async function check(operation: Operation, attempt: Attempt, log: (line: string) => void = () => {}): Promise<LightMyRequestResponse> {
    const { expected, ...request } = attempt;
    const response = await t.app.inject(request);
    requests++;
    statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
    const what = `${attempt.method} ${attempt.url.slice(0, 200)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
    log(what);
    expect(response.statusCode, what).toBeLessThan(500);
    if (!response.headers['content-type']?.toString().startsWith('application/json')) {
      expect(expected, what).toBeUndefined();
      return response;
    }
    const json = response.json();
    if (operation.path.startsWith('/v1/') && response.statusCode >= 400) {
      expect(json.success, what).toBe(false);
      expect(ERROR_CODES, what).toContain(json.error.code);
      expect(typeof json.error.message, what).toBe('string');
    } else if (operation.path.startsWith('/v1/')) {
      expect(json.success, what).toBe(true);
    }
    if (operation.path === '/oauth/token' && response.statusCode >= 400) {
      // OAuth's two members, and Herald's own code for a refusal the API gives too.
      expect(
        Object.keys(json)
          .filter((key) => key !== 'code')
          .sort(),
        what,
      ).toEqual(['error', 'error_description']);
      expect(Object.keys(OAUTH_ERRORS), what).toContain(json.error);
      if (json.code !== undefined) expect(ERROR_CODES, what).toContain(json.code);
    }
    const validate = validatorFor(operation, response.statusCode);
    if (validate && !validate(json))
      throw new Error(`${what}: answer does not match the documented schema: ${ajv.errorsText(validate.errors)}`);
    if (expected) {
      expect(response.statusCode, what).toBe(expected.status);
      if (operation.path === '/oauth/token') expect(json.error, what).toBe(expected.code);
      else expect(json.error.code, what).toBe(expected.code);
      if (expected.field !== undefined) expect(json.error.details, what).toContainEqual(expect.objectContaining({ field: expected.field }));
    }
    return response;
  }

  /** A request body with `value` at `field`: JSON, or the form for the token endpoint. */
  function bodyWith(operation: Operation, field: FieldPath, value: string): { contentType: string; payload: string } {
    const sample = SAMPLES[operation.path] ?? {};
    if (isForm(operation)) {
      const form = new URLSearchParams(Object.assign({}, sample, { [String(field[0])]: value }) as Record<string, string>);
      return { contentType: 'application/x-www-form-urlencoded', payload: form.toString() };
    }
    return { contentType: 'application/json', payload: JSON.stringify(withField(sample, field, value)) };
  }

  const urlOf = (operation: Operation, id: (name: string) => string, query = '') =>
    `${operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => id(name))}${query}`;
  const goodId = (name: string) =>
    ({ message_id: 'msg_sms_01m7yttg4pdmkkw2br2369cv46', webhook_id: 'wh_x', delivery_id: 'whd_x' })[name] ?? 'x';

  /**
   * Every string field, path id and query parameter of every route, each once with U+0000 and once
   * with an unpaired surrogate; the token endpoint's form and Basic credentials; and bodies nested
   * past the limit, with an Idempotency-Key, on every route that takes a body.
   */
  function sweep(): Array<{ operation: Operation; attempt: Attempt }> {
    const attempts: Array<{ operation: Operation; attempt: Attempt }> = [];
    const add = (operation: Operation, attempt: Attempt) => attempts.push({ operation, attempt });
    for (const operation of operations) {
      const schema = bodySchemaOf(operation);
      for (const field of schema ? stringFields(schema) : []) {
        for (const bad of ['fuzz\u0000', '\uD800fuzz']) {
          const form = isForm(operation);
          // The form decoder leaves %ED%A0%80 as it is (no UTF-8 decodes to a lone surrogate); only U+0000 gets through.
          if (form && bad !== 'fuzz\u0000') continue;
          const { contentType, payload } = bodyWith(operation, field, bad);
          add(operation, {
            method: operation.method,
            url: operation.path,
            headers: form ? { 'content-type': contentType } : withAuth({ 'content-type': contentType }),
            payload,
            expected: form ? { status: 400, code: 'invalid_request' } : { status: 422, code: 'VALIDATION_ERROR', field: field.join('.') },
          });
        }
      }
      for (const name of paramsIn(operation, 'path')) {
        for (const bad of ['%00', 'wh_x%00', 'msg_sms_%00x']) {
          const url = urlOf(operation, (n) => (n === name ? bad : goodId(n)));
          add(operation, { method: operation.method, url, headers: withAuth(), expected: { status: 404, code: 'NOT_FOUND' } });
        }
      }
      for (const name of paramsIn(operation, 'query')) {
        const url = urlOf(operation, goodId, `?${name}=x%00`);
        add(operation, {
          method: operation.method,
          url,
          headers: withAuth(),
          expected: { status: 422, code: 'VALIDATION_ERROR', field: name },
        });
      }
      if (operation.method === 'POST') {
        for (const [levels, shape] of [
          [65, 'object'],
          [9_000, 'array'],
          [100_000, 'mixed'],
        ] as const) {
          const headers = isForm(operation)
            ? { 'content-type': 'application/json' }
            : withAuth({ 'content-type': 'application/json', 'idempotency-key': `deep-${levels}-${attempts.length}` });
          const expected = isForm(operation) ? { status: 400, code: 'invalid_request' } : { status: 400, code: 'INVALID_REQUEST' };
          add(operation, { method: 'POST', url: urlOf(operation, goodId), headers, payload: nestedJson(levels, shape), expected });
        }
      }
    }
    const tokenEndpoint = operations.find((o) => o.path === '/oauth/token') as Operation;
    for (const credentials of ['cli_x%00:s', 'cli_x\u0000:s', `${account.clientId}:%00`, `${account.clientId}:\u0000`]) {
      add(tokenEndpoint, {
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(credentials) },
        payload: 'grant_type=client_credentials',
        expected: { status: 400, code: 'invalid_request' },
      });
    }
    return attempts;
  }

  it('refuses U+0000 and unpaired surrogates in every string field, id and query parameter, and bodies nested too deep, with a 4xx', async () => {
    const attempts = sweep();
    const swept = new Set(attempts.map(({ operation }) => `${operation.method} ${operation.path}`));
    // Every route with a body, an id or a query is in the sweep.
    for (const operation of operations) {
      if (bodySchemaOf(operation) || operation.parameters.some((p) => p.in !== 'header') || operation.method === 'POST') {
        expect(swept).toContain(`${operation.method} ${operation.path}`);
      }
    }
    for (const { operation, attempt } of attempts) await check(operation, attempt);
    expect(attempts.length).toBeGreaterThan(150);
  }, 120_000);

  it(
    `answers ${RANDOM_RUNS.toLocaleString('en')} random hostile requests across all routes without a 5xx, each answer as documented`,
    async () => {
      const idLike = fc.oneof(
        fc.constantFrom('msg_sms_01m7yttg4pdmkkw2br2369cv46', 'wh_x', 'whd_x', '..%2F..', '%00', 'x'.repeat(300)),
        fc.string({ maxLength: 20 }).map(encodeURIComponent),
        unstorableUrlText,
      );
      const request = fc.record({
        operation: fc.integer({ min: 0, max: 10_000 }),
        id: idLike,
        query: queryPart,
        // What is broken: anything (hostile), a string field holding unstorable text, or the nesting.
        attack: fc.constantFrom('hostile', 'hostile', 'unstorable', 'deep'),
        field: fc.integer({ min: 0, max: 1_000 }),
        unstorable: unstorableText,
        depth,
        shape: fc.constantFrom('array', 'object', 'mixed') as fc.Arbitrary<'array' | 'object' | 'mixed'>,
        auth: fc.constantFrom('good', 'good', 'good', 'good', 'good', 'none', 'garbage', 'basic-nul'),
        idempotencyKey: fc.option(fc.oneof(fc.string({ maxLength: 10 }), fc.constant('k'.repeat(300)), unstorableText), { nil: undefined }),
        requestId: fc.option(fc.oneof(fc.string({ maxLength: 200 }), unstorableText), { nil: undefined }),
        body: fc.integer({ min: 0, max: 1_000_000 }),
      });
      await fc.assert(
        fc.asyncProperty(request, fc.context(), async (r, ctx) => {
          const operation = operations[r.operation % operations.length] as Operation;
          // '.' and '..' are dot segments: URL resolution turns them into another route.
          const id = /^\.*$/.test(r.id) ? 'x' : r.id;
          const url = urlOf(operation, () => id, r.query);
          const headers: Record<string, string> = {};
          if (r.auth === 'good') headers.authorization = `Bearer ${token}`;
          if (r.auth === 'garbage') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.e30.';
          if (r.auth === 'basic-nul') headers.authorization = basic(`${account.clientId}\u0000:${account.clientSecret}`);
          if (r.idempotencyKey !== undefined) headers['idempotency-key'] = headerText(r.idempotencyKey);
          if (r.requestId !== undefined) headers['x-request-id'] = headerText(r.requestId);
          let payload: string | Buffer | undefined;
          const schema = bodySchemaOf(operation);
          if (operation.method !== 'POST') {
            payload = undefined;
          } else if (r.attack === 'deep') {
            headers['content-type'] = 'application/json';
            payload = nestedJson(r.depth, r.shape);
          } else if (r.attack === 'unstorable' && schema) {
            const fields = stringFields(schema);
            const broken = bodyWith(operation, fields[r.field % fields.length] as FieldPath, r.unstorable);
            headers['content-type'] = broken.contentType;
            payload = broken.payload;
          } else {
            const [body] = fc.sample(bodyFor(SAMPLES[operation.path] ?? {}), { seed: r.body, numRuns: 1 });
            if (body?.contentType) headers['content-type'] = body.contentType;
            payload = body?.payload;
          }
          await check(operation, { method: operation.method, url, headers, ...(payload !== undefined ? { payload } : {}) }, (line) =>
            ctx.log(line),
          );
        }),
        { numRuns: RANDOM_RUNS, seed: 20261121, endOnFailure: true },
      );
      expect(requests).toBeGreaterThanOrEqual(RANDOM_RUNS);
    },
    FULL ? 1_800_000 : 240_000,
  );
});
