import type { Channel } from './ids.js';

/**
 * A permission a token carries: `<channel>:send` and `<channel>:read` for each channel, and the
 * account-wide ones below (docs/authentication.md). The whole list is the channel catalogue's
 * (core/channels.ts), as the channels are the composition root's to list.
 */
export type Scope = string;

/** The scopes that belong to no channel. */
export const ACCOUNT_SCOPES: readonly Scope[] = ['account:read', 'webhooks:manage', 'suppressions:manage'];

export const readScopeOf = (channel: Channel): Scope => `${channel}:read`;
export const sendScopeOf = (channel: Channel): Scope => `${channel}:send`;

/** Splits a space-separated scope string (RFC 6749 §3.3); runs of spaces are tolerated. */
export function splitScopes(text: string): string[] {
  return text.split(' ').filter((part) => part.length > 0);
}
