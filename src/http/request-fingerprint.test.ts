import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './request-fingerprint.js';

/** The recursive writer this file replaced: fingerprints kept by the store were made with it. */
function recursiveCanonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(recursiveCanonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${recursiveCanonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('the canonical JSON of a request body', () => {
  it('writes what the recursive version wrote, for any JSON value, so kept fingerprints still match their retries', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect(canonicalJson(value)).toBe(recursiveCanonicalJson(value));
      }),
      { numRuns: 2_000 },
    );
    for (const value of [null, 0, -0, '', '\u0000', '\uD800', [], {}, [[]], { '': {} }, { b: 1, a: [1, { d: null, c: 'x' }] }]) {
      expect(canonicalJson(value)).toBe(recursiveCanonicalJson(value));
    }
  });

  it('is the same text whatever order the keys were written in', () => {
    expect(canonicalJson({ b: { y: 1, x: 2 }, a: [3, { q: 1, p: 2 }] })).toBe('{"a":[3,{"p":2,"q":1}],"b":{"x":2,"y":1}}');
    expect(canonicalJson(JSON.parse('{"to":"+1","message":"m"}'))).toBe(canonicalJson(JSON.parse('{"message":"m","to":"+1"}')));
  });

  it('writes a value nested 100,000 levels deep without exhausting the stack', () => {
    expect(() => recursiveCanonicalJson(nested(100_000))).toThrow(RangeError);
    expect(canonicalJson(nested(100_000))).toBe(`${'[{"a":'.repeat(50_000)}"leaf"${'}]'.repeat(50_000)}`);
  });
});
