/** When the dispatcher gives up on a message whose provider keeps failing retryably. */
export interface RetryPolicy {
  /** Delay before the first retry; each further retry doubles it. */
  baseDelayMs: number;
  /** The longest delay between two attempts. */
  maxDelayMs: number;
  /** Hand-overs after which the message fails (the first one included). */
  maxAttempts: number;
  /** Age after which a message still not accepted fails (CONTRACT: 24 h). */
  maxAgeMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 5_000,
  maxDelayMs: 3_600_000,
  maxAttempts: 30,
  maxAgeMs: 24 * 3_600_000,
};

/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so retries of
 * many messages that failed together (a provider outage) spread out instead of arriving as a herd,
 * while each retry still waits at least half its nominal delay.
 */
export function backoffDelayMs(policy: RetryPolicy, failedAttempts: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 30);
  const nominal = Math.min(policy.baseDelayMs * 2 ** exponent, policy.maxDelayMs);
  return Math.round(nominal / 2 + (random() * nominal) / 2);
}
