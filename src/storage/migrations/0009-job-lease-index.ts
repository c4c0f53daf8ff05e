import type { Kysely } from 'kysely';

/**
 * The (run_at, id) index of jobs served no query any more (claims read jobs_claim_order), yet every
 * send paid for keeping it. In its place, an index of running leases only, which is written when a
 * job is claimed rather than when it is added: it tells a sleeping worker when a lease that another
 * (dead) worker holds runs out, without reading every job.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_due').execute();
  await db.schema.createIndex('jobs_lease_end').on('jobs').column('locked_until').where('locked_until', 'is not', null).execute();
}
