import type { Clock } from '../clock.js';
import type { Store } from '../ports.js';
import type { RateLimitStore, RateRule } from '../rate-limits.js';
import { audit, newToken, normalizeEmail, tokenHash } from './manage-users.js';
import { verifyPassword } from './passwords.js';
import { totpStep } from './totp.js';
import type { User, UserSession } from './user.js';

/** How long a dashboard session lives, and how long it may sit unused (DASHBOARD_SESSION_HOURS, DASHBOARD_IDLE_MINUTES). */
export interface SessionSettings {
  lifetimeMs: number;
  idleMs: number;
}

/**
 * Sign-in attempts allowed before a pause, per address and per client IP: 5 / 20 at once, then one
 * more every 3 minutes / 45 seconds. Every attempt counts, a success too (a person signs in rarely;
 * a guesser cannot tell a charged success from a charged failure).
 */
export const SIGN_IN_THROTTLE: Record<'perEmail' | 'perIp', RateRule> = {
  perEmail: { burst: 5, perSecond: 1 / 180 },
  perIp: { burst: 20, perSecond: 1 / 45 },
};

export type SignInOutcome =
  | { ok: true; user: User; token: string }
  | { ok: false; reason: 'invalid' }
  /** The password was right and two-step sign-in is on: the code from the app was missing or wrong. */
  | { ok: false; reason: 'code' }
  | { ok: false; reason: 'throttled' };

export interface SignInDeps {
  store: Store;
  clock: Clock;
  throttle: RateLimitStore;
  sessions: SessionSettings;
}

/**
 * Email and password to a new session (its token goes into the cookie). An unknown address costs the
 * same time as a wrong password and answers the same, so sign-in does not tell who has an account.
 */
export async function signIn(
  deps: SignInDeps,
  input: { email: string; password: string; code?: string | undefined; ip: string; userAgent: string },
): Promise<SignInOutcome> {
  const email = normalizeEmail(input.email);
  const keys = { perEmail: `signin:email:${email}`, perIp: `signin:ip:${input.ip}` } as const;
  // Every attempt is paid for before the password is checked: guesses sent in parallel meet the
  // limit as surely as guesses sent one after another (a check now and a charge after the ~60 ms
  // hash let them all through).
  const [byEmail, byIp] = await Promise.all([
    deps.throttle.take(keys.perEmail, SIGN_IN_THROTTLE.perEmail, 1),
    deps.throttle.take(keys.perIp, SIGN_IN_THROTTLE.perIp, 1),
  ]);
  if (!byEmail.allowed || !byIp.allowed) return { ok: false, reason: 'throttled' };

  const found = await deps.store.users.findUserByEmail(email);
  // Verified even for an unknown address (against a decoy hash): the same work, so timing tells nothing.
  const passwordMatches = await verifyPassword(input.password, found?.passwordHash);
  if (!found || !passwordMatches) return { ok: false, reason: 'invalid' };
  if (found.totpSecret !== null) {
    // A code counts once: the step it was valid for is taken, so a code seen over a shoulder or replayed is refused.
    const step = totpStep(found.totpSecret, input.code ?? '', deps.clock.now());
    if (step === undefined || !(await deps.store.users.takeTotpStep(found.id, step))) return { ok: false, reason: 'code' };
  }
  const user: User = {
    id: found.id,
    accountId: found.accountId,
    email: found.email,
    role: found.role,
    twoStep: found.twoStep,
    createdAt: found.createdAt,
  };
  const now = deps.clock.now();
  const token = newToken('hss_');
  const session: UserSession = {
    userId: user.id,
    accountId: user.accountId,
    ip: input.ip,
    userAgent: input.userAgent.slice(0, 300),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + deps.sessions.lifetimeMs,
  };
  await deps.store.transaction(async (tx) => {
    await tx.users.insertSession(tokenHash(token), session);
    await audit(tx, { accountId: user.accountId, actor: user.id, action: 'user.signed_in', target: null, ip: input.ip, at: now });
  });
  return { ok: true, user, token };
}

/** Last-seen times are written at most this often: a page view is a read, not a write. */
const TOUCH_EVERY_MS = 60_000;

/** The signed-in user a session token names, while the session lives and has not sat idle too long. */
export async function userOfSession(
  deps: Pick<SignInDeps, 'store' | 'clock' | 'sessions'>,
  token: string,
): Promise<{ user: User; session: UserSession } | undefined> {
  const hash = tokenHash(token);
  const session = await deps.store.users.findSession(hash);
  const now = deps.clock.now();
  if (!session) return undefined;
  if (session.expiresAt <= now || session.lastSeenAt + deps.sessions.idleMs <= now) {
    await deps.store.users.deleteSession(hash);
    return undefined;
  }
  const user = await deps.store.users.findUser(session.userId);
  if (!user) return undefined;
  if (now - session.lastSeenAt >= TOUCH_EVERY_MS) await deps.store.users.touchSession(hash, now);
  return { user, session };
}

/** Ends one session, on every node at once (they all read sessions from the store). */
export async function signOut(store: Store, token: string): Promise<void> {
  await store.users.deleteSession(tokenHash(token));
}

/**
 * Turns two-step sign-in on for a user with the secret their app now holds, once a code from the app
 * proves it. Refused while it is on (a session alone must not swap the second factor: turning it off
 * takes a code of the current one first), and when the code does not match; nothing changes then.
 */
export async function turnOnTwoStep(
  store: Store,
  clock: Clock,
  user: User,
  secret: string,
  code: string,
  ip: string,
): Promise<'on' | 'already-on' | 'wrong-code'> {
  const step = totpStep(secret, code, clock.now());
  if (step === undefined) return 'wrong-code';
  return store.transaction(async (tx) => {
    if ((await tx.users.totpSecretOf(user.id)) !== null) return 'already-on';
    await tx.users.setTotpSecret(user.id, secret);
    await tx.users.takeTotpStep(user.id, step);
    await audit(tx, { accountId: user.accountId, actor: user.id, action: 'user.two_step_on', target: user.email, ip, at: clock.now() });
    return 'on';
  });
}

/** Turns two-step sign-in off, with a current code from the app: false (nothing changed) when it does not match. */
export async function turnOffTwoStep(store: Store, clock: Clock, user: User, code: string, ip: string): Promise<boolean> {
  const secret = await store.users.totpSecretOf(user.id);
  const step = secret === null ? undefined : totpStep(secret, code, clock.now());
  if (step === undefined || !(await store.users.takeTotpStep(user.id, step))) return false;
  await store.transaction(async (tx) => {
    await tx.users.setTotpSecret(user.id, null);
    await audit(tx, { accountId: user.accountId, actor: user.id, action: 'user.two_step_off', target: user.email, ip, at: clock.now() });
  });
  return true;
}
