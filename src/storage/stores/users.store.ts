import type { UsersPort } from '../../core/ports.js';
import { type Invitation, isRole, type Role, type User, type UserSession } from '../../core/users/user.js';
import { type Executor, isPostgres } from '../database.js';
import type { UserInvitationsTable, UserSessionsTable, UsersTable } from '../schema.js';

/** A role column holds only what core/users/user.ts names; anything else is a defect of the data. */
const roleOf = (value: string): Role => {
  if (!isRole(value)) throw new Error(`unknown user role '${value}' in the store`);
  return value;
};

const toUser = (row: UsersTable): User => ({
  id: row.id,
  accountId: row.account_id,
  email: row.email,
  role: roleOf(row.role),
  twoStep: row.totp_secret !== null,
  createdAt: row.created_at,
});

const toInvitation = (row: UserInvitationsTable): Invitation => ({
  accountId: row.account_id,
  email: row.email,
  role: roleOf(row.role),
  invitedBy: row.invited_by,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  acceptedAt: row.accepted_at,
});

const toSession = (row: UserSessionsTable): UserSession => ({
  userId: row.user_id,
  accountId: row.account_id,
  ip: row.ip,
  userAgent: row.user_agent,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
});

/** Dashboard users, invitations, sessions and the audit log (migration 0018). */
export function usersStore(db: Executor): UsersPort {
  return {
    async insertUser(user, passwordHash) {
      await db
        .insertInto('users')
        .values({
          id: user.id,
          account_id: user.accountId,
          email: user.email,
          role: user.role,
          password_hash: passwordHash,
          created_at: user.createdAt,
        })
        .execute();
    },
    async findUser(userId) {
      const row = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
      return row && toUser(row);
    },
    async findUserByEmail(email) {
      const row = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      return row && Object.assign(toUser(row), { passwordHash: row.password_hash, totpSecret: row.totp_secret });
    },
    async totpSecretOf(userId) {
      const row = await db.selectFrom('users').select('totp_secret').where('id', '=', userId).executeTakeFirst();
      return row?.totp_secret ?? null;
    },
    async setTotpSecret(userId, secret) {
      await db.updateTable('users').set({ totp_secret: secret, totp_last_step: null }).where('id', '=', userId).execute();
    },
    async takeTotpStep(userId, step) {
      const result = await db
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', userId)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async listUsers(accountId) {
      const rows = await db.selectFrom('users').selectAll().where('account_id', '=', accountId).orderBy('created_at').execute();
      return rows.map(toUser);
    },
    async insertInvitation(tokenHash, invitation) {
      await db
        .insertInto('user_invitations')
        .values({
          token_hash: tokenHash,
          account_id: invitation.accountId,
          email: invitation.email,
          role: invitation.role,
          invited_by: invitation.invitedBy,
          created_at: invitation.createdAt,
          expires_at: invitation.expiresAt,
          accepted_at: invitation.acceptedAt,
        })
        .execute();
    },
    async findInvitation(tokenHash) {
      const row = await db.selectFrom('user_invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      return row && toInvitation(row);
    },
    async takeInvitation(tokenHash, at) {
      const result = await db
        .updateTable('user_invitations')
        .set({ accepted_at: at })
        .where('token_hash', '=', tokenHash)
        .where('accepted_at', 'is', null)
        .where('expires_at', '>', at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async listInvitations(accountId) {
      const rows = await db
        .selectFrom('user_invitations')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('accepted_at', 'is', null)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map(toInvitation);
    },
    async insertSession(tokenHash, session) {
      await db
        .insertInto('user_sessions')
        .values({
          token_hash: tokenHash,
          user_id: session.userId,
          account_id: session.accountId,
          ip: session.ip,
          user_agent: session.userAgent,
          created_at: session.createdAt,
          last_seen_at: session.lastSeenAt,
          expires_at: session.expiresAt,
        })
        .execute();
    },
    async findSession(tokenHash) {
      const row = await db.selectFrom('user_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      return row && toSession(row);
    },
    async touchSession(tokenHash, at) {
      await db.updateTable('user_sessions').set({ last_seen_at: at }).where('token_hash', '=', tokenHash).execute();
    },
    async deleteSession(tokenHash) {
      await db.deleteFrom('user_sessions').where('token_hash', '=', tokenHash).execute();
    },
    async listSessions(accountId, now) {
      const rows = await db
        .selectFrom('user_sessions')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('expires_at', '>', now)
        .orderBy('last_seen_at', 'desc')
        .limit(200)
        .execute();
      return rows.map((row) => Object.assign(toSession(row), { tokenHash: row.token_hash }));
    },
    async deleteSessionsOf(userId) {
      await db.deleteFrom('user_sessions').where('user_id', '=', userId).execute();
    },
    async keepNote(note, now) {
      await db.deleteFrom('shown_once').where('expires_at', '<=', now).execute();
      await db
        .insertInto('shown_once')
        .values({ id: note.id, session_hash: note.sessionHash, sealed: note.sealed, expires_at: note.expiresAt })
        .execute();
    },
    async takeNote(id, sessionHash, now) {
      // One statement: of two reads at once, only the one that deleted the row gets it.
      const row = await db
        .deleteFrom('shown_once')
        .where('id', '=', id)
        .where('session_hash', '=', sessionHash)
        .where('expires_at', '>', now)
        .returning('sealed')
        .executeTakeFirst();
      return row?.sealed;
    },
    async lockUsersOf(accountId) {
      if (isPostgres(db)) await db.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
    },
    async setRole(accountId, userId, role) {
      const result = await db
        .updateTable('users')
        .set({ role })
        .where('id', '=', userId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async deleteUser(accountId, userId) {
      await db.deleteFrom('user_sessions').where('user_id', '=', userId).where('account_id', '=', accountId).execute();
      const result = await db.deleteFrom('users').where('id', '=', userId).where('account_id', '=', accountId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    async appendAudit(entry) {
      await db
        .insertInto('audit_log')
        .values({
          id: entry.id,
          account_id: entry.accountId,
          actor: entry.actor,
          actor_email: entry.actorEmail,
          action: entry.action,
          target: entry.target,
          ip: entry.ip,
          at: entry.at,
        })
        .execute();
    },
    async listAudit(accountId, limit) {
      const rows = await db
        .selectFrom('audit_log')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        accountId: row.account_id,
        actor: row.actor,
        actorEmail: row.actor_email,
        action: row.action,
        target: row.target,
        ip: row.ip,
        at: row.at,
      }));
    },
  };
}
