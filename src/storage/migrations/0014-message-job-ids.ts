import { type Kysely, sql } from 'kysely';

/**
 * A message's job (its delivery; a message has at most one) is keyed by the message: its id is
 * `job_` and the message id (core/ids.ts, jobIdOfMessage), so removing the job of a canceled
 * message looks up the key, and the `jobs_message` index of message ids goes. Every send wrote an
 * entry to it, and every finished delivery removed one: a B-tree fewer per message, about two pages
 * fewer per commit of six sends.
 *
 * The jobs of messages already queued take their new ids here. A job a worker of an older version
 * holds meanwhile (a rolling upgrade on PostgreSQL) is not found again by that worker when it ends:
 * its lease runs out, a worker claims it again and finds the message no longer queued, and the job
 * ends doing nothing, as it does for a canceled message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A message never had two jobs; were one to, the newer would be a second delivery of it, and its
  // new id would clash with the other's: only the oldest (by id, which orders by time) is kept.
  // One pass over the jobs of messages, sorted (a question per job took minutes on PostgreSQL
  // for 100,000 jobs).
  await sql`delete from jobs where id in (
              select id from (
                select id, row_number() over (partition by message_id order by id) as n from jobs where message_id is not null
              ) ranked where n > 1)`.execute(db);
  await sql`update jobs set id = 'job_' || message_id where message_id is not null`.execute(db);
  await db.schema.dropIndex('jobs_message').execute();
}
