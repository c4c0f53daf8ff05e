import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { ProviderRegistry, RecoveryPolicy } from '../core/delivery/provider.js';
import { RateLimiter } from '../core/delivery/rate-limiter.js';
import type { RecordsUnderWay } from '../core/delivery/records-under-way.js';
import type { Channel } from '../core/ids.js';
import type { Store } from '../core/ports.js';
import type { PriceList } from '../core/pricing.js';
import type { Tracing } from '../core/tracing.js';
import type { Lookup } from '../webhooks/ssrf-guard.js';
import type { RetryPolicy } from './retry-policy.js';

/** Logging as the dispatcher needs it; pino loggers fit. */
export type DispatchLogger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;

/** What job handlers run on. */
export interface DispatchContext {
  store: Store;
  clock: Clock;
  providers: ProviderRegistry;
  retry: RetryPolicy;
  /** How long one hand-over to a provider may take before its outcome counts as unknown. */
  sendTimeoutMs: number;
  /** The recovery policy configured per channel; a channel left out uses its provider's default. */
  recovery?: Partial<Record<Channel, RecoveryPolicy>>;
  logger: DispatchLogger;
  /** Spans for jobs, hand-overs and webhook deliveries, in each message's trace (core/tracing.ts). */
  tracing: Tracing;
  /** Randomness for backoff jitter; injectable so tests can pin it. */
  random: () => number;
  /** One token bucket per provider that declares a throughput limit. */
  limiterFor(providerName: string, perSecond: number): RateLimiter;
  webhooks: WebhookSettings;
  /** Deliveries in flight per receiver in this process (WebhookSettings.perReceiverConcurrency bounds them). */
  receiverSlots: ReceiverSlots;
  /** What messages cost: a received keyword's confirmation is a message (core/inbound/). */
  prices: PriceList;
  /** Hand-overs being recorded, which their receipts wait for (shared with the providers' receipts). */
  recordsUnderWay?: RecordsUnderWay | undefined;
}

/**
 * Counting slots per key: how many deliveries to one receiver run at once in this process. A few
 * deliveries may wait for a slot (a queue per key, first come first served), so a busy but quick
 * receiver is fed the next delivery as soon as one ends instead of having it put back for later.
 */
export class ReceiverSlots {
  readonly #used = new Map<string, number>();
  readonly #waiting = new Map<string, Array<(granted: boolean) => void>>();

  /** Takes a slot for `key` unless `limit` are already taken. */
  take(key: string, limit: number): boolean {
    const used = this.#used.get(key) ?? 0;
    if (used >= limit) return false;
    this.#used.set(key, used + 1);
    return true;
  }

  /**
   * Takes a slot, waiting for one up to `maxWaitMs` when no more than `maxWaiting` wait already.
   * False when the queue is full, the wait ran out or `signal` aborted: the caller comes back later.
   */
  acquire(key: string, limit: number, options: { maxWaiting: number; maxWaitMs: number; signal: AbortSignal }): Promise<boolean> {
    if (this.take(key, limit)) return Promise.resolve(true);
    const queue = this.#waiting.get(key) ?? [];
    if (queue.length >= options.maxWaiting || options.signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (granted: boolean) => {
        clearTimeout(timer);
        options.signal.removeEventListener('abort', giveUp);
        resolve(granted);
      };
      const giveUp = () => {
        const index = queue.indexOf(done);
        if (index >= 0) queue.splice(index, 1);
        if (queue.length === 0 && this.#waiting.get(key) === queue) this.#waiting.delete(key);
        done(false);
      };
      const timer = setTimeout(giveUp, options.maxWaitMs);
      options.signal.addEventListener('abort', giveUp, { once: true });
      queue.push(done);
      this.#waiting.set(key, queue);
    });
  }

  give(key: string): void {
    // A waiting delivery takes the slot over as it is: the count stays.
    const queue = this.#waiting.get(key);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.#waiting.delete(key);
    if (next) {
      next(true);
      return;
    }
    const used = (this.#used.get(key) ?? 1) - 1;
    if (used <= 0) this.#used.delete(key);
    else this.#used.set(key, used);
  }
}

export interface WebhookSettings {
  /** Let receivers live on loopback and private networks (local development, tests). */
  allowPrivateNetworks: boolean;
  /** How long a receiver has to answer. */
  timeoutMs: number;
  /** Deliveries in flight to one receiver at a time, per process: a slow one cannot take every lane. */
  perReceiverConcurrency: number;
  /** DNS resolution, injectable so tests of the SSRF guard never touch a real private address. */
  lookup?: Lookup | undefined;
}

/**
 * perReceiverConcurrency: chosen by the SMPP-to-webhook benchmark (docs/performance.md, "Against
 * Kannel"): at 4, one receiver's callbacks stalled at 234-271/s, and deliveries waiting for a slot
 * were put back and claimed again over and over (66-77 CPU-s a run instead of 20); 16 gave 736/s,
 * 32 gave 1,091/s, 100 gave 1,145/s.
 */
export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowPrivateNetworks: false,
  timeoutMs: 10_000,
  perReceiverConcurrency: 32,
};

export function createLimiterCache(): (providerName: string, perSecond: number) => RateLimiter {
  const limiters = new Map<string, RateLimiter>();
  return (providerName, perSecond) => {
    let limiter = limiters.get(providerName);
    if (!limiter) {
      limiter = new RateLimiter(perSecond);
      limiters.set(providerName, limiter);
    }
    return limiter;
  };
}
