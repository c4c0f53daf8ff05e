import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import { validationError } from '../errors.js';
import { timeOrderedId } from '../ids.js';
import type { Store } from '../ports.js';
import { isEmailAddress, newToken, normalizeEmail, tokenHash } from '../users/manage-users.js';
import { hashPassword, passwordProblem, verifyPassword } from '../users/passwords.js';
import { type SessionSettings, SIGN_IN_THROTTLE, type SignInDeps } from '../users/sign-in.js';
import type { Operator, OperatorSession } from './operator.js';

/**
 * Adds an operator (`herald operators add`). Without a password one is made (24 random bytes,
 * base64url) and returned, to be shown once; only its scrypt hash is stored.
 */
export async function addOperator(
  store: Store,
  clock: Clock,
  input: { email: string; password?: string | undefined },
): Promise<{ operator: Operator; password: string }> {
  const email = normalizeEmail(input.email);
  if (!isEmailAddress(email)) throw validationError([{ field: 'email', message: 'must be an email address' }]);
  const password = input.password ?? randomBytes(24).toString('base64url');
  const problem = passwordProblem(password);
  if (problem) throw validationError([{ field: 'password', message: problem }]);
  if (await store.operators.findOperatorByEmail(email))
    throw validationError([{ field: 'email', message: `${email} is already an operator` }]);
  const now = clock.now();
  const operator: Operator = { id: `opr_${timeOrderedId(now)}`, email, createdAt: now };
  await store.operators.insertOperator(operator, await hashPassword(password));
  return { operator, password };
}

/** Removes an operator and ends their sessions; whether there was one. */
export function removeOperator(store: Store, email: string): Promise<boolean> {
  return store.transaction((tx) => tx.operators.deleteOperator(normalizeEmail(email)));
}

export type OperatorSignIn = { ok: true; operator: Operator; token: string } | { ok: false; reason: 'invalid' | 'throttled' };

/**
 * Email and password to an operator session. Throttled as account users' sign-in is (per address and
 * per IP, every attempt counted), in counters of its own; an unknown address costs the same time
 * as a wrong password and answers the same.
 */
export async function signInOperator(
  deps: SignInDeps,
  input: { email: string; password: string; ip: string; userAgent: string },
): Promise<OperatorSignIn> {
  const email = normalizeEmail(input.email);
  const [byEmail, byIp] = await Promise.all([
    deps.throttle.take(`operator-signin:email:${email}`, SIGN_IN_THROTTLE.perEmail, 1),
    deps.throttle.take(`operator-signin:ip:${input.ip}`, SIGN_IN_THROTTLE.perIp, 1),
  ]);
  if (!byEmail.allowed || !byIp.allowed) return { ok: false, reason: 'throttled' };
  const found = await deps.store.operators.findOperatorByEmail(email);
  const matches = await verifyPassword(input.password, found?.passwordHash);
  if (!found || !matches) return { ok: false, reason: 'invalid' };
  const now = deps.clock.now();
  const token = newToken('hos_');
  const session: OperatorSession = {
    operatorId: found.id,
    ip: input.ip,
    userAgent: input.userAgent.slice(0, 300),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + deps.sessions.lifetimeMs,
  };
  await deps.store.operators.insertSession(tokenHash(token), session);
  return { ok: true, operator: { id: found.id, email: found.email, createdAt: found.createdAt }, token };
}

/** Last-seen times are written at most this often: a page view is a read, not a write. */
const TOUCH_EVERY_MS = 60_000;

/** The operator a session token names, while the session lives and has not sat idle too long. */
export async function operatorOfSession(
  deps: { store: Store; clock: Clock; sessions: SessionSettings },
  token: string,
): Promise<Operator | undefined> {
  const hash = tokenHash(token);
  const session = await deps.store.operators.findSession(hash);
  if (!session) return undefined;
  const now = deps.clock.now();
  if (session.expiresAt <= now || session.lastSeenAt + deps.sessions.idleMs <= now) {
    await deps.store.operators.deleteSession(hash);
    return undefined;
  }
  const operator = await deps.store.operators.findOperator(session.operatorId);
  if (operator && now - session.lastSeenAt >= TOUCH_EVERY_MS) await deps.store.operators.touchSession(hash, now);
  return operator;
}

/** Ends an operator session, on every node at once. */
export async function signOutOperator(store: Store, token: string): Promise<void> {
  await store.operators.deleteSession(tokenHash(token));
}
