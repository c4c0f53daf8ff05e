/**
 * Account plans. A plan is a name an operator gives an account; it sizes the account's rate limits
 * (RATE_LIMIT_<PLAN>). `developer` is the default for new accounts.
 */
export const PLANS = ['developer', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export const DEFAULT_PLAN: Plan = 'developer';
export const isPlan = (value: string): value is Plan => (PLANS as readonly string[]).includes(value);
