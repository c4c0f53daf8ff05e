import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../database.js';

/**
 * The address of who made each change, written with the row (core/users/manage-users.ts audit): the
 * audit log names a user by it even after the user is removed (the users table forgets them).
 * Rows written before: the address of whoever is still a user or an operator, else, for a user
 * removed since, the one they joined with (their `user.joined` row's target, "email (role)").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('actor_email', 'text').execute();
  await sql`update audit_log set actor_email = (select email from users where users.id = audit_log.actor)
    where substr(actor, 1, 4) = 'usr_'`.execute(db);
  await sql`update audit_log set actor_email = (select email from operators where operators.id = audit_log.actor)
    where substr(actor, 1, 4) = 'opr_'`.execute(db);
  // An address holds no space, so what comes before " (" is all of it (the whole target without one, on both stores).
  const joinedAs = isPostgres(db)
    ? sql`split_part(j.target, ' (', 1)`
    : sql`case when instr(j.target, ' (') > 0 then substr(j.target, 1, instr(j.target, ' (') - 1) else j.target end`;
  await sql`update audit_log set actor_email = (
      select ${joinedAs} from audit_log j where j.actor = audit_log.actor and j.action = 'user.joined' and j.target is not null limit 1
    ) where actor_email is null and substr(actor, 1, 4) = 'usr_'`.execute(db);
}
