/**
 * Every schedule the dispatcher retries on, in one place: when a job comes back, and when it is
 * given up. Each job kind names its own in the job catalogue (`job-catalogue.ts`); the handlers
 * only ask these functions for the next time. docs/delivery.md and docs/webhooks.md describe them
 * to users.
 */

/** When the dispatcher gives up on a message whose provider keeps failing retryably (configurable: docs/configuration.md). */
export interface RetryPolicy {
  /** Delay before the first retry; each further retry doubles it. */
  baseDelayMs: number;
  /** The longest delay between two attempts. */
  maxDelayMs: number;
  /** Hand-overs after which the message fails (the first one included). */
  maxAttempts: number;
  /** Age after which a message still not accepted fails (24 h by default, docs/delivery.md). */
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

/**
 * Webhook deliveries (docs/webhooks.md): 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h,
 * 12 h, about 35 hours in all, so a receiver down for a whole day still gets every event.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000, 43_200_000,
];

/**
 * The delay before a webhook delivery's next attempt, ±20 % jitter so deliveries that failed
 * together do not all return together; undefined once the schedule is spent (the delivery fails).
 */
export function webhookRetryDelayMs(failedAttempts: number, random: () => number): number | undefined {
  const base = WEBHOOK_RETRY_DELAYS_MS[failedAttempts - 1];
  return base === undefined ? undefined : Math.round(base * (0.8 + random() * 0.4));
}

/**
 * A job whose handler threw (a bug or a broken stored row, not a provider's answer): tried again
 * after 1 s, doubling up to 5 min (`maxDelayMs`, also how long a job that could not even be dropped
 * is put back for), and dropped after `maxAttempts` failures in a row; its work then ends as its
 * kind says (`onDropped` in the job catalogue).
 */
export const JOB_FAILURE_POLICY: RetryPolicy = { baseDelayMs: 1_000, maxDelayMs: 300_000, maxAttempts: 25, maxAgeMs: 0 };

/**
 * A receipt that matches no message yet (its hand-over may still be committing) is tried again
 * every second, this many times, before it is dropped as matching nothing.
 */
export const UNMATCHED_RECEIPT_RETRY = { delayMs: 1_000, retries: 5 } as const;

/**
 * A webhook delivery whose receiver has no free slot in this process comes back when the
 * deliveries ahead of it should be done (`expectedWaitMs`), and at least a moment later; rounded up
 * to a 50 ms step so the deliveries put back together are put back in one statement.
 */
export function busyReceiverRetryAt(now: number, expectedWaitMs = 0): number {
  return Math.ceil((now + Math.max(250, expectedWaitMs)) / 50) * 50;
}
