import { describe, expect, it } from 'vitest';
import { ReceiverSlots } from './dispatch-context.js';

describe('receiver slots', () => {
  const never = new AbortController().signal;

  it('hands a freed slot to the first delivery waiting for it, in arrival order', async () => {
    const slots = new ReceiverSlots();
    expect(slots.take('a', 1)).toBe(true);
    const order: number[] = [];
    const first = slots.acquire('a', 1, { maxWaiting: 4, maxWaitMs: 5_000, signal: never }).then((ok) => order.push(1) && ok);
    const second = slots.acquire('a', 1, { maxWaiting: 4, maxWaitMs: 5_000, signal: never }).then((ok) => order.push(2) && ok);
    slots.give('a');
    expect(await first).toBe(true);
    slots.give('a');
    expect(await second).toBe(true);
    expect(order).toEqual([1, 2]);
    // Still one in use (the second's): another key is unaffected, this one is full.
    expect(slots.take('a', 1)).toBe(false);
    expect(slots.take('b', 1)).toBe(true);
    slots.give('a');
    expect(slots.take('a', 1)).toBe(true);
  });

  it('refuses at once when as many wait as allowed, and gives up after the wait or an abort', async () => {
    const slots = new ReceiverSlots();
    slots.take('a', 1);
    const waiting = slots.acquire('a', 1, { maxWaiting: 1, maxWaitMs: 30, signal: never });
    expect(await slots.acquire('a', 1, { maxWaiting: 1, maxWaitMs: 5_000, signal: never })).toBe(false);
    expect(await waiting).toBe(false); // 30 ms passed without a slot
    const abort = new AbortController();
    const aborted = slots.acquire('a', 1, { maxWaiting: 1, maxWaitMs: 5_000, signal: abort.signal });
    abort.abort();
    expect(await aborted).toBe(false);
    // Nobody waits any more: the slot comes back to the pool when given.
    slots.give('a');
    expect(slots.take('a', 1)).toBe(true);
  });
});
