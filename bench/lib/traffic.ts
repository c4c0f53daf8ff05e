import type { BenchStore } from './herald.js';

/** The n-th send of a case: a recipient of its own, as real traffic has (not one number validated once). */
export const sms = (n: number) => ({ to: `+1415${5_000_000 + (n % 1_000_000)}`, message: 'Your code is 123456' });

/** `n` consecutive numbers from `offset` on. */
export const recipients = (n: number, offset = 0) =>
  Array.from({ length: n }, (_, i) => `+1415${String(5_000_000 + offset + i).padStart(7, '0')}`);

/** The n-th bulk request of `size` recipients: numbers of its own, as real traffic has. */
export const bulkOf = (size: number) => (n: number) => ({
  recipients: recipients(size, (n * size) % 900_000),
  message: 'Hello from the bench',
});

/** Messages not yet settled: queued, being handed over, or sent and waiting for their receipt. */
export const pendingOf = (counts: Record<string, number>): number =>
  Object.entries(counts).reduce(
    (n, [status, count]) => (status === 'queued' || status === 'sending' || status === 'sent' ? n + count : n),
    0,
  );

/** Polls the store until nothing is pending or `timeoutMs` has passed: the last counts and the seconds it took. */
export async function waitForDrain(
  store: BenchStore,
  timeoutMs = 60_000,
  intervalMs = 500,
): Promise<{ counts: Record<string, number>; seconds: number }> {
  const started = Date.now();
  let counts = await store.statusCounts();
  while (pendingOf(counts) > 0 && Date.now() - started < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    counts = await store.statusCounts();
  }
  return { counts, seconds: (Date.now() - started) / 1000 };
}
