import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';
import { backoffDelayMs, DEFAULT_RETRY_POLICY } from './retry-policy.js';

/** A limiter on a virtual clock: sleeping moves the clock instead of waiting. */
function virtualLimiter(perSecond: number) {
  let now = 0;
  const sleeps: number[] = [];
  const limiter = new RateLimiter(
    perSecond,
    () => now,
    async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  );
  return { limiter, sleeps, time: () => now };
}

describe('provider throughput limit', () => {
  const signal = new AbortController().signal;

  it('lets a burst of one second’s worth through at once', async () => {
    const { limiter, sleeps } = virtualLimiter(10);
    for (let i = 0; i < 10; i++) await limiter.acquire(signal);
    expect(sleeps).toEqual([]);
  });

  it('then holds the pace at the declared messages per second', async () => {
    const { limiter, time } = virtualLimiter(10);
    for (let i = 0; i < 40; i++) await limiter.acquire(signal);
    // 10 from the initial burst, then 30 more at 10 per second.
    expect(time()).toBeGreaterThanOrEqual(3_000);
    expect(time()).toBeLessThan(3_100);
  });

  it('stops waiting when the send is aborted', async () => {
    const limiter = new RateLimiter(1);
    const controller = new AbortController();
    await limiter.acquire(controller.signal);
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
  });
});

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
