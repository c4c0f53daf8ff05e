import { describe, expect, it } from 'vitest';
import { isValidE164 } from './phone.js';

describe('phone numbers in E.164', () => {
  it('accepts numbers of a country’s numbering plan and refuses others, the same the second time as the first', () => {
    for (let round = 0; round < 2; round++) {
      expect(isValidE164('+14155552671')).toBe(true);
      expect(isValidE164('+447911123456')).toBe(true);
      // Well formed, but no such number: +1 then a national number starting with 0.
      expect(isValidE164('+10005550100')).toBe(false);
      expect(isValidE164('14155552671')).toBe(false);
      expect(isValidE164('+1 415 555 2671')).toBe(false);
    }
  });

  it('gives every number its own answer past the thousand it remembers', () => {
    const numbers = Array.from({ length: 3_000 }, (_, i) => `+1415${5_000_000 + i}`);
    expect(numbers.every(isValidE164)).toBe(true);
    expect(isValidE164('+10005550100')).toBe(false);
    expect(numbers.slice(0, 10).every(isValidE164)).toBe(true);
  });
});
