import type { Kysely } from 'kysely';

/**
 * Where a message came from, for an operator following it (docs/operations.md, "Following a
 * message"): the id of the HTTP request that created it, which every log line of its life carries,
 * and the W3C trace context (`traceparent`) of its accept, under which its jobs, its provider's
 * hand-over, its receipts and its webhook deliveries are traced (null when traces are off).
 * Nullable, no default: messages accepted before keep nulls, and neither store rewrites the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('request_id', 'text').execute();
  await db.schema.alterTable('messages').addColumn('trace_context', 'text').execute();
}
