import { type Kysely, sql } from 'kysely';

/**
 * Claims read the jobs of a priority in (run_at, id) order, skipping those under a lease. With the
 * whole table in that index, every claim walked past each job already being worked on — a thousand
 * in flight made each claim a scan of a thousand rows. The index now holds free jobs only (a job is
 * written out of it when claimed, back into it when put back); leases that ran out are found
 * through `jobs_lease_end` instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_claim_order').execute();
  await db.schema
    .createIndex('jobs_free')
    .on('jobs')
    .columns(['priority', 'run_at', 'id'])
    .where(sql.ref('locked_until'), 'is', null)
    .execute();
}
