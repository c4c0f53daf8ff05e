import { type Kysely, sql } from 'kysely';

/**
 * Jobs get a priority (0 runs first). Receipts (0) no longer wait behind a backlog of deliveries
 * (1): a message's final status, its charge and its webhooks follow its receipt at once, however
 * much is still queued to send. Claims read the new index in (priority, run_at, id) order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`update jobs set priority = 0 where kind = 'provider_receipt'`.execute(db);
  await db.schema.createIndex('jobs_claim_order').on('jobs').columns(['priority', 'run_at', 'id']).execute();
}
