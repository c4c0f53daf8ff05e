import type { Kysely } from 'kysely';

/**
 * A job's failures in a row: claims whose handler threw (a bug, a broken stored row), reset by any
 * ordinary outcome. `attempts` counts every claim, retries for a provider's "not now" included, so
 * it cannot tell a job that keeps failing inside Herald from one that waited out an outage; the
 * worker drops a job after 25 failures, not after 25 claims. A constant default: no table rewrite
 * on either store.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('failures', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}
