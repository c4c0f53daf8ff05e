import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../database.js';

/**
 * SQLite: a counter of changes to what accounts' requests are checked against (IP allow-lists,
 * clients, plans and suspensions), moved by triggers in the transaction of every such change,
 * whoever makes it (this process, another one, the CLI, a hand-written statement). A server keeps
 * each account's access in memory and reads the counter on every check instead of the access
 * (access-cache.ts): one row by its key, where the access is three indexed reads and a sort.
 * PostgreSQL needs none: its changes NOTIFY (notifications.ts). A later migration that rebuilds one
 * of these tables (create, copy, drop, rename) drops its triggers: access-sharing.test.ts lists them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`create table access_changes (id integer primary key check (id = 1), version integer not null)`.execute(db);
  await sql`insert into access_changes (id, version) values (1, 0)`.execute(db);
  const bump = 'update access_changes set version = version + 1 where id = 1;';
  const triggers: Array<[name: string, when: string]> = [
    ['ip_allow_rules_changed_insert', 'after insert on ip_allow_rules'],
    ['ip_allow_rules_changed_update', 'after update on ip_allow_rules'],
    ['ip_allow_rules_changed_delete', 'after delete on ip_allow_rules'],
    ['api_clients_changed_insert', 'after insert on api_clients'],
    ['api_clients_changed_update', 'after update of client_id, account_id, created_at on api_clients'],
    ['api_clients_changed_delete', 'after delete on api_clients'],
    // Not the balance columns: every send writes those. An insert too: INSERT OR REPLACE deletes
    // without firing delete triggers (unless recursive_triggers is on).
    ['accounts_access_changed_insert', 'after insert on accounts'],
    ['accounts_access_changed_update', 'after update of id, plan, suspended_at on accounts'],
    ['accounts_access_changed_delete', 'after delete on accounts'],
  ];
  for (const [name, when] of triggers) await sql.raw(`create trigger ${name} ${when} begin ${bump} end`).execute(db);
}
