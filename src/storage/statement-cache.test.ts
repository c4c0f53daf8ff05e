import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './sqlite-statements.js';

describe('the SQLite statement cache', () => {
  const open = (max?: number) => {
    const raw = new SqliteDatabase(':memory:');
    raw.exec('create table t (n integer)');
    return { raw, db: withStatementCache(raw, max) };
  };

  it('prepares a statement once and hands it out again for the same SQL', () => {
    const { db } = open();
    const insert = db.prepare('insert into t (n) values (?)');
    expect(db.prepare('insert into t (n) values (?)')).toBe(insert);
    insert.run(1);
    db.prepare('insert into t (n) values (?)').run(2);
    expect(db.prepare('select count(*) as c from t').get()).toEqual({ c: 2 });
  });

  it('never hands out a statement that is still being iterated', () => {
    const { db } = open();
    for (let n = 0; n < 3; n++) db.prepare('insert into t (n) values (?)').run(n);
    const seen: number[] = [];
    for (const row of db.prepare('select n from t order by n').iterate() as Iterable<{ n: number }>) {
      // The same SQL while the first is busy: a fresh statement, or better-sqlite3 would throw.
      seen.push(row.n, (db.prepare('select n from t order by n').all() as unknown[]).length);
    }
    expect(seen).toEqual([0, 3, 1, 3, 2, 3]);
  });

  it('does not keep a long statement (a multi-row write of hundreds of rows), but runs it', () => {
    const { db } = open();
    const long = `insert into t (n) values ${Array.from({ length: 3_000 }, (_, i) => `(${i})`).join(', ')}`;
    expect(long.length).toBeGreaterThan(16_384);
    const first = db.prepare(long);
    first.run();
    expect(db.prepare(long)).not.toBe(first);
    expect(db.prepare('select count(*) as c from t').get()).toEqual({ c: 3_000 });
  });

  it('keeps at most max statements, the least recently used going first', () => {
    const { db } = open(2);
    const one = db.prepare('select 1');
    const two = db.prepare('select 2');
    db.prepare('select 1');
    db.prepare('select 3'); // full: 'select 1' was used since, 'select 2' goes
    expect(db.prepare('select 1')).toBe(one);
    expect(db.prepare('select 2')).not.toBe(two);
  });

  it('passes everything else through to the database', () => {
    const { raw, db } = open();
    expect(db.pragma('journal_mode', { simple: true })).toBe('memory');
    db.close();
    expect(raw.open).toBe(false);
  });

  describe('rows made here from their values, as better-sqlite3 would make them', () => {
    const both = () => {
      const { raw, db } = open();
      raw.exec(
        "create table m (id text primary key, body text, n integer, at real, blob blob); insert into m values ('a', 'hi', 1, 1.5, x'00ff'), ('b', null, 2, null, null)",
      );
      return { raw, db };
    };
    const NAMED = 'select id, body, n, at, blob from m order by id';

    it('gives all, get and iterate the same rows as better-sqlite3, keys in column order', () => {
      const { raw, db } = both();
      expect(db.prepare(NAMED).all()).toEqual(raw.prepare(NAMED).all());
      expect(Object.keys(db.prepare(NAMED).get() as object)).toEqual(['id', 'body', 'n', 'at', 'blob']);
      expect(db.prepare(NAMED).get()).toEqual(raw.prepare(NAMED).get());
      expect([...(db.prepare(NAMED).iterate() as Iterable<unknown>)]).toEqual(raw.prepare(NAMED).all());
      expect(db.prepare("select id from m where id = 'none'").get()).toBeUndefined();
      expect(Object.getPrototypeOf(db.prepare(NAMED).get())).toBe(Object.prototype);
    });

    it('keeps the last value of a repeated name, and a column named __proto__ as a field, not the prototype', () => {
      const { raw, db } = both();
      const repeated = "select id, body as id from m where id = 'a'";
      expect(db.prepare(repeated).get()).toEqual(raw.prepare(repeated).get());
      expect(db.prepare(repeated).get()).toEqual({ id: 'hi' });
      const row = db.prepare('select id as "__proto__", n from m where id = \'a\'').get() as Record<string, unknown>;
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('a');
      expect(row.n).toBe(1);
    });

    it('keeps each value under its own name when another process rebuilds the table with its columns in another order', () => {
      const { raw, db } = both();
      const named = db.prepare("select id, body, n from m where id = 'a'");
      const star = db.prepare("select * from m where id = 'a'");
      expect(named.get()).toEqual({ id: 'a', body: 'hi', n: 1 });
      expect(star.get()).toEqual({ id: 'a', body: 'hi', n: 1, at: 1.5, blob: Buffer.from([0, 255]) });
      // What a table-rebuilding migration does (SQLite prepares kept statements again by itself).
      raw.exec(`create table m2 (n integer, body text, blob blob, at real, id text primary key);
                insert into m2 (id, body, n, at, blob) select id, body, n, at, blob from m;
                drop table m; alter table m2 rename to m`);
      expect(db.prepare("select id, body, n from m where id = 'a'")).toBe(named);
      expect(named.get()).toEqual({ id: 'a', body: 'hi', n: 1 });
      // A `*` statement is better-sqlite3's own, which reads the new order itself.
      expect(star.get()).toEqual({ n: 1, body: 'hi', blob: Buffer.from([0, 255]), at: 1.5, id: 'a' });
    });

    it('refuses to switch a kept statement to raw, pluck or expand, which would change the next caller’s rows', () => {
      const { db } = both();
      const named = db.prepare(NAMED);
      expect(() => named.pluck()).toThrow(/prepare one of your own/);
      expect(() => named.raw()).toThrow(/prepare one of your own/);
      expect(() => named.expand()).toThrow(/prepare one of your own/);
      expect(db.prepare(NAMED).get()).toEqual({ id: 'a', body: 'hi', n: 1, at: 1.5, blob: Buffer.from([0, 255]) });
    });

    it('leaves writes as they were: run answers with the changes', () => {
      const { db } = both();
      expect(db.prepare("update m set n = n + 1 where id in ('a', 'b')").run().changes).toBe(2);
      expect(db.prepare("insert into m (id) values ('c') returning id, n").all()).toEqual([{ id: 'c', n: null }]);
    });
  });
});
