import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { bodyValidator } from './error-handler.js';
import { findInputProblems, isStorableText, MAX_NESTING_DEPTH } from './validation.js';

/** `{"a": {"a": ... 1}}` with `depth` objects. */
const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('text a store can hold', () => {
  it('refuses U+0000 and unpaired surrogates, and takes any other text, paired surrogates (emoji) included', () => {
    expect(isStorableText('Your code is 1234 ✓ 𝄞 😀')).toBe(true);
    expect(isStorableText('')).toBe(true);
    expect(isStorableText('\u0001\u007f\uFFFD\uFFFF')).toBe(true);
    for (const bad of ['\u0000', 'a\u0000b', '\uD800', 'x\uDC00', '\uDE00\uD83D', '😀\uD83D']) expect(isStorableText(bad)).toBe(false);
  });
});

describe('walking a request part', () => {
  it('names every unstorable string and key by its dotted path', () => {
    const body = {
      to: '+14155552671',
      message: 'a\u0000b',
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'ok' },
            { type: 'text', text: '\uD800' },
          ],
        },
      ],
      'bad\u0000key': 1,
    };
    expect(findInputProblems(body)).toEqual({
      tooDeep: false,
      unstorable: expect.arrayContaining(['message', 'components.0.parameters.1.text', 'bad\u0000key']),
    });
    expect(findInputProblems(body).unstorable).toHaveLength(3);
    expect(findInputProblems('\u0000')).toEqual({ tooDeep: false, unstorable: [''] });
    expect(findInputProblems({ to: '+14155552671', recipients: ['😀'] })).toEqual({ tooDeep: false, unstorable: [] });
  });

  it(`accepts ${MAX_NESTING_DEPTH} levels of nesting and stops at the next one`, () => {
    expect(findInputProblems(nested(MAX_NESTING_DEPTH)).tooDeep).toBe(false);
    expect(findInputProblems(nested(MAX_NESTING_DEPTH + 1)).tooDeep).toBe(true);
    expect(findInputProblems([[['x']]], 3).tooDeep).toBe(false);
    expect(findInputProblems([[[['x']]]], 3).tooDeep).toBe(true);
  });

  it('walks 1,000,000 levels of nesting without exhausting the stack', () => {
    const deep = JSON.parse(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    expect(findInputProblems(deep, Number.POSITIVE_INFINITY)).toEqual({ tooDeep: false, unstorable: [] });
    expect(findInputProblems(deep).tooDeep).toBe(true);
  });

  it('leaves raw bodies (Buffers) and scalars alone', () => {
    expect(findInputProblems(Buffer.from([0, 0xff, 0]))).toEqual({ tooDeep: false, unstorable: [] });
    for (const scalar of [undefined, null, 0, true]) expect(findInputProblems(scalar)).toEqual({ tooDeep: false, unstorable: [] });
  });
});

describe("a field's bounds, in the API's words", () => {
  const refusal = bodyValidator(
    Type.Object({
      recipients: Type.Optional(Type.Array(Type.String(), { minItems: 1, maxItems: 2, uniqueItems: true })),
      tags: Type.Optional(Type.Array(Type.String(), { minItems: 2 })),
      count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
      ratio: Type.Optional(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 })),
      kind: Type.Optional(Type.String({ enum: ['a', 'b'] })),
    }),
  );
  const detailOf = (body: object) => refusal(body)?.details;

  it('says how many items a list takes', () => {
    expect(detailOf({ recipients: [] })).toEqual([{ field: 'recipients', message: 'must not be empty' }]);
    expect(detailOf({ recipients: ['a', 'b', 'c'] })).toEqual([{ field: 'recipients', message: 'must have at most 2 items' }]);
    expect(detailOf({ tags: ['a'] })).toEqual([{ field: 'tags', message: 'must have at least 2 items' }]);
    expect(detailOf({ recipients: ['a', 'a'] })).toEqual([{ field: 'recipients', message: 'must not list an item twice' }]);
  });

  it('says which numbers and values a field takes', () => {
    expect(detailOf({ count: 0 })).toEqual([{ field: 'count', message: 'must be 1 or more' }]);
    expect(detailOf({ count: 11 })).toEqual([{ field: 'count', message: 'must be 10 or less' }]);
    expect(detailOf({ ratio: 0 })).toEqual([{ field: 'ratio', message: 'must be more than 0' }]);
    expect(detailOf({ ratio: 1 })).toEqual([{ field: 'ratio', message: 'must be less than 1' }]);
    expect(detailOf({ kind: 'c' })).toEqual([{ field: 'kind', message: 'must be one of a, b' }]);
    expect(refusal({ count: 5, ratio: 0.5, kind: 'a', recipients: ['a'] })).toBeUndefined();
  });
});
