/**
 * Splits rows for multi-row INSERTs: both SQLite (32,766) and PostgreSQL (65,535) cap the number of
 * bound parameters in one statement, and a message row has about 25 columns.
 */
export function* chunks<T>(rows: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
}
