import type { Kysely } from 'kysely';
import { isPostgres } from '../database.js';

/** The four indexes that serve an account's messages newest first, and the columns each orders by. */
export const LIST_INDEXES = {
  messages_account_created: ['account_id'],
  messages_account_channel_created: ['account_id', 'channel'],
  messages_account_status_created: ['account_id', 'status'],
  messages_account_channel_status_created: ['account_id', 'channel', 'status'],
} as const;

/**
 * On SQLite, the four list indexes of `messages` ascend in (created_at, id) instead of descending.
 *
 * Descending, each new message's entry went in at the front of its account's range, always on the
 * same leaf. When that leaf overflowed, SQLite's B-tree spread the cells over it and its two
 * neighbours (and rewrote their parent) rather than opening a fresh page, so the front three
 * leaves stayed nearly full and the next entry overflowed them again: each of the four indexes
 * wrote its four front pages in almost every commit, 17 of the 37 pages a commit of six sends
 * wrote to the log (counted from the log's frames at 4,400 sends/s). Ascending, a new entry goes
 * at the end of its account's range, the leaves behind it stay as they are, and each index writes
 * 2.5 pages a commit. A list walks the index backwards for newest first, as fast as forwards.
 *
 * PostgreSQL splits a full page in two and writes the new entry to one half; the order of its
 * indexes makes no such difference, and they are left as they are (rebuilding them would lock
 * `messages` against writes for as long as it took).
 *
 * Each index is dropped and built again in the migration's transaction: on a store of a million
 * messages, a few seconds each, holding SQLite's write lock meanwhile.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  for (const [name, columns] of Object.entries(LIST_INDEXES)) {
    await db.schema.dropIndex(name).execute();
    await db.schema
      .createIndex(name)
      .on('messages')
      .columns([...columns, 'created_at', 'id'])
      .execute();
  }
}
