import { CompiledQuery, type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDialect, indexesOf, migratedStore, type TestDatabaseLocation } from '../../../test/databases.js';
import type { HeraldDatabase } from '../database.js';
import { Migrator } from '../migrator.js';
import { MIGRATIONS } from './index.js';

const T0 = Date.UTC(2026, 10, 22);
const BEFORE = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0011'));
const THROUGH = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= '0011-leaner-writes'));
const REBUILT = ['jobs', 'message_status_history', 'credit_ledger', 'sandbox_submissions'] as const;

/**
 * What SQLite says of a table's columns (name, type, NOT NULL, default, place in the key), its
 * references and its indexes' definitions: what a rebuild must keep.
 */
async function sqliteShapeOf(db: Kysely<unknown>, table: string) {
  const columns = await sql<
    Record<string, unknown>
  >`select name, type, "notnull", dflt_value, pk from pragma_table_xinfo(${table})`.execute(db);
  const references = await sql<Record<string, unknown>>`
    select "table", "from", "to", on_update, on_delete from pragma_foreign_key_list(${table})`.execute(db);
  const indexes = await sql<{ name: string; definition: string | null }>`
    select name, sql as definition from sqlite_schema where type = 'index' and tbl_name = ${table} and sql is not null order by name`.execute(
    db,
  );
  return { columns: columns.rows, references: references.rows, indexes: indexes.rows };
}

/** Every row of a table, in its key's order, as plain values (PostgreSQL's bigints come back as strings). */
async function rowsOf(db: Kysely<unknown>, table: string, orderBy: string): Promise<unknown[]> {
  const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by ${sql.raw(orderBy)}`.execute(db);
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value === null ? null : String(value)])));
}

describeEachDialect('migration 0011: fewer B-trees written per message', (dialect) => {
  let location: TestDatabaseLocation;
  let database: HeraldDatabase;
  let db: Kysely<unknown>;

  beforeEach(async () => {
    ({ location, database, db } = await migratedStore(dialect, BEFORE, T0));
  });

  afterEach(async () => {
    await database.close();
    await location.drop();
  });

  const fill = async () => {
    await sql`insert into accounts (id, name, email, plan, scopes, credits_micros, reserved_micros, created_at)
              values ('acc_1', 'Acme', 'ops@acme.test', 'developer', 'sms:send', 1000000, 20000, ${T0})`.execute(db);
    for (const [id, status, provider] of [
      ['msg_sms_01', 'delivered', 'sbx_1'],
      ['msg_sms_02', 'queued', null],
    ] as const) {
      await sql`insert into messages (id, account_id, channel, recipient, body, status, segments, cost_micros, charge_state,
                                      created_at, updated_at, provider_message_id, batch_id)
                values (${id}, 'acc_1', 'sms', '+14155550100', 'hi', ${status}, 1, 10000, 'held', ${T0}, ${T0}, ${provider}, 'bat_1')`.execute(
        db,
      );
    }
    await sql`insert into message_status_history (message_id, sequence, status, detail, occurred_at)
              values ('msg_sms_01', 1, 'queued', null, ${T0}), ('msg_sms_01', 2, 'sent', 'accepted by sandbox', ${T0 + 1}),
                     ('msg_sms_01', 3, 'delivered', null, ${T0 + 2}), ('msg_sms_02', 1, 'queued', null, ${T0})`.execute(db);
    await sql`insert into credit_ledger (id, account_id, kind, credits_delta, reserved_delta, message_id, note, created_at)
              values ('led_1', 'acc_1', 'top_up', 1000000, 0, null, 'first', ${T0}),
                     ('led_2', 'acc_1', 'hold', 0, 10000, 'msg_sms_02', null, ${T0 + 1})`.execute(db);
    await sql`insert into jobs (id, kind, message_id, payload, run_at, attempts, locked_by, locked_until, last_error, created_at, priority)
              values ('job_1', 'deliver_message', 'msg_sms_02', null, ${T0}, 0, null, null, null, ${T0}, 1),
                     ('job_2', 'provider_receipt', null, '{"status":"delivered"}', ${T0}, 2, 'w1', ${T0 + 60_000}, 'boom', ${T0}, 0)`.execute(
      db,
    );
    await sql`insert into sandbox_submissions (message_id, channel, recipient, attempts, provider_message_id, accepted_at, duplicates, created_at)
              values ('msg_sms_01', 'sms', '+14155550100', 1, 'sbx_1', ${T0}, 2, ${T0})`.execute(db);
  };
  const snapshot = async () => ({
    jobs: await rowsOf(db, 'jobs', 'id'),
    history: await rowsOf(db, 'message_status_history', 'message_id, sequence'),
    ledger: await rowsOf(db, 'credit_ledger', 'id'),
    sandbox: await rowsOf(db, 'sandbox_submissions', 'message_id'),
    messages: await rowsOf(db, 'messages', 'id'),
  });

  it('keeps every job, status history row, ledger entry and sandbox record of the store it upgrades', async () => {
    await fill();
    const before = await snapshot();
    expect(before.jobs).toHaveLength(2);
    expect(before.history).toHaveLength(4);

    expect(await new Migrator(db, dialect, THROUGH).migrate(T0)).toEqual(['0011-leaner-writes']);

    expect(await snapshot()).toEqual(before);
    if (dialect === 'sqlite') {
      const { rows } = await sql<{ name: string; definition: string }>`
        select name, sql as definition from sqlite_schema
        where type = 'table' and name in ('jobs', 'message_status_history', 'credit_ledger', 'sandbox_submissions')`.execute(db);
      expect(rows.map((row) => row.name).sort()).toEqual(['credit_ledger', 'jobs', 'message_status_history', 'sandbox_submissions']);
      for (const row of rows) expect(row.definition, row.name).toMatch(/without rowid$/i);
    }
  });

  // PostgreSQL's tables are not rebuilt; only SQLite has a table shape to compare.
  if (dialect === 'sqlite') {
    it('rebuilds each table with the same columns, defaults, references and indexes', async () => {
      const before = await Promise.all(REBUILT.map((table) => sqliteShapeOf(db, table)));
      await new Migrator(db, dialect, THROUGH).migrate(T0);
      const after = await Promise.all(REBUILT.map((table) => sqliteShapeOf(db, table)));

      // The one difference SQLite makes: a WITHOUT ROWID table's key columns are NOT NULL.
      const keyedNotNull = before.map((shape) => ({
        ...shape,
        columns: shape.columns.map((column) => (Number(column.pk) > 0 ? { ...column, notnull: 1 } : column)),
        // jobs_message now leaves out the jobs of no message, and credit_ledger_message is gone (both checked below).
        indexes: shape.indexes
          .filter((index) => index.name !== 'credit_ledger_message')
          .map((index) =>
            index.name === 'jobs_message' ? { ...index, definition: `${index.definition} where "message_id" is not null` } : index,
          ),
      }));
      expect(after).toEqual(keyedNotNull);
      expect(after.map((shape) => shape.columns.length)).toEqual([11, 5, 8, 8]);
    });
  }

  it('keeps the rebuilt tables’ keys, defaults and references', async () => {
    await fill();
    await new Migrator(db, dialect, THROUGH).migrate(T0);

    await expect(
      sql`insert into jobs (id, kind, run_at, created_at) values ('job_1', 'deliver_message', ${T0}, ${T0})`.execute(db),
    ).rejects.toThrow(/unique|primary key/i);
    await sql`insert into jobs (id, kind, run_at, created_at) values ('job_3', 'deliver_message', ${T0}, ${T0})`.execute(db);
    const { rows } = await sql<{ attempts: number; priority: number }>`select attempts, priority from jobs where id = 'job_3'`.execute(db);
    expect(rows.map((row) => [Number(row.attempts), Number(row.priority)])).toEqual([[0, 1]]);

    await expect(
      sql`insert into message_status_history (message_id, sequence, status, occurred_at) values ('msg_none', 1, 'queued', ${T0})`.execute(
        db,
      ),
    ).rejects.toThrow(/foreign key/i);
    await expect(
      sql`insert into message_status_history (message_id, sequence, status, occurred_at) values ('msg_sms_01', 3, 'read', ${T0})`.execute(
        db,
      ),
    ).rejects.toThrow(/unique|primary key/i);
    await expect(
      sql`insert into credit_ledger (id, account_id, kind, credits_delta, reserved_delta, created_at)
          values ('led_3', 'acc_none', 'top_up', 1, 0, ${T0})`.execute(db),
    ).rejects.toThrow(/foreign key/i);
  });

  it('drops the indexes no query reads, and indexes provider ids and job messages only where there is one', async () => {
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    const indexes = await indexesOf(database);

    for (const gone of ['messages_batch', 'credit_ledger_message', 'events_account_created']) expect(indexes.has(gone), gone).toBe(false);
    expect(indexes.get('messages_provider_id')).toMatch(/where .*provider_message_id.* is not null/i);
    expect(indexes.get('jobs_message')).toMatch(/where .*message_id.* is not null/i);
    for (const kept of ['jobs_free', 'jobs_lease_end', 'credit_ledger_account', 'messages_account_created', 'messages_recipient_channel']) {
      expect(indexes.has(kept), kept).toBe(true);
    }
  });

  it('still finds a message by its provider id, and a message’s jobs, through those indexes', async () => {
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    const explain = dialect === 'sqlite' ? 'explain query plan ' : 'explain (costs off) ';
    const planOf = (query: string, parameters: unknown[]) =>
      db.transaction().execute(async (trx) => {
        // An empty table would let PostgreSQL prefer a sequential scan; the plan is what is tested.
        if (dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
        const { rows } = await trx.executeQuery(CompiledQuery.raw(explain + query, parameters));
        return JSON.stringify(rows);
      });
    const p = dialect === 'sqlite' ? ['?', '?', '?'] : ['$1', '$2', '$3'];

    expect(
      await planOf(`select id from messages where channel = ${p[0]} and provider_message_id in (${p[1]}, ${p[2]})`, ['sms', 'a', 'b']),
    ).toContain('messages_provider_id');
    expect(await planOf(`delete from jobs where message_id = ${p[0]}`, ['msg_sms_01'])).toContain('jobs_message');
  });
});
