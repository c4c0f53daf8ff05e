import type { Clock } from '../clock.js';
import { newAccountId, newClientId } from '../ids.js';
import { DEFAULT_PLAN } from '../plans.js';
import type { Store } from '../ports.js';
import type { Scope } from '../scopes.js';
import { audit } from '../users/manage-users.js';
import type { Account } from './account.js';
import { generateClientSecret, hashClientSecret } from './client-secrets.js';

export interface CreateAccountInput {
  name: string;
  email: string;
  plan?: string | undefined;
  /** Scopes the account may be granted; all scopes when omitted. */
  scopes?: Scope[] | undefined;
  /** Opening balance in micro-credits. */
  creditsMicros?: number | undefined;
}

export interface CreatedAccount {
  account: Account;
  clientId: string;
  /** Shown once, here; only its hash is stored. */
  clientSecret: string;
}

/**
 * Creates an account with one API client and, in the same transaction, its opening balance and
 * what each channel gives a new account (the sandbox WhatsApp templates).
 */
export async function createAccount(store: Store, clock: Clock, input: CreateAccountInput): Promise<CreatedAccount> {
  const now = clock.now();
  const accountId = newAccountId(now);
  const clientId = newClientId();
  const clientSecret = generateClientSecret();
  await store.transaction(async (tx) => {
    await tx.accounts.insertAccountWithClient({
      account: {
        id: accountId,
        name: input.name,
        email: input.email,
        plan: input.plan ?? DEFAULT_PLAN,
        scopes: store.channels.normalizeScopes(input.scopes ?? store.channels.scopes),
        createdAt: now,
      },
      client: { clientId, accountId, secretHash: hashClientSecret(clientSecret), createdAt: now, secretRotatedAt: null },
    });
    if (input.creditsMicros) await tx.credits.topUp(accountId, input.creditsMicros, now, 'opening balance');
    // What each channel gives a new account (WhatsApp: its sandbox templates).
    for (const channel of tx.channels.definitions) await channel.accountCreated?.(tx, accountId, now);
  });
  const account = await store.accounts.findAccount(accountId);
  if (!account) throw new Error(`account ${accountId} vanished after it was created`);
  return { account, clientId, clientSecret };
}

/**
 * Gives a client a new secret. The old secret stops working at once; tokens already issued with it
 * stay valid until they expire (docs/authentication.md).
 */
export async function rotateClientSecret(
  store: Store,
  clock: Clock,
  reference: string,
  /** Who asked, for the account's audit log: a dashboard user (`usr_...`) and their IP; the operator (CLI) when absent. */
  by: { actor: string; ip: string | null } = { actor: 'operator', ip: null },
): Promise<{ clientId: string; clientSecret: string } | undefined> {
  const account = await store.accounts.findAccountByReference(reference);
  if (!account) return undefined;
  const clients = await store.accounts.listClients(account.id);
  const client = reference.startsWith('cli_') ? clients.find((c) => c.clientId === reference) : clients[0];
  if (!client) return undefined;
  const clientSecret = generateClientSecret();
  const now = clock.now();
  await store.transaction(async (tx) => {
    await tx.accounts.replaceClientSecret(client.clientId, hashClientSecret(clientSecret), now);
    await audit(tx, {
      accountId: account.id,
      actor: by.actor,
      action: 'client_secret.rotated',
      target: client.clientId,
      ip: by.ip,
      at: now,
    });
  });
  return { clientId: client.clientId, clientSecret };
}

/** Adds credits to an account named by account id or client id; returns the account after it. */
export async function addCredits(store: Store, clock: Clock, reference: string, micros: number): Promise<Account | undefined> {
  const account = await store.accounts.findAccountByReference(reference);
  if (!account) return undefined;
  await store.transaction((tx) => tx.credits.topUp(account.id, micros, clock.now(), 'top-up'));
  return store.accounts.findAccount(account.id);
}
