import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDatabase } from './database.js';

describe('waiting for the SQLite write lock held by another process', () => {
  it('keeps the event loop running while it waits, and writes once the lock comes free', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-lock-'));
    const path = join(dir, 'herald.db');
    const database = createDatabase({ url: `sqlite:${path}` });
    const other = new Database(path, { timeout: 5_000 });
    try {
      await sql`create table t (n integer)`.execute(database.db);
      // Another process (here: another connection) holds the write lock for 300 ms.
      other.exec('begin immediate');
      other.exec('insert into t (n) values (1)');
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 10);
      setTimeout(() => other.exec('commit'), 300);
      const started = performance.now();
      await database.db.transaction().execute(async (trx) => {
        await sql`insert into t (n) values (2)`.execute(trx);
      });
      clearInterval(ticker);
      expect(performance.now() - started).toBeGreaterThanOrEqual(250);
      // The timers of the event loop went on firing during the wait (SQLite's busy handler would
      // have slept on it: no tick at all until the lock came free).
      expect(ticks).toBeGreaterThan(5);
      const rows = await sql<{ n: number }>`select n from t order by n`.execute(database.db);
      expect(rows.rows.map((r) => r.n)).toEqual([1, 2]);
      // Statements outside a transaction still wait under busy_timeout.
      expect((await sql<{ timeout: number }>`pragma busy_timeout`.execute(database.db)).rows[0]?.timeout).toBe(5_000);
    } finally {
      other.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('waits the same way on every contended transaction, not only the first, and always restores busy_timeout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-lock-'));
    const path = join(dir, 'herald.db');
    const database = createDatabase({ url: `sqlite:${path}` });
    const other = new Database(path, { timeout: 5_000 });
    try {
      await sql`create table t (n integer)`.execute(database.db);
      for (const round of [1, 2, 3]) {
        other.exec('begin immediate');
        let ticks = 0;
        const ticker = setInterval(() => ticks++, 10);
        setTimeout(() => other.exec('commit'), 200);
        await database.db.transaction().execute(async (trx) => {
          await sql`insert into t (n) values (${round})`.execute(trx);
        });
        clearInterval(ticker);
        // Had busy_timeout stayed at 5 s after the first round, BEGIN would sleep in SQLite's busy
        // handler with the event loop stopped: no tick until the lock came free.
        expect(ticks, `round ${round}`).toBeGreaterThan(5);
        expect((await sql<{ timeout: number }>`pragma busy_timeout`.execute(database.db)).rows[0]?.timeout).toBe(5_000);
      }
      const rows = await sql<{ n: number }>`select n from t order by n`.execute(database.db);
      expect(rows.rows.map((r) => r.n)).toEqual([1, 2, 3]);
    } finally {
      other.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
