import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDatabase } from './database.js';
import type { TransactionRunner } from './sqlite-transactions.js';
import { WriteTurns } from './sqlite-write-turns.js';

describe('turns at the SQLite write lock shared by the threads of a process', () => {
  it('serves callers in the order they asked, across WriteTurns sharing one buffer, without polling', async () => {
    const api = new WriteTurns();
    const dispatch = new WriteTurns(api.buffer);
    const order: string[] = [];
    await api.take();
    const waiting = [dispatch.take().then(() => order.push('dispatch')), api.take().then(() => order.push('api again'))];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]); // nobody passes while the turn is held
    api.give();
    await waiting[0];
    expect(order).toEqual(['dispatch']);
    dispatch.give();
    await waiting[1];
    expect(order).toEqual(['dispatch', 'api again']);
    api.give();
    // Free again: the next caller passes at once.
    await dispatch.take();
    dispatch.give();
  });
});

describe('a transaction SQLite ends by itself', () => {
  it('gives its turn back: the next write of the process goes through (INSERT OR ROLLBACK, as a full disk would end it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-turns-'));
    const database = createDatabase({ url: `sqlite:${join(dir, 'herald.db')}` });
    try {
      await sql`create table t (n integer primary key)`.execute(database.db);
      const run = database.transactions as TransactionRunner;
      await run(async (trx) => {
        await sql`insert into t (n) values (1)`.execute(trx);
      });
      await expect(
        run(async (trx) => {
          await sql`insert or rollback into t (n) values (1)`.execute(trx);
        }),
      ).rejects.toThrow(/UNIQUE/);
      const next = run(async (trx) => {
        await sql`insert into t (n) values (2)`.execute(trx);
      });
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('the next transaction never got its turn')), 2_000));
      await Promise.race([next, timeout]);
      const rows = await sql<{ n: number }>`select n from t order by n`.execute(database.db);
      expect(rows.rows.map((r) => r.n)).toEqual([1, 2]);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
