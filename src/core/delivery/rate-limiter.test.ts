import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

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
