import { describe, expect, it } from 'vitest';
import { backoffDelayMs, DEFAULT_RETRY_POLICY } from './retry-policy.js';

describe('retry backoff', () => {
  it('doubles from the base delay up to the cap, with half of each delay random', () => {
    const low = (n: number) => backoffDelayMs(DEFAULT_RETRY_POLICY, n, () => 0);
    const high = (n: number) => backoffDelayMs(DEFAULT_RETRY_POLICY, n, () => 1);
    expect([1, 2, 3, 4].map(low)).toEqual([2_500, 5_000, 10_000, 20_000]);
    expect([1, 2, 3, 4].map(high)).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(high(30)).toBe(DEFAULT_RETRY_POLICY.maxDelayMs);
    expect(low(30)).toBe(DEFAULT_RETRY_POLICY.maxDelayMs / 2);
  });
});
