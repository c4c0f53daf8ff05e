import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type HeraldDatabase } from './database.js';

describe('waiting for the SQLite write lock held by another process', () => {
  let dir: string;
  let database: HeraldDatabase;
  /** Another process (here: another connection) on the same file. */
  let other: Database.Database;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'herald-lock-'));
    const path = join(dir, 'herald.db');
    database = createDatabase({ url: `sqlite:${path}` });
    other = new Database(path, { timeout: 5_000 });
    await sql`create table t (n integer)`.execute(database.db);
  });
  afterEach(async () => {
    other.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Writes `n` in a transaction while the other connection holds the write lock for `holdMs`. */
  async function writeWhileLocked(n: number, holdMs: number): Promise<{ ticks: number; waitedMs: number }> {
    other.exec('begin immediate');
    other.exec('insert into t (n) values (0)');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    setTimeout(() => other.exec('commit'), holdMs);
    const started = performance.now();
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into t (n) values (${n})`.execute(trx);
    });
    clearInterval(ticker);
    return { ticks, waitedMs: performance.now() - started };
  }

  const busyTimeout = async () => (await sql<{ timeout: number }>`pragma busy_timeout`.execute(database.db)).rows[0]?.timeout;
  const written = async () => (await sql<{ n: number }>`select n from t where n > 0 order by n`.execute(database.db)).rows.map((r) => r.n);

  it('keeps the event loop running while it waits, and writes once the lock comes free', async () => {
    const { ticks, waitedMs } = await writeWhileLocked(1, 300);
    expect(waitedMs).toBeGreaterThanOrEqual(250);
    // The timers of the event loop went on firing during the wait (SQLite's busy handler would
    // have slept on it: no tick at all until the lock came free).
    expect(ticks).toBeGreaterThan(5);
    expect(await written()).toEqual([1]);
    // Statements outside a transaction still wait under busy_timeout.
    expect(await busyTimeout()).toBe(5_000);
  });

  it('waits the same way on every contended transaction, not only the first, and always restores busy_timeout', async () => {
    for (const round of [1, 2, 3]) {
      // Had busy_timeout stayed at 5 s after the first round, BEGIN would sleep in SQLite's busy
      // handler with the event loop stopped: no tick until the lock came free.
      expect((await writeWhileLocked(round, 200)).ticks, `round ${round}`).toBeGreaterThan(5);
      expect(await busyTimeout()).toBe(5_000);
    }
    expect(await written()).toEqual([1, 2, 3]);
  });
});
