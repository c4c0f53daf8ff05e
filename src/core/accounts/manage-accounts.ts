import type { Clock } from '../clock.js';
import { ApiError, type FieldProblem, validationError } from '../errors.js';
import { newAccountId, newClientId } from '../ids.js';
import { DEFAULT_PLAN, isPlan, PLANS } from '../plans.js';
import type { Store } from '../ports.js';
import type { Scope } from '../scopes.js';
import { audit, isEmailAddress } from '../users/manage-users.js';
import type { Account, ApiClient } from './account.js';
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
/** What is wrong with a new account's name, email and plan (each field once); empty when nothing is. */
export function accountInputProblems(input: Pick<CreateAccountInput, 'name' | 'email' | 'plan'>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (input.name.trim() === '' || input.name.length > 200)
    problems.push({ field: 'name', message: 'is required (at most 200 characters)' });
  if (!isEmailAddress(input.email)) problems.push({ field: 'email', message: 'must be an email address' });
  if (input.plan !== undefined && !isPlan(input.plan)) problems.push({ field: 'plan', message: `must be one of: ${PLANS.join(', ')}` });
  return problems;
}

export async function createAccount(store: Store, clock: Clock, input: CreateAccountInput): Promise<CreatedAccount> {
  const problems = accountInputProblems(input);
  if (problems.length > 0) throw validationError(problems);
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
      client: {
        clientId,
        accountId,
        name: 'Default',
        scopes: null,
        secretHash: hashClientSecret(clientSecret),
        previousSecretHash: null,
        previousSecretUntil: null,
        createdAt: now,
        secretRotatedAt: null,
      },
    });
    if (input.creditsMicros) await tx.credits.topUp(accountId, input.creditsMicros, now, 'opening balance');
    // What each channel gives a new account (WhatsApp: its sandbox templates).
    for (const channel of tx.channels.definitions) await channel.accountCreated?.(tx, accountId, now);
  });
  const account = await store.accounts.findAccount(accountId);
  if (!account) throw new Error(`account ${accountId} vanished after it was created`);
  return { account, clientId, clientSecret };
}

/** Who asked, for the account's audit log: a dashboard user (`usr_...`) or operator (`opr_...`) and their IP; the operator's CLI when absent. */
export interface Actor {
  actor: string;
  ip: string | null;
}
const CLI: Actor = { actor: 'operator', ip: null };

/** The grace periods a replaced secret may be given, longest last: none (it stops at once) up to a week. */
export const SECRET_GRACE_PERIODS_MS = [0, 3600_000, 24 * 3600_000, 7 * 24 * 3600_000] as const;
export const MAX_SECRET_GRACE_MS = 7 * 24 * 3600_000;

export type RotateOutcome =
  | { outcome: 'rotated'; clientId: string; clientSecret: string; previousUntil: number | null }
  /** No such account or client (or it was revoked meanwhile). */
  | { outcome: 'not-found' }
  /** The account has several clients: which one must be said (a `cli_` id). */
  | { outcome: 'ambiguous'; clientIds: string[] }
  /** Its secret changed since `expectedSecretHash` was read (a second tab, a form sent twice at once): nothing was done. */
  | { outcome: 'changed' };

/**
 * Gives a client a new secret. The old secret stops working at once, or after `graceMs` (up to a
 * week) so the services using it can be moved over; tokens already issued with it stay valid until
 * they expire (docs/authentication.md). The replacement is conditional on the secret read (or the
 * one the caller saw, `expectedSecretHash`): two rotations at once make one new secret, not two.
 */
export async function rotateClientSecret(
  store: Store,
  clock: Clock,
  reference: string,
  by: Actor = CLI,
  graceMs = 0,
  expectedSecretHash?: string,
): Promise<RotateOutcome> {
  if (!Number.isInteger(graceMs) || graceMs < 0 || graceMs > MAX_SECRET_GRACE_MS) {
    throw validationError([{ field: 'grace', message: 'must be between none and 7 days' }]);
  }
  const account = await store.accounts.findAccountByReference(reference);
  if (!account) return { outcome: 'not-found' };
  const clients = await store.accounts.listClients(account.id);
  if (!reference.startsWith('cli_') && clients.length > 1) return { outcome: 'ambiguous', clientIds: clients.map((c) => c.clientId) };
  const client = reference.startsWith('cli_') ? clients.find((c) => c.clientId === reference) : clients[0];
  if (!client) return { outcome: 'not-found' };
  const clientSecret = generateClientSecret();
  const now = clock.now();
  const previousUntil = graceMs > 0 ? now + graceMs : null;
  const replaced = await store.transaction(async (tx) => {
    const expected = expectedSecretHash ?? client.secretHash;
    if (!(await tx.accounts.replaceClientSecret(client.clientId, hashClientSecret(clientSecret), now, previousUntil, expected)))
      return false;
    await audit(tx, {
      accountId: account.id,
      actor: by.actor,
      action: previousUntil === null ? 'client_secret.rotated' : 'client_secret.rotated_with_grace',
      target: client.clientId,
      ip: by.ip,
      at: now,
    });
    return true;
  });
  if (!replaced) return (await store.accounts.findClient(client.clientId)) ? { outcome: 'changed' } : { outcome: 'not-found' };
  return { outcome: 'rotated', clientId: client.clientId, clientSecret, previousUntil };
}

/** An account may have this many API clients. */
export const MAX_CLIENTS_PER_ACCOUNT = 20;

/**
 * Adds a named API client to the account, limited to some of the account's scopes (all of them when
 * `scopes` is null). Its secret is returned once, here; only its hash is stored.
 */
export async function createClient(
  store: Store,
  clock: Clock,
  accountId: string,
  input: { name: string; scopes: Scope[] | null },
  by: Actor = CLI,
): Promise<{ client: ApiClient; clientSecret: string }> {
  const account = await store.accounts.findAccount(accountId);
  if (!account) throw new ApiError('NOT_FOUND', `No account ${accountId}.`);
  const name = input.name.trim();
  const problems: FieldProblem[] = [];
  if (name.length === 0 || name.length > 100) problems.push({ field: 'name', message: 'must be 1 to 100 characters' });
  const outside = (input.scopes ?? []).filter((scope) => !account.scopes.includes(scope));
  if (outside.length > 0) problems.push({ field: 'scopes', message: `the account may not be granted ${outside.join(', ')}` });
  if (input.scopes !== null && input.scopes.length === 0) problems.push({ field: 'scopes', message: 'choose at least one scope' });
  if (problems.length > 0) throw validationError(problems);
  const now = clock.now();
  const clientSecret = generateClientSecret();
  const client: ApiClient = {
    clientId: newClientId(),
    accountId,
    name,
    scopes: input.scopes === null ? null : store.channels.normalizeScopes(input.scopes),
    secretHash: hashClientSecret(clientSecret),
    previousSecretHash: null,
    previousSecretUntil: null,
    createdAt: now,
    secretRotatedAt: null,
  };
  await store.transaction(async (tx) => {
    // Clients of one account are counted and inserted one at a time (the account's row locked on
    // PostgreSQL; SQLite's write transactions take turns), so requests at once cannot pass the limit.
    await tx.credits.lockAccounts([accountId]);
    if ((await tx.accounts.listClients(accountId)).length >= MAX_CLIENTS_PER_ACCOUNT) {
      throw validationError([
        { field: 'name', message: `an account may have at most ${MAX_CLIENTS_PER_ACCOUNT} API clients; revoke one first` },
      ]);
    }
    await tx.accounts.insertClient(client);
    await audit(tx, { accountId, actor: by.actor, action: 'client.created', target: `${client.clientId} (${name})`, ip: by.ip, at: now });
  });
  return { client, clientSecret };
}

/** Revokes a client: its secrets and every token issued to it stop working at once. Whether the account had it. */
export async function revokeClient(store: Store, clock: Clock, accountId: string, clientId: string, by: Actor = CLI): Promise<boolean> {
  const now = clock.now();
  return store.transaction(async (tx) => {
    if (!(await tx.accounts.deleteClient(accountId, clientId))) return false;
    await audit(tx, { accountId, actor: by.actor, action: 'client.revoked', target: clientId, ip: by.ip, at: now });
    return true;
  });
}

/** Adds credits to an account named by account id or client id, with a note for its ledger; returns the account after it. */
export async function addCredits(
  store: Store,
  clock: Clock,
  reference: string,
  micros: number,
  note = 'top-up',
  by: Actor = CLI,
): Promise<Account | undefined> {
  const account = await store.accounts.findAccountByReference(reference);
  if (!account) return undefined;
  const now = clock.now();
  await store.transaction(async (tx) => {
    await tx.credits.topUp(account.id, micros, now, note);
    await audit(tx, { accountId: account.id, actor: by.actor, action: 'credits.added', target: note, ip: by.ip, at: now });
  });
  return store.accounts.findAccount(account.id);
}

/**
 * Suspends an account (its token requests and API calls are refused with ACCOUNT_SUSPENDED, on
 * every node at once; messages already accepted are still delivered) or reinstates it.
 */
export async function setAccountSuspended(
  store: Store,
  clock: Clock,
  accountId: string,
  suspended: boolean,
  by: Actor = CLI,
): Promise<boolean> {
  const now = clock.now();
  return store.transaction(async (tx) => {
    if (!(await tx.accounts.setSuspended(accountId, suspended ? now : null))) return false;
    await audit(tx, {
      accountId,
      actor: by.actor,
      action: suspended ? 'account.suspended' : 'account.reinstated',
      target: null,
      ip: by.ip,
      at: now,
    });
    return true;
  });
}

/** Moves an account to another plan (its rate limits follow). */
export async function setAccountPlan(store: Store, clock: Clock, accountId: string, plan: string, by: Actor = CLI): Promise<boolean> {
  if (!isPlan(plan)) throw validationError([{ field: 'plan', message: `must be one of: ${PLANS.join(', ')}` }]);
  const now = clock.now();
  return store.transaction(async (tx) => {
    if (!(await tx.accounts.setPlan(accountId, plan))) return false;
    await audit(tx, { accountId, actor: by.actor, action: 'account.plan_changed', target: plan, ip: by.ip, at: now });
    return true;
  });
}
