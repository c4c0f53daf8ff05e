import { CompiledQuery, type Insertable } from 'kysely';
import { type Executor, isPostgres } from '../database.js';
import type { Database } from '../schema.js';

/** SQL text of multi-row inserts by shape (dialect, table, columns, row count). */
const compiled = new Map<string, string>();
/** Shapes kept, and the most rows a kept shape has: building the SQL of a longer insert is small beside its rows. */
const MAX_SHAPES = 512;
const MAX_ROWS_KEPT = 64;

/**
 * `insert into table (columns) values (…), (…)` with every row's values bound, the SQL written
 * here rather than built by Kysely's query builder, which parsed every value of every row on each
 * call: the hot inserts of a send (message, history, job, ledger) then cost their execution and
 * little else (the statement itself is prepared once too, by the store's statement cache, for
 * shapes up to 64 rows). Every row must have the same columns in the same order, none undefined,
 * which is how the stores build them; tables and columns are the schema's own names.
 */
export async function insertRows<T extends keyof Database & string>(
  db: Executor,
  table: T,
  rows: ReadonlyArray<Insertable<Database[T]>>,
  /** A statement the insert becomes part of (a data-modifying CTE on PostgreSQL), named by `key`. */
  around?: { key: string; sql(insert: string): string },
): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const parameters: unknown[] = [];
  for (const row of rows) {
    const values = row as Record<string, unknown>;
    if (Object.keys(values).length !== columns.length) throw new Error(`insertRows: the rows of ${table} differ in their columns`);
    for (const column of columns) {
      const value = values[column];
      if (value === undefined) throw new Error(`insertRows: the rows of ${table} differ in their columns (${column} is undefined)`);
      parameters.push(value);
    }
  }
  const postgres = isPostgres(db);
  const key = `${postgres ? 'pg' : 'sqlite'}|${table}|${rows.length}|${columns.join(',')}|${around?.key ?? ''}`;
  let text = compiled.get(key);
  if (text === undefined) {
    text = insertSql(table, columns, rows.length, postgres);
    if (around) text = around.sql(text);
    if (compiled.size < MAX_SHAPES && rows.length <= MAX_ROWS_KEPT) compiled.set(key, text);
  }
  await db.executeQuery(CompiledQuery.raw(text, parameters));
}

function insertSql(table: string, columns: readonly string[], rowCount: number, postgres: boolean): string {
  const tuples: string[] = [];
  let n = 0;
  for (let r = 0; r < rowCount; r++) {
    const marks = columns.map(() => (postgres ? `$${++n}` : '?'));
    tuples.push(`(${marks.join(', ')})`);
  }
  return `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${tuples.join(', ')}`;
}
