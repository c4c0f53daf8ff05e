import type { Channel } from './ids.js';

/** Every scope a token can carry: send and read per channel, account:read and webhooks:manage (docs/authentication.md). */
export const ALL_SCOPES = [
  'sms:send',
  'sms:read',
  'whatsapp:send',
  'whatsapp:read',
  'email:send',
  'email:read',
  'telegram:send',
  'telegram:read',
  'account:read',
  'webhooks:manage',
] as const;

export type Scope = (typeof ALL_SCOPES)[number];

const known = new Set<string>(ALL_SCOPES);
export const isScope = (value: string): value is Scope => known.has(value);

export const readScopeOf = (channel: Channel): Scope => `${channel}:read`;
export const sendScopeOf = (channel: Channel): Scope => `${channel}:send`;

/** Splits a space-separated scope string (RFC 6749 §3.3); runs of spaces are tolerated. */
export function splitScopes(text: string): string[] {
  return text.split(' ').filter((part) => part.length > 0);
}

/** Scopes in the canonical order of ALL_SCOPES, without repeats. */
export function normalizeScopes(scopes: Iterable<string>): Scope[] {
  const wanted = new Set(scopes);
  return ALL_SCOPES.filter((scope) => wanted.has(scope));
}
