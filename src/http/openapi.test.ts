import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';

interface Operation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  tags?: string[];
}

/** The API reference (/openapi.json, /docs) as a client generator and a reader find it. */
describe('the API reference', () => {
  let t: TestApp;
  let operations: Array<{ path: string; method: string; operation: Operation }>;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
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

  it('says which scope each /v1 operation needs, and that the token endpoint and health checks need none', () => {
    for (const { path, method, operation } of operations) {
      if (path.startsWith('/v1/')) expect(operation.security?.length, `${method} ${path}`).toBeGreaterThan(0);
      else expect(operation.security, `${method} ${path}`).toEqual([]);
    }
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
});
