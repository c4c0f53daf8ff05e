/**
 * A token bucket: at most `perSecond` acquisitions per second on average, with bursts up to one
 * second's worth. Keeps a provider's declared throughput (a carrier's TPS) within this process.
 */
export class RateLimiter {
  #tokens: number;
  #last: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
    private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void> = abortableSleep,
  ) {
    this.#tokens = perSecond;
    this.#last = now();
  }

  /** Resolves when the caller may go ahead; rejects if `signal` aborts first. */
  async acquire(signal: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.now();
      this.#tokens = Math.min(this.perSecond, this.#tokens + ((now - this.#last) * this.perSecond) / 1000);
      this.#last = now;
      if (this.#tokens >= 1) {
        this.#tokens -= 1;
        return;
      }
      await this.sleep(Math.ceil(((1 - this.#tokens) * 1000) / this.perSecond), signal);
    }
  }
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
