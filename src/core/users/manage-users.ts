import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ApiError, validationError } from '../errors.js';
import { timeOrderedId } from '../ids.js';
import type { Store } from '../ports.js';
import { hashPassword, passwordProblem } from './passwords.js';
import type { AuditEntry, Invitation, Role, User } from './user.js';

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 24 * 3600_000;

/** Invitation and session tokens are 256 random bits; the store keeps their SHA-256 only. */
export const newToken = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`;
export const tokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;
/** Whether `text` looks like an email address (a local part, an @, a domain with a dot): people's, accounts' and operators' addresses alike. */
export const isEmailAddress = (text: string): boolean => EMAIL.test(text);
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** The address of who makes a change, read as they make it: a user's (`usr_...`) or an operator's (`opr_...`). */
async function emailOfActor(store: Store, actor: string): Promise<string | null> {
  if (actor.startsWith('usr_')) return (await store.users.findUser(actor))?.email ?? null;
  if (actor.startsWith('opr_')) return (await store.operators.findOperator(actor))?.email ?? null;
  return null;
}

/**
 * Appends one row to the account's audit log, with the actor's address as it is now: the log names
 * them by it after they are removed (the users table forgets them).
 */
export async function audit(store: Store, entry: Omit<AuditEntry, 'id' | 'actorEmail'>): Promise<void> {
  const actorEmail = await emailOfActor(store, entry.actor);
  await store.users.appendAudit(Object.assign({ id: `aud_${timeOrderedId(entry.at)}`, actorEmail }, entry));
}

/**
 * Invites `email` to the account with `role` (`herald users invite`, or an owner on the Security
 * page): a one-time link valid 24 h. Refused when the address is already a user, anywhere.
 */
export async function inviteUser(
  store: Store,
  clock: Clock,
  input: { accountId: string; email: string; role: Role; invitedBy: string | null; ip: string | null },
): Promise<{ token: string; invitation: Invitation }> {
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email)) throw validationError([{ field: 'email', message: 'must be an email address' }]);
  const now = clock.now();
  const token = newToken('inv_');
  const invitation: Invitation = {
    accountId: input.accountId,
    email,
    role: input.role,
    invitedBy: input.invitedBy,
    createdAt: now,
    expiresAt: now + INVITATION_TTL_MS,
    acceptedAt: null,
  };
  await store.transaction(async (tx) => {
    if (!(await tx.accounts.findAccount(input.accountId))) throw new ApiError('NOT_FOUND', `No account ${input.accountId}.`);
    // One answer whichever account the address belongs to: an owner learns nothing of other accounts' users.
    if (await tx.users.findUserByEmail(email)) {
      throw validationError([{ field: 'email', message: `${email} cannot be invited: it already signs in to Herald, here or elsewhere` }]);
    }
    await tx.users.insertInvitation(tokenHash(token), invitation);
    await audit(tx, {
      accountId: input.accountId,
      actor: input.invitedBy ?? 'operator',
      action: 'user.invited',
      target: `${email} (${input.role})`,
      ip: input.ip,
      at: now,
    });
  });
  return { token, invitation };
}

/** The invitation a link names, while it can still be accepted. */
export async function openInvitation(store: Store, clock: Clock, token: string): Promise<Invitation | undefined> {
  const invitation = await store.users.findInvitation(tokenHash(token));
  if (!invitation || invitation.acceptedAt !== null || invitation.expiresAt <= clock.now()) return undefined;
  return invitation;
}

/** Why accepting failed, in words for the person who clicked the link. */
export type AcceptOutcome = { ok: true; user: User } | { ok: false; problem: string };

/**
 * Accepts an invitation with the password its user chose: the user exists from then on. The link
 * works once: two accepts at once make one user (the invitation is taken by a conditional update).
 */
export async function acceptInvitation(store: Store, clock: Clock, token: string, password: string, ip: string): Promise<AcceptOutcome> {
  const problem = passwordProblem(password);
  if (problem) return { ok: false, problem };
  const passwordHash = await hashPassword(password);
  const now = clock.now();
  return store.transaction(async (tx) => {
    const hash = tokenHash(token);
    const invitation = await tx.users.findInvitation(hash);
    if (!invitation || !(await tx.users.takeInvitation(hash, now))) {
      return { ok: false as const, problem: 'This invitation has expired or was already used. Ask for a new one.' };
    }
    if (await tx.users.findUserByEmail(invitation.email)) {
      return { ok: false as const, problem: `${invitation.email} already signs in to Herald.` };
    }
    const user: User = {
      id: `usr_${timeOrderedId(now)}`,
      accountId: invitation.accountId,
      email: invitation.email,
      role: invitation.role,
      twoStep: false,
      createdAt: now,
    };
    await tx.users.insertUser(user, passwordHash);
    await audit(tx, {
      accountId: user.accountId,
      actor: user.id,
      action: 'user.joined',
      target: `${user.email} (${user.role})`,
      ip,
      at: now,
    });
    return { ok: true as const, user };
  });
}

/** Who changes something, for the audit log. */
export interface Actor {
  userId: string;
  ip: string;
}

const LAST_OWNER = 'An account keeps at least one owner: make another user owner first.';

/** Whether the account would still have an owner once `userId` is no longer one. */
async function ownerRemains(tx: Store, accountId: string, userId: string): Promise<boolean> {
  await tx.users.lockUsersOf(accountId);
  return (await tx.users.listUsers(accountId)).some((u) => u.role === 'owner' && u.id !== userId);
}

/** Gives a user of the account another role; refused (a problem in words) when it would leave the account without an owner. */
export async function changeRole(
  store: Store,
  clock: Clock,
  accountId: string,
  userId: string,
  role: Role,
  by: Actor,
): Promise<string | undefined> {
  return store.transaction(async (tx) => {
    const user = await tx.users.findUser(userId);
    if (!user || user.accountId !== accountId) throw new ApiError('NOT_FOUND', 'No such user.');
    if (user.role === role) return undefined;
    if (user.role === 'owner' && !(await ownerRemains(tx, accountId, userId))) return LAST_OWNER;
    await tx.users.setRole(accountId, userId, role);
    await audit(tx, {
      accountId,
      actor: by.userId,
      action: 'user.role_changed',
      target: `${user.email} (${user.role} → ${role})`,
      ip: by.ip,
      at: clock.now(),
    });
    return undefined;
  });
}

/** Removes a user of the account and ends their sessions everywhere; refused when they are its last owner. */
export async function removeUser(store: Store, clock: Clock, accountId: string, userId: string, by: Actor): Promise<string | undefined> {
  return store.transaction(async (tx) => {
    const user = await tx.users.findUser(userId);
    if (!user || user.accountId !== accountId) throw new ApiError('NOT_FOUND', 'No such user.');
    if (user.role === 'owner' && !(await ownerRemains(tx, accountId, userId))) return LAST_OWNER;
    await tx.users.deleteUser(accountId, userId);
    await audit(tx, {
      accountId,
      actor: by.userId,
      action: 'user.removed',
      target: `${user.email} (${user.role})`,
      ip: by.ip,
      at: clock.now(),
    });
    return undefined;
  });
}

/** Ends one session of the account (named by its hash, as the Security page lists it). */
export async function endSession(store: Store, clock: Clock, accountId: string, sessionHash: string, by: Actor): Promise<void> {
  await store.transaction(async (tx) => {
    const session = await tx.users.findSession(sessionHash);
    if (!session || session.accountId !== accountId) throw new ApiError('NOT_FOUND', 'No such session.');
    await tx.users.deleteSession(sessionHash);
    // By address, as the log shows people: an id would name nobody once the user is removed.
    const whose = (await tx.users.findUser(session.userId))?.email ?? session.userId;
    await audit(tx, {
      accountId,
      actor: by.userId,
      action: 'session.ended',
      target: `${whose} from ${session.ip}`,
      ip: by.ip,
      at: clock.now(),
    });
  });
}
