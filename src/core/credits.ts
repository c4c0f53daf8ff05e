/**
 * Credits are kept as integer micro-credits (1 credit = 1,000,000) so that sums are exact;
 * the API shows them as JSON numbers with at most 6 decimals (docs/messages-and-credits.md).
 */
export const MICROS_PER_CREDIT = 1_000_000;

/** Micro-credits as the number the API shows (e.g. 1_500_000 → 1.5). */
export function microsToCredits(micros: number): number {
  return micros / MICROS_PER_CREDIT;
}

const DECIMAL = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/**
 * Parses a non-negative decimal amount of credits with at most 6 decimals ("12", "0.05") into
 * micro-credits without going through floating point. Returns undefined for anything else,
 * including amounts too large to count exactly (more than Number.MAX_SAFE_INTEGER micro-credits).
 */
export function parseCredits(text: string): number | undefined {
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(6, '0'));
  const micros = whole * MICROS_PER_CREDIT + fraction;
  // Above 2^53 micro-credits (about 9 billion credits) the sum above is no longer exact.
  return Number.isSafeInteger(micros) ? micros : undefined;
}

/** "1 credit", "2 credits", "0.5 credits": an amount for a sentence. */
export function creditsText(micros: number): string {
  const credits = microsToCredits(micros);
  return `${credits} credit${credits === 1 ? '' : 's'}`;
}

/** The largest balance kept exactly: Number.MAX_SAFE_INTEGER micro-credits (about 9.007 billion credits). */
export const MAX_BALANCE_MICROS = Number.MAX_SAFE_INTEGER;

/**
 * MAX_BALANCE_MICROS in credits, written from its integer parts: "9007199254.740991" (a division
 * in floating point gives the nearest double, ...740992, a balance that cannot be held).
 */
export const MAX_BALANCE_CREDITS_TEXT = `${Math.floor(MAX_BALANCE_MICROS / MICROS_PER_CREDIT)}.${String(MAX_BALANCE_MICROS % MICROS_PER_CREDIT).padStart(6, '0')}`;

/** A top-up that would take a balance past MAX_BALANCE_MICROS, where sums stop being exact. */
export class BalanceLimitError extends Error {
  constructor() {
    super(`the balance would exceed ${MAX_BALANCE_CREDITS_TEXT} credits, the largest amount kept exactly`);
    this.name = 'BalanceLimitError';
  }
}
