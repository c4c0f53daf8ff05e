import examples from 'libphonenumber-js/examples.mobile.json';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/metadata.max.json';
import { describe, expect, it } from 'vitest';
import { isValidInternationalNumber, NUMBERING_PLANS_READABLE } from './numbering-plans.js';
import { isValidE164 } from './phone.js';

/** libphonenumber-js's own answer: the reference numbering-plans.ts must give for every number. */
const libphonenumber = (digits: string): boolean => parsePhoneNumberFromString(`+${digits}`)?.isValid() ?? false;

/** A seeded generator (a 32-bit linear congruential one): the same numbers on every run. */
function digitsFrom(seed: number) {
  let state = seed >>> 0;
  return (count: number): string => {
    let out = '';
    for (let i = 0; i < count; i++) {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      out += Math.floor((state / 2 ** 32) * 10);
    }
    return out;
  };
}

const plans = metadata as unknown as {
  country_calling_codes: Record<string, string[]>;
  countries: Record<string, Array<unknown>>;
  nonGeographic: Record<string, unknown>;
};
const callingCodes = [...Object.keys(plans.country_calling_codes), ...Object.keys(plans.nonGeographic)];
/** Each country's calling code, national prefix ("0" in most) and example mobile number. */
const countries = Object.entries(examples as Record<string, string>).map(([country, national]) => {
  const plan = plans.countries[country] as unknown[];
  return { country, code: plan[0] as string, prefix: (plan[5] as string | undefined) ?? '', national };
});

/** The numbers where the two answers differ (at most 20 of them), and how many were valid. */
function compare(numbers: Iterable<string>): { mismatches: string[]; checked: number; valid: number } {
  const mismatches: string[] = [];
  let checked = 0;
  let valid = 0;
  for (const digits of numbers) {
    checked++;
    const expected = libphonenumber(digits);
    if (expected) valid++;
    if (isValidInternationalNumber(digits) !== expected && mismatches.length < 20)
      mismatches.push(`+${digits} (libphonenumber: ${expected})`);
  }
  return { mismatches, checked, valid };
}

describe('phone numbers in E.164', () => {
  it('accepts numbers of a country’s numbering plan and refuses others, the same the second time as the first', () => {
    for (let round = 0; round < 2; round++) {
      expect(isValidE164('+14155552671')).toBe(true);
      expect(isValidE164('+447911123456')).toBe(true);
      // Well formed, but no such number: +1 then a national number starting with 0.
      expect(isValidE164('+10005550100')).toBe(false);
      expect(isValidE164('14155552671')).toBe(false);
      expect(isValidE164('+1 415 555 2671')).toBe(false);
      expect(isValidE164('+014155552671')).toBe(false);
      expect(isValidE164('+1415555267100000')).toBe(false);
      expect(isValidE164('')).toBe(false);
    }
  });

  it('tells a country of a shared calling code by its number: Canada and Jamaica under +1, Jersey under +44', () => {
    expect(isValidE164('+16135550123')).toBe(true); // Ottawa
    expect(isValidE164('+18762345678')).toBe(true); // Jamaica
    expect(isValidE164('+447797123456')).toBe(true); // a Jersey mobile
    expect(isValidE164('+80012345678')).toBe(true); // international freephone, a plan of no country
    expect(isValidE164('+8001234567')).toBe(false);
  });

  it('keeps a national prefix written after the calling code only where the number still makes sense without it', () => {
    // +44 07911 123456 and +33 06 12 34 56 78 are written wrongly, yet valid once the 0 is off.
    expect(isValidE164('+4407911123456')).toBe(true);
    expect(isValidE164('+330612345678')).toBe(true);
    expect(isValidE164('+33012345678')).toBe(false);
    // In Italy the leading 0 is part of the number.
    expect(isValidE164('+390612345678')).toBe(true);
  });
});

describe('numbering plans, against libphonenumber-js', () => {
  it('reads the metadata libphonenumber-js ships (format 4), so phone.ts does not fall back to it', () => {
    expect(NUMBERING_PLANS_READABLE).toBe(true);
  });

  it('answers as libphonenumber-js does for every number of up to five digits', () => {
    function* all() {
      for (let n = 1; n < 100_000; n++) yield String(n);
    }
    const { mismatches, checked } = compare(all());
    expect(mismatches).toEqual([]);
    expect(checked).toBe(99_999);
  });

  it('answers as libphonenumber-js does for random numbers of every calling code and length', () => {
    const random = digitsFrom(20261122);
    function* numbers() {
      for (const code of callingCodes)
        for (let length = 2; code.length + length <= 15; length++) for (let k = 0; k < 25; k++) yield code + random(length);
    }
    const { mismatches, checked, valid } = compare(numbers());
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(50_000);
    expect(valid).toBeGreaterThan(1_000);
  });

  it('answers as libphonenumber-js does around each country’s example number: every digit changed, added or dropped, with and without a national prefix', () => {
    const random = digitsFrom(7);
    function* numbers() {
      for (const { code, prefix, national } of countries) {
        const example = code + national;
        yield example;
        for (let i = code.length; i < example.length; i++) {
          for (let d = 0; d < 10; d++) {
            yield example.slice(0, i) + d + example.slice(i + 1);
            yield example.slice(0, i) + d + example.slice(i);
          }
          yield example.slice(0, i) + example.slice(i + 1);
        }
        // The example's first digits kept, the rest random: numbers of the same ranges and others.
        for (let keep = 0; keep <= national.length; keep++) {
          for (let k = 0; k < 3; k++) {
            const number = national.slice(0, keep) + random(national.length - keep);
            yield code + number;
            yield code + prefix + number;
            yield code + prefix + number.slice(1);
          }
        }
      }
    }
    const { mismatches, checked, valid } = compare(numbers());
    expect(mismatches).toEqual([]);
    expect(valid).toBeGreaterThan(checked / 10);
  });
});
