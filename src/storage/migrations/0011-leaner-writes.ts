import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../database.js';

/**
 * Fewer B-trees written per message. A send wrote about twenty (its message row and eight indexes,
 * its history row, its job, its ledger row, its account), and a commit writes every page it
 * touched; every B-tree dropped here is a page fewer per commit and an insertion fewer per row.
 *
 * - Three indexes served no query: `messages_batch` (no endpoint lists by batch), `credit_ledger_message`
 *   (the ledger is read by account) and `events_account_created` (events are read by id).
 * - Two hold mostly NULL keys that no query looks up: a message has no provider id until a provider
 *   accepts it, and receipts and webhook deliveries are jobs of no message. They now index the
 *   rows that have one (`x = ?` implies `x is not null`, so both dialects still use them).
 * - On SQLite, the tables whose rows are small and found by their key alone are stored in that key
 *   (WITHOUT ROWID): jobs, status history, ledger entries and the sandbox's submissions. A table
 *   with a text primary key is otherwise two B-trees, the rows by rowid and the key beside them.
 *   SQLite cannot change that in place, so each is copied into its new form, once: a store of a
 *   million messages (three million history rows, two million ledger entries) took 10 s.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_batch').execute();
  await db.schema.dropIndex('credit_ledger_message').execute();
  await db.schema.dropIndex('events_account_created').execute();

  await db.schema.dropIndex('messages_provider_id').execute();
  await db.schema
    .createIndex('messages_provider_id')
    .on('messages')
    .columns(['channel', 'provider_message_id'])
    .where('provider_message_id', 'is not', null)
    .execute();

  if (isPostgres(db)) {
    await db.schema.dropIndex('jobs_message').execute();
    await createJobsMessageIndex(db);
    return;
  }

  await rebuildWithoutRowid(
    db,
    'jobs',
    sql`"id" text primary key, "kind" text not null, "message_id" text, "payload" text, "run_at" bigint not null,
        "attempts" integer default 0 not null, "locked_by" text, "locked_until" bigint, "last_error" text,
        "created_at" bigint not null, "priority" integer default 1 not null`,
    ['id', 'kind', 'message_id', 'payload', 'run_at', 'attempts', 'locked_by', 'locked_until', 'last_error', 'created_at', 'priority'],
  );
  await createJobsMessageIndex(db);
  await db.schema.createIndex('jobs_lease_end').on('jobs').column('locked_until').where('locked_until', 'is not', null).execute();
  await db.schema
    .createIndex('jobs_free')
    .on('jobs')
    .columns(['priority', 'run_at', 'id'])
    .where(sql.ref('locked_until'), 'is', null)
    .execute();

  await rebuildWithoutRowid(
    db,
    'message_status_history',
    sql`"message_id" text not null references "messages" ("id"), "sequence" integer not null, "status" text not null,
        "detail" text, "occurred_at" bigint not null,
        constraint "message_status_history_pk" primary key ("message_id", "sequence")`,
    ['message_id', 'sequence', 'status', 'detail', 'occurred_at'],
  );

  await rebuildWithoutRowid(
    db,
    'credit_ledger',
    sql`"id" text primary key, "account_id" text not null references "accounts" ("id"), "kind" text not null,
        "credits_delta" bigint not null, "reserved_delta" bigint not null, "message_id" text, "note" text,
        "created_at" bigint not null`,
    ['id', 'account_id', 'kind', 'credits_delta', 'reserved_delta', 'message_id', 'note', 'created_at'],
  );
  await db.schema.createIndex('credit_ledger_account').on('credit_ledger').columns(['account_id', 'created_at']).execute();

  await rebuildWithoutRowid(
    db,
    'sandbox_submissions',
    sql`"message_id" text primary key, "channel" text not null, "recipient" text not null, "attempts" integer not null,
        "provider_message_id" text, "accepted_at" bigint, "duplicates" integer default 0 not null, "created_at" bigint not null`,
    ['message_id', 'channel', 'recipient', 'attempts', 'provider_message_id', 'accepted_at', 'duplicates', 'created_at'],
  );
}

function createJobsMessageIndex(db: Kysely<unknown>): Promise<void> {
  return db.schema.createIndex('jobs_message').on('jobs').column('message_id').where('message_id', 'is not', null).execute();
}

/** Copies a SQLite table into a WITHOUT ROWID table of the same columns and name (its indexes go with the old one). */
async function rebuildWithoutRowid(
  db: Kysely<unknown>,
  table: string,
  definition: ReturnType<typeof sql>,
  columns: readonly string[],
): Promise<void> {
  const rebuilt = `${table}_rebuilt`;
  const list = sql.join(columns.map((column) => sql.ref(column)));
  await sql`create table ${sql.table(rebuilt)} (${definition}) without rowid`.execute(db);
  await sql`insert into ${sql.table(rebuilt)} (${list}) select ${list} from ${sql.table(table)}`.execute(db);
  await sql`drop table ${sql.table(table)}`.execute(db);
  await sql`alter table ${sql.table(rebuilt)} rename to ${sql.table(table)}`.execute(db);
}
