import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './database.js';

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
    const a = db.prepare('select 1');
    db.prepare('select 2');
    db.prepare('select 1');
    db.prepare('select 3');
    expect(db.prepare('select 1')).toBe(a);
    expect(db.prepare('select 3')).not.toBe(db.prepare('select 2'));
  });

  it('passes everything else through to the database', () => {
    const { raw, db } = open();
    expect(db.pragma('journal_mode', { simple: true })).toBe('memory');
    db.close();
    expect(raw.open).toBe(false);
  });
});
