import type { Kysely } from 'kysely';

/**
 * The route that carried a message, for a channel with several (SMS over several SMSCs,
 * docs/routing.md): written with the provider's acceptance, in the same update as its id.
 * Nullable, no default: earlier messages, and those of channels without routes, keep null, and
 * neither store rewrites the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('route', 'text').execute();
}
