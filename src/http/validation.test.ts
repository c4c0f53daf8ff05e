import { describe, expect, it } from 'vitest';
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
