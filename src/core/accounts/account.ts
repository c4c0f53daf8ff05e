import type { Scope } from '../scopes.js';

export interface Account {
  id: string;
  name: string;
  email: string;
  plan: string;
  /** Scopes this account's clients may be granted. */
  scopes: Scope[];
  /** Total credits, in micro-credits. */
  creditsMicros: number;
  /** Credits held by messages not yet accepted by a provider, in micro-credits. */
  reservedMicros: number;
  createdAt: number;
  /** When the operator suspended the account (its API calls and token requests are refused); null while active. */
  suspendedAt: number | null;
}

/**
 * One of an account's API clients (OAuth 2.0 client credentials). An account may have several, each
 * named for what uses it and limited to some of the account's scopes.
 */
export interface ApiClient {
  clientId: string;
  accountId: string;
  /** What the account calls it ("billing service"). */
  name: string;
  /** The scopes it may be granted, within the account's; null: all of the account's. */
  scopes: Scope[] | null;
  /** Hex SHA-256 of the secret. */
  secretHash: string;
  /** The secret a rotation replaced, still accepted until `previousSecretUntil` (a grace period); null when none. */
  previousSecretHash: string | null;
  previousSecretUntil: number | null;
  createdAt: number;
  secretRotatedAt: number | null;
}

/** What every authenticated request is checked against: read per request, or kept where the store announces changes. */
export interface AccountAccess {
  /** Whether the operator suspended the account. */
  suspended: boolean;
  /** Its plan, which sizes its rate limits. */
  plan: string;
  /** The IP allow-list (canonical CIDRs, oldest first); empty allows every address. */
  ipRules: string[];
  /** The account's clients: a token of a client revoked since it was issued is refused. */
  clientIds: string[];
}

/** An entry of an account's IP allow-list, as its owners see it. */
export interface IpRule {
  cidr: string;
  /** Why it is there ("office VPN"); null when none was given. */
  note: string | null;
  createdAt: number;
}

/** The scopes a client may be granted: its own, within the account's (the account's may have shrunk since). */
export const grantableScopes = (account: Pick<Account, 'scopes'>, client: Pick<ApiClient, 'scopes'>): Scope[] =>
  client.scopes === null ? account.scopes : account.scopes.filter((scope) => client.scopes?.includes(scope));

export interface Balance {
  creditsMicros: number;
  reservedMicros: number;
  availableMicros: number;
}

export const balanceOf = (account: Pick<Account, 'creditsMicros' | 'reservedMicros'>): Balance => ({
  creditsMicros: account.creditsMicros,
  reservedMicros: account.reservedMicros,
  availableMicros: account.creditsMicros - account.reservedMicros,
});
