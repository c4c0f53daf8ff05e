import type SqliteDatabase from 'better-sqlite3';
import { BoundedMap } from '../core/bounded-map.js';

/**
 * better-sqlite3 with its prepared statements kept: Kysely prepares every query it runs, and
 * preparing costs as much as running a short one. Statements are reused by SQL text (about the
 * least recently used out past `max`: `BoundedMap.touch`); one still busy (a stream being read) is
 * never handed out twice. Long statements (multi-row writes of hundreds of rows) are not kept:
 * each holds megabytes of compiled program, and preparing one is small beside the rows it writes.
 * Pragmas are not kept either: a setting takes effect while its statement is compiled, and SQLite
 * compiles a pragma statement again each time it runs, so a kept copy saves nothing.
 *
 * Statements that return rows return them as objects made here (`withObjectRows`).
 */
export function withStatementCache(database: SqliteDatabase.Database, max = 500, maxLength = 16_384): SqliteDatabase.Database {
  const statements = new BoundedMap<string, SqliteDatabase.Statement>(max);
  const prepare = (source: string): SqliteDatabase.Statement => {
    const cached = statements.get(source);
    if (cached && !cached.busy) {
      statements.touch(source);
      return cached;
    }
    const statement = withObjectRows(database.prepare(source));
    if (!cached && source.length <= maxLength && !/^\s*pragma\b/i.test(source)) {
      statements.set(source, statement);
    }
    return statement;
  };
  return new Proxy(database, {
    get(target, property, receiver) {
      if (property === 'prepare') return prepare;
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

type Row = Record<string, unknown>;
type RowMaker = (values: readonly unknown[]) => Row;

/** Row makers by column list (names joined by NUL): one per shape of result. */
const makers = new BoundedMap<string, RowMaker>(2_000);

/**
 * A function that turns a row's values, in column order, into an object with the columns as keys.
 * It is an object literal written for the column list, so every row of that shape gets the same
 * hidden class with its fields in the object itself. A repeated name keeps its last value, as
 * better-sqlite3's own rows do. A column named `__proto__` would set the prototype in a literal, so
 * such a row is made by defining each field instead.
 */
function rowMaker(names: readonly string[]): RowMaker {
  const key = names.join('\u0000');
  let make = makers.get(key);
  if (!make) {
    if (names.includes('__proto__')) {
      make = (values) => {
        const row: Row = {};
        for (let i = 0; i < names.length; i++)
          Object.defineProperty(row, names[i] as string, { value: values[i], enumerable: true, writable: true, configurable: true });
        return row;
      };
    } else {
      // Each name is written as a JSON string, which is also a JavaScript string literal.
      make = new Function('v', `return {${names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')}};`) as RowMaker;
    }
    makers.set(key, make);
  }
  return make;
}

/** Modes that would change how a kept statement's rows come back for everyone who uses it next. */
const MODES = new Set<string | symbol>(['raw', 'pluck', 'expand']);

/**
 * A statement that returns rows, reading them from better-sqlite3 as arrays (`raw`) and making the
 * objects here. better-sqlite3 builds each row object property by property in C++, which leaves it
 * a dictionary: for a 25-column `messages` row about 11–17 µs, against 5 µs for the values alone
 * and 0.25 µs to make the object from them (and every later read of a field is then a dictionary
 * lookup).
 *
 * Only statements that name every column they return: their names and order are fixed by their
 * text, whatever a migration (even another process's, while this one runs) does to a table, so the
 * names read once stay true. A `*` anywhere in the text (`select *`, `returning *`, `count(*)`)
 * leaves the statement as better-sqlite3 makes it; the hot reads name their columns
 * (stores/messages.store.ts). Reading the names again on every call would cost more than it saves
 * (75 µs for 25 columns). Switching a kept statement's mode (`raw`, `pluck`, `expand`) is refused:
 * it would change the rows of the next caller.
 */
export function withObjectRows(statement: SqliteDatabase.Statement): SqliteDatabase.Statement {
  if (!statement.reader || statement.source.includes('*')) return statement;
  statement.raw(true);
  let width = -1;
  let make: RowMaker = () => ({});
  const toObject = (values: readonly unknown[]): Row => {
    if (values.length !== width) {
      const names = statement.columns().map((column) => column.name);
      width = names.length;
      make = rowMaker(names);
    }
    return make(values);
  };
  const all = (...parameters: unknown[]): Row[] => {
    const rows = statement.all(...parameters) as unknown[][];
    const objects = new Array<Row>(rows.length);
    for (let i = 0; i < rows.length; i++) objects[i] = toObject(rows[i] as unknown[]);
    return objects;
  };
  const get = (...parameters: unknown[]): Row | undefined => {
    const row = statement.get(...parameters) as unknown[] | undefined;
    return row === undefined ? undefined : toObject(row);
  };
  function* iterate(...parameters: unknown[]): IterableIterator<Row> {
    for (const row of statement.iterate(...parameters) as IterableIterator<unknown[]>) yield toObject(row);
  }
  return new Proxy(statement, {
    get(target, property) {
      if (property === 'all') return all;
      if (property === 'get') return get;
      if (property === 'iterate') return iterate;
      if (MODES.has(property)) {
        return () => {
          throw new Error(`a kept statement's rows are made as objects; prepare one of your own to use ${String(property)}()`);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
