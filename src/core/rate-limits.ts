/**
 * Rate limits as token buckets: `burst` tokens at most, refilled at `perSecond`; a request takes
 * one. The buckets live in a RateLimitStore (this process's memory, or Redis shared by every
 * process); the arithmetic is the same in both.
 */
export interface RateRule {
  perSecond: number;
  burst: number;
}

/** What the store says of one take. */
export interface Bucket {
  allowed: boolean;
  /** Tokens left after this take (fractional). */
  tokens: number;
}

export interface RateLimitStore {
  /** Takes `cost` tokens from the bucket `key` if it holds them (cost 0 only reads it). */
  take(key: string, rule: RateRule, cost: number): Promise<Bucket>;
  close(): Promise<void>;
}

/** The answer's RateLimit-* figures (IETF draft: limit, remaining, reset in seconds). */
export interface RateLimitHeaders {
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  reset: number;
  /** Seconds until one more request may go (0 when one may go now). */
  retryAfter: number;
}

export function headersOf(rule: RateRule, bucket: Bucket): RateLimitHeaders {
  const missing = rule.burst - bucket.tokens;
  return {
    limit: rule.burst,
    remaining: Math.max(0, Math.floor(bucket.tokens)),
    reset: Math.max(0, Math.ceil(missing / rule.perSecond)),
    retryAfter: bucket.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / rule.perSecond)),
  };
}

/** Refills a bucket last seen at `last` with `tokens` up to `now` (ms), then takes `cost` if it can. */
export function refillAndTake(state: { tokens: number; last: number } | undefined, rule: RateRule, cost: number, now: number) {
  const refilled = state ? Math.min(rule.burst, state.tokens + ((now - state.last) / 1000) * rule.perSecond) : rule.burst;
  const allowed = refilled >= cost && (cost > 0 || refilled >= 1);
  const tokens = allowed ? refilled - cost : refilled;
  return { allowed, tokens, state: { tokens, last: now } };
}
