import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type HeraldDatabase } from './database.js';
import type { TransactionRunner } from './sqlite-transactions.js';

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

  /**
   * Writes `n` while the other connection holds the write lock for `holdMs`: in a Kysely
   * transaction, in one of the store's (sqlite-transactions.ts), or as a statement of its own
   * (autocommit).
   */
  async function writeWhileLocked(n: number, holdMs: number, how: 'transaction' | 'store transaction' | 'statement' = 'transaction') {
    other.exec('begin immediate');
    other.exec('insert into t (n) values (0)');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    setTimeout(() => other.exec('commit'), holdMs);
    const started = performance.now();
    if (how === 'transaction') {
      await database.db.transaction().execute(async (trx) => {
        await sql`insert into t (n) values (${n})`.execute(trx);
      });
    } else if (how === 'store transaction') {
      await storeTransaction(async (trx) => {
        await sql`insert into t (n) values (${n})`.execute(trx);
      });
    } else {
      await sql`insert into t (n) values (${n})`.execute(database.db);
    }
    clearInterval(ticker);
    return { ticks, waitedMs: performance.now() - started };
  }

  const storeTransaction: TransactionRunner = (work) => (database.transactions as TransactionRunner)(work);
  const busyTimeout = async () => (await sql<{ timeout: number }>`pragma busy_timeout`.execute(database.db)).rows[0]?.timeout;
  const written = async () => (await sql<{ n: number }>`select n from t where n > 0 order by n`.execute(database.db)).rows.map((r) => r.n);

  it('keeps the event loop running while a transaction waits, and writes once the lock comes free', async () => {
    const { ticks, waitedMs } = await writeWhileLocked(1, 300);
    expect(waitedMs).toBeGreaterThanOrEqual(250);
    // The timers of the event loop went on firing during the wait (SQLite's busy handler would
    // have slept on it: no tick at all until the lock came free).
    expect(ticks).toBeGreaterThan(5);
    expect(await written()).toEqual([1]);
    // SQLite itself never waits on this connection.
    expect(await busyTimeout()).toBe(0);
  });

  it('keeps the event loop running while a store transaction waits to begin, and writes once the lock comes free', async () => {
    const { ticks, waitedMs } = await writeWhileLocked(5, 300, 'store transaction');
    expect(waitedMs).toBeGreaterThanOrEqual(250);
    expect(ticks).toBeGreaterThan(5);
    expect(await written()).toEqual([5]);
  });

  it('keeps the event loop running while a statement outside a transaction waits, and writes it once', async () => {
    const { ticks, waitedMs } = await writeWhileLocked(7, 300, 'statement');
    expect(waitedMs).toBeGreaterThanOrEqual(250);
    expect(ticks).toBeGreaterThan(5);
    expect(await written()).toEqual([7]);
  });

  it('waits the same way on every contended write, not only the first', async () => {
    for (const round of [1, 2, 3]) {
      expect((await writeWhileLocked(round, 200, round === 2 ? 'statement' : 'transaction')).ticks, `round ${round}`).toBeGreaterThan(5);
      expect(await busyTimeout()).toBe(0);
    }
    expect(await written()).toEqual([1, 2, 3]);
  });

  it('gives up after five seconds with SQLITE_BUSY, having written nothing', async () => {
    other.exec('begin immediate');
    try {
      await expect(sql`insert into t (n) values (9)`.execute(database.db)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    } finally {
      other.exec('rollback');
    }
    expect(await written()).toEqual([]);
  }, 15_000);

  it('gives up on a store transaction after five seconds with SQLITE_BUSY, writing nothing, and frees the connection', async () => {
    other.exec('begin immediate');
    let ran = false;
    try {
      await expect(
        storeTransaction(async (trx) => {
          ran = true;
          await sql`insert into t (n) values (9)`.execute(trx);
        }),
      ).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    } finally {
      other.exec('rollback');
    }
    expect(ran).toBe(false);
    expect(await written()).toEqual([]);
    await storeTransaction(async (trx) => {
      await sql`insert into t (n) values (10)`.execute(trx);
    });
    expect(await written()).toEqual([10]);
  }, 15_000);
});
