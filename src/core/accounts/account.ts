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
}

export interface ApiClient {
  clientId: string;
  accountId: string;
  /** Hex SHA-256 of the secret. */
  secretHash: string;
  createdAt: number;
  secretRotatedAt: number | null;
}

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
