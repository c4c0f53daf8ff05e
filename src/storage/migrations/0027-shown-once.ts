import type { Kysely } from 'kysely';

/**
 * What a dashboard form made and must show once (a new client's secret, an invitation link), held
 * between the form's post and the page its redirect opens (core/users/shown-once.ts): sealed with a
 * key only the session's cookie gives, bound to that session by the hash the session table keys on,
 * gone when read or after a few minutes. In the store, not in a process's memory, so the redirect
 * may land on another node.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shown_once')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_hash', 'text', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  // Notes never read are removed by time (keepNote), found by this index.
  await db.schema.createIndex('shown_once_expiry').on('shown_once').column('expires_at').execute();
}
