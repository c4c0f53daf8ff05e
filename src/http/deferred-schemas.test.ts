import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { type DeferredSchemas, deferSchemas } from './deferred-schemas.js';
import { createValidatorCompiler } from './validation.js';

describe('route schemas compiled on first use', () => {
  let schemas: DeferredSchemas;
  let app: FastifyInstance;

  beforeAll(async () => {
    schemas = deferSchemas();
    app = Fastify({ schemaController: { compilersFactory: { buildSerializer: schemas.buildSerializer } } });
    app.setValidatorCompiler(schemas.validatorCompiler(createValidatorCompiler()));
    app.post(
      '/things',
      {
        schema: {
          body: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
          response: { 200: { type: 'object', properties: { id: { type: 'string' } } } },
        },
      },
      async () => ({ id: 'thg_1', internal: 'not in the schema' }),
    );
    app.get('/other', { schema: { response: { 200: { type: 'object', properties: { ok: { type: 'boolean' } } } } } }, async () => ({
      ok: true,
    }));
    await app.ready();
  });
  afterAll(() => app.close());

  it('builds nothing in ready(); a request builds its own route’s validator and serializer, and uses them', async () => {
    // POST /things: body and response; GET /other and the HEAD route Fastify adds for it: one
    // response serializer, as they answer with the same schema.
    expect(schemas.pending).toBe(3);
    const response = await app.inject({ method: 'POST', url: '/things', payload: { name: 'a' } });
    expect(response.statusCode).toBe(200);
    // The response schema's serializer wrote it: the field it does not declare is left out.
    expect(response.body).toBe('{"id":"thg_1"}');
    expect(schemas.pending).toBe(1);
  });

  it('a built validator still reports what is wrong with the input', async () => {
    const response = await app.inject({ method: 'POST', url: '/things', payload: { name: '' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('body/name must NOT have fewer than 1 characters');
  });

  it('warmUp() builds the rest', async () => {
    expect(await schemas.warmUp()).toEqual([]);
    expect(schemas.pending).toBe(0);
    expect((await app.inject({ method: 'GET', url: '/other' })).body).toBe('{"ok":true}');
  });
});

describe('a schema that cannot compile', () => {
  let app: FastifyInstance;
  afterEach(() => app.close());

  it('is reported by warmUp() with its route, as ready() used to fail on it', async () => {
    const schemas = deferSchemas();
    app = Fastify({ schemaController: { compilersFactory: { buildSerializer: schemas.buildSerializer } } });
    app.get('/broken', { schema: { response: { 200: { $ref: 'nowhere#/missing' } } } }, async () => ({}));
    await app.ready();
    const failed = await schemas.warmUp();
    // Once, by the first route that has it (HEAD shares GET's schema, hence its serializer).
    expect(failed.map((f) => f.route)).toEqual(['GET /broken response 200']);
    expect(failed[0]?.error).toBeInstanceOf(Error);
  });

  it('is still reported by warmUp() after a request met it first', async () => {
    const schemas = deferSchemas();
    app = Fastify({ schemaController: { compilersFactory: { buildSerializer: schemas.buildSerializer } } });
    app.get('/broken', { schema: { response: { 200: { $ref: 'nowhere#/missing' } } } }, async () => ({}));
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/broken' })).statusCode).toBe(500);
    const failed = await schemas.warmUp();
    expect(failed.map((f) => f.route)).toEqual(['GET /broken response 200']);
  });
});

describe('a schema many routes answer with', () => {
  let app: FastifyInstance;
  afterEach(() => app.close());

  it('is compiled once, for every route and status that names it, and writes each answer by it', async () => {
    const schemas = deferSchemas();
    app = Fastify({ schemaController: { compilersFactory: { buildSerializer: schemas.buildSerializer } } });
    const problem = { type: 'object', properties: { error: { type: 'string' } } };
    const fail = (code: number) => async (_request: unknown, reply: { code(n: number): unknown }) => {
      reply.code(code);
      return { error: `failed ${code}`, stack: 'not in the schema' };
    };
    app.post('/a', { schema: { response: { 404: problem, 409: problem } } }, fail(409));
    app.post('/b', { schema: { response: { 404: problem, 200: { type: 'object', properties: { ok: { type: 'boolean' } } } } } }, fail(404));
    await app.ready();
    // The shared schema once, /b's 200 once.
    expect(schemas.pending).toBe(2);
    const a = await app.inject({ method: 'POST', url: '/a' });
    expect([a.statusCode, a.body]).toEqual([409, '{"error":"failed 409"}']);
    expect(schemas.pending).toBe(1);
    const b = await app.inject({ method: 'POST', url: '/b' });
    expect([b.statusCode, b.body]).toEqual([404, '{"error":"failed 404"}']);
    expect(schemas.pending).toBe(1);
  });
});

describe("Herald's app", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('compiles every route’s schemas (what ready() checked when it compiled them all)', async () => {
    expect(await t.app.warmUpSchemas()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({ status: 'ok' });
  });
});
