import type { Redis } from 'ioredis';
import { loadOnUse } from '../core/load-on-use.js';
import { type Bucket, type RateLimitStore, type RateRule, refillAndTake } from '../core/rate-limits.js';

/** Redis's client, loaded by the first Redis store (REDIS_URL): a process without one never loads it. */
const loadIoredis = loadOnUse<typeof import('ioredis')>('ioredis');

/** Buckets in this process's memory: limits hold per process. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #buckets = new Map<string, { tokens: number; last: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async take(key: string, rule: RateRule, cost: number): Promise<Bucket> {
    const now = this.now();
    const result = refillAndTake(this.#buckets.get(key), rule, cost, now);
    this.#buckets.set(key, result.state);
    if (this.#buckets.size > 100_000) this.#prune(rule, now);
    return { allowed: result.allowed, tokens: result.tokens };
  }

  /** Drops buckets idle long enough to be full again: they hold nothing a new bucket would not. */
  #prune(rule: RateRule, now: number): void {
    const fullAfterMs = (rule.burst / rule.perSecond) * 1000;
    for (const [key, bucket] of this.#buckets) if (now - bucket.last > fullAfterMs) this.#buckets.delete(key);
  }

  async close(): Promise<void> {}
}

// One atomic step in Redis: refill by Redis's own clock (every process agrees), take, expire when full.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1]) / 1000
local burst = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'last')
local tokens = tonumber(b[1])
local last = tonumber(b[2])
if tokens == nil or last == nil then tokens = burst; last = now end
tokens = math.min(burst, tokens + math.max(0, now - last) * rate)
local allowed = 0
if (cost > 0 and tokens >= cost) or (cost == 0 and tokens >= 1) then
  allowed = 1
  tokens = tokens - cost
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'last', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate) + 1000)
return {allowed, tostring(tokens)}
`;

/** Buckets in Redis: every process sharing the Redis shares the limits. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly redis: Redis;
  /** Resolves on the first connection; until then a take waits for it (briefly), not fails. */
  readonly #firstReady: Promise<void>;
  #everReady = false;

  constructor(
    url: string,
    private readonly prefix = 'herald:rl:',
  ) {
    // Fail fast while Redis is away (no offline queue, short timeouts): the caller falls back.
    // Connected on the first take: CLI commands build the same services and never limit anything.
    this.redis = new (loadIoredis().Redis)(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1_000,
      commandTimeout: 250,
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
    this.redis.on('error', () => {}); // reported through failed takes, not as unhandled events
    this.#firstReady = new Promise((resolve) => {
      this.redis.once('ready', () => {
        this.#everReady = true;
        resolve();
      });
    });
    this.redis.defineCommand('heraldTake', { numberOfKeys: 1, lua: TAKE });
  }

  async take(key: string, rule: RateRule, cost: number): Promise<Bucket> {
    if (!this.#everReady) {
      if (this.redis.status === 'wait') this.redis.connect().catch(() => {}); // retried by retryStrategy
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.#firstReady, new Promise((resolve) => (timer = setTimeout(resolve, 1_000)))]);
      clearTimeout(timer);
    }
    const command = (this.redis as unknown as { heraldTake(...args: unknown[]): Promise<[number, string]> }).heraldTake;
    const [allowed, tokens] = await command.call(this.redis, `${this.prefix}${key}`, rule.perSecond, rule.burst, cost);
    return { allowed: allowed === 1, tokens: Number(tokens) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/**
 * Redis first; while Redis cannot answer, this process's own buckets (the documented choice: limits
 * stay on, per process, rather than failing every request or lifting every limit). The switch
 * each way is logged once.
 */
export class FallbackRateLimitStore implements RateLimitStore {
  #degraded = false;

  constructor(
    private readonly primary: RateLimitStore,
    private readonly fallback: RateLimitStore,
    private readonly logger: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void },
  ) {}

  get degraded(): boolean {
    return this.#degraded;
  }

  async take(key: string, rule: RateRule, cost: number): Promise<Bucket> {
    try {
      const bucket = await this.primary.take(key, rule, cost);
      if (this.#degraded) {
        this.#degraded = false;
        this.logger.info({}, 'redis is back: rate limits are shared again');
      }
      return bucket;
    } catch (error) {
      if (!this.#degraded) {
        this.#degraded = true;
        this.logger.warn({ error: (error as Error).message }, 'redis unreachable: rate limits are per process until it is back');
      }
      return this.fallback.take(key, rule, cost);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.fallback.close()]);
  }
}
