import type { Operator, OperatorSession } from '../../core/operators/operator.js';
import type { OperatorsPort } from '../../core/ports.js';
import type { Executor } from '../database.js';
import type { OperatorSessionsTable, OperatorsTable } from '../schema.js';

const toOperator = (row: Pick<OperatorsTable, 'id' | 'email' | 'created_at'>): Operator => ({
  id: row.id,
  email: row.email,
  createdAt: row.created_at,
});

const toSession = (row: OperatorSessionsTable): OperatorSession => ({
  operatorId: row.operator_id,
  ip: row.ip,
  userAgent: row.user_agent,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
});

/** The operator's people and their sessions (migration 0019). */
export function operatorsStore(db: Executor): OperatorsPort {
  return {
    async insertOperator(operator, passwordHash) {
      await db
        .insertInto('operators')
        .values({ id: operator.id, email: operator.email, password_hash: passwordHash, created_at: operator.createdAt })
        .execute();
    },
    async findOperator(operatorId) {
      const row = await db.selectFrom('operators').select(['id', 'email', 'created_at']).where('id', '=', operatorId).executeTakeFirst();
      return row && toOperator(row);
    },
    async findOperatorByEmail(email) {
      const row = await db.selectFrom('operators').selectAll().where('email', '=', email).executeTakeFirst();
      return row && Object.assign(toOperator(row), { passwordHash: row.password_hash });
    },
    async listOperators() {
      const rows = await db.selectFrom('operators').select(['id', 'email', 'created_at']).orderBy('created_at').orderBy('id').execute();
      return rows.map(toOperator);
    },
    async deleteOperator(email) {
      const row = await db.selectFrom('operators').select('id').where('email', '=', email).executeTakeFirst();
      if (!row) return false;
      await db.deleteFrom('operator_sessions').where('operator_id', '=', row.id).execute();
      await db.deleteFrom('operators').where('id', '=', row.id).execute();
      return true;
    },
    async insertSession(tokenHash, session) {
      await db
        .insertInto('operator_sessions')
        .values({
          token_hash: tokenHash,
          operator_id: session.operatorId,
          ip: session.ip,
          user_agent: session.userAgent,
          created_at: session.createdAt,
          last_seen_at: session.lastSeenAt,
          expires_at: session.expiresAt,
        })
        .execute();
    },
    async findSession(tokenHash) {
      const row = await db.selectFrom('operator_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      return row && toSession(row);
    },
    async touchSession(tokenHash, at) {
      await db.updateTable('operator_sessions').set({ last_seen_at: at }).where('token_hash', '=', tokenHash).execute();
    },
    async deleteSession(tokenHash) {
      await db.deleteFrom('operator_sessions').where('token_hash', '=', tokenHash).execute();
    },
  };
}
