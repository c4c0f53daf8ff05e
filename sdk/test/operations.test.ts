import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';

/**
 * The SDK's calls are written by hand (sdk/src/index.ts); its types come from the OpenAPI document.
 * Each call names its operation (`ResponseData<'replayWebhookDeliveries'>`) and says how it sends
 * it: these checks hold every call to what the document says of that operation, so a body sent
 * where the operation reads a query (as `replayFailed` once did) fails here, not for a customer.
 */
interface Call {
  operationId: string;
  method: string;
  path: string;
  sendsBody: boolean;
  sendsQuery: boolean;
}

interface Operation {
  method: string;
  path: string;
  hasBody: boolean;
  queryNames: string[];
}

const SOURCE = readFileSync(new URL('../src/index.ts', import.meta.url), 'utf8');

/** Each `this.#http.request<ResponseData<'op'>>('METHOD', path, { ... })` of the SDK. */
function callsOfSdk(): Call[] {
  const calls: Call[] = [];
  const pattern = /#http\.request<ResponseData<'(\w+)'>>\(\s*'(\w+)',\s*(`[^`]*`|'[^']*')\s*,\s*\{([^}]*)\}/g;
  for (const match of SOURCE.matchAll(pattern)) {
    const [, operationId, method, rawPath, options] = match as unknown as [string, string, string, string, string];
    // `/v1/sms/${id(messageId)}` → /v1/sms/{}
    const path = rawPath.slice(1, -1).replace(/\$\{[^}]*\}/g, '{}');
    calls.push({ operationId, method, path, sendsBody: /\bbody\b/.test(options), sendsQuery: /\bquery\b/.test(options) });
  }
  return calls;
}

describe("the SDK's calls against the OpenAPI document", () => {
  let t: TestApp;
  let operations: Map<string, Operation>;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { operationId?: string; requestBody?: unknown; parameters?: Array<{ in: string; name: string }> }>
      >;
    };
    operations = new Map();
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (!operation.operationId) continue;
        operations.set(operation.operationId, {
          method: method.toUpperCase(),
          path: path.replace(/\{[^}]*\}/g, '{}'),
          hasBody: operation.requestBody !== undefined,
          queryNames: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        });
      }
    }
  }, 60_000);
  afterAll(() => t?.close());

  it('finds every call of the SDK (the pattern still reads sdk/src/index.ts)', () => {
    const calls = callsOfSdk();
    expect(calls.length).toBe(SOURCE.split('#http.request<ResponseData<').length - 1);
    expect(calls.length).toBeGreaterThan(30);
  });

  it('calls each operation with its own method and path, a body only where it takes one, and a query only where it reads one', () => {
    const wrong: string[] = [];
    for (const call of callsOfSdk()) {
      const operation = operations.get(call.operationId);
      if (!operation) {
        wrong.push(`${call.operationId}: no such operation`);
        continue;
      }
      if (operation.method !== call.method || operation.path !== call.path) {
        wrong.push(`${call.operationId}: ${call.method} ${call.path}, the document says ${operation.method} ${operation.path}`);
      }
      if (call.sendsBody !== operation.hasBody)
        wrong.push(`${call.operationId}: body ${call.sendsBody}, the document ${operation.hasBody}`);
      if (call.sendsQuery && operation.queryNames.length === 0) wrong.push(`${call.operationId}: sends a query it does not read`);
      const required = operation.queryNames.length > 0 && !call.sendsQuery;
      if (required) wrong.push(`${call.operationId}: reads ${operation.queryNames.join(', ')} from the query, the SDK sends none`);
    }
    expect(wrong).toEqual([]);
  });
});
