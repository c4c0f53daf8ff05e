import { CompiledQuery, type DialectAdapter, type Insertable } from 'kysely';
import type { Executor } from '../database.js';
import type { Database } from '../schema.js';

/** SQL text of multi-row inserts by shape (table, columns, row count), per dialect. */
const compiled = new WeakMap<DialectAdapter, Map<string, string>>();
/** Shapes kept per dialect, and the most rows a kept shape has: building the SQL of a longer insert is small beside its rows. */
const MAX_SHAPES = 512;
const MAX_ROWS_KEPT = 64;

/**
 * `insertInto(table).values(rows)`, with the SQL built once per shape instead of on every call:
 * the hot inserts of a send (message, history, job, ledger) then cost their execution and little
 * else (the statement itself is prepared once too, by the store's statement cache). Every row must
 * have the same columns in the same order, which is how the stores build them.
 */
export async function insertRows<T extends keyof Database & string>(
  db: Executor,
  table: T,
  rows: ReadonlyArray<Insertable<Database[T]>>,
): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const parameters: unknown[] = [];
  for (const row of rows) {
    const values = row as Record<string, unknown>;
    for (const column of columns) parameters.push(values[column]);
  }
  const adapter = db.getExecutor().adapter;
  let shapes = compiled.get(adapter);
  if (!shapes) {
    shapes = new Map();
    compiled.set(adapter, shapes);
  }
  const key = `${table}|${rows.length}|${columns.join(',')}`;
  let sql = shapes.get(key);
  if (sql === undefined) {
    // The rows were typed against the table by the caller; Kysely's generic signature cannot follow.
    const insert = db.insertInto(table) as unknown as { values(rows: unknown): { compile(): CompiledQuery } };
    const query = insert.values(rows).compile();
    // The SQL is reused with parameters taken in this order: it must be Kysely's order too.
    const same = query.parameters.length === parameters.length && query.parameters.every((value, i) => Object.is(value, parameters[i]));
    if (!same) throw new Error(`insertRows: the rows of ${table} differ in their columns`);
    sql = query.sql;
    if (shapes.size < MAX_SHAPES && rows.length <= MAX_ROWS_KEPT) shapes.set(key, sql);
  }
  await db.executeQuery(CompiledQuery.raw(sql, parameters));
}
