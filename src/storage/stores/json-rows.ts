import { sql } from 'kysely';
import { type Executor, isPostgres } from '../database.js';

export type JsonColumnType = 'text' | 'bigint';

/**
 * Rows passed as one JSON parameter and read back as a table named `v`, for statements that need a
 * value per row (`UPDATE … FROM <rows> WHERE t.id = v.id`): `json_each` on SQLite,
 * `json_array_elements` on PostgreSQL, each row an array read by position. The statement's text
 * depends on the columns only, not on how many rows there are, so it is prepared once and kept; and
 * each row is found by its key, where a `CASE id WHEN … END` per column compared every row with
 * every branch.
 *
 * Strings go in well-formed: JSON.stringify writes a lone UTF-16 surrogate (a provider's error text
 * cut in the middle of an emoji) as `\ud83d`, which PostgreSQL refuses to read back as text.
 */
export function jsonRows(db: Executor, columns: Readonly<Record<string, JsonColumnType>>, rows: ReadonlyArray<Record<string, unknown>>) {
  const names = Object.keys(columns);
  const values = JSON.stringify(
    rows.map((row) => names.map((name) => row[name] ?? null)),
    (_key, value) => (typeof value === 'string' ? (value as string & { toWellFormed(): string }).toWellFormed() : value),
  );
  if (isPostgres(db)) {
    // Arrays rather than objects keep the parameter short; each field is read by its position.
    const fields = names.map((name, i) => sql`(r ->> ${sql.lit(i)})::${sql.raw(columns[name] as string)} as ${sql.ref(name)}`);
    return sql`(select ${sql.join(fields)} from json_array_elements(${values}::json) as r) as v`;
  }
  const fields = names.map((name, i) => sql`value ->> ${sql.lit(i)} as ${sql.ref(name)}`);
  return sql`(select ${sql.join(fields)} from json_each(${values})) as v`;
}
