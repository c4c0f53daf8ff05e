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
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Appends one row to the account's audit log. */
export async function audit(store: Store, entry: Omit<AuditEntry, 'id'>): Promise<void> {
  await store.users.appendAudit(Object.assign({ id: `aud_${timeOrderedId(entry.at)}` }, entry));
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
    if (await tx.users.findUserByEmail(email)) {
      throw validationError([{ field: 'email', message: `${email} already signs in to Herald` }]);
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
