/**
 * Account plans. A plan is a name an operator gives an account; rate limits per plan arrive with
 * the hardening work. `developer` is the default for new accounts.
 */
export const PLANS = ['developer', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export const DEFAULT_PLAN: Plan = 'developer';
export const isPlan = (value: string): value is Plan => (PLANS as readonly string[]).includes(value);
