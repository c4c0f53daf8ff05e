import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type HeraldDatabase } from './database.js';

/** The files this process holds open that SQLite made for temporary data (`etilqs_…`, unlinked once open). */
function openTemporaryFiles(): string[] {
  const names: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.includes('etilqs_')) names.push(target);
    } catch {
      // closed meanwhile
    }
  }
  return names;
}

describe('the SQLite connection', () => {
  let dir: string;
  let database: HeraldDatabase;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'herald-connection-'));
    database = createDatabase({ url: `sqlite:${join(dir, 'herald.db')}` });
  });
  afterEach(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const pragma = async (name: string) =>
    Object.values((await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as Record<string, unknown>)[0];

  it('commits durably: a write-ahead log flushed at every commit, foreign keys enforced', async () => {
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('synchronous')).toBe(2); // FULL
    expect(await pragma('foreign_keys')).toBe(1);
  });

  // Open files are read from /proc: the test is declared where there is one (CI runs on Linux).
  if (process.platform === 'linux') {
    it('keeps the statement journals of savepoints and multi-row writes in memory, not in temporary files', async () => {
      await sql`create table t (id integer primary key, body text not null unique)`.execute(database.db);
      const rows = (from: number) => sql.join(Array.from({ length: 400 }, (_, i) => sql`(${from + i}, ${`${from + i}`.padEnd(500, 'x')})`));
      let during: string[] = [];
      await database.db.transaction().execute(async (tx) => {
        await sql`insert into t (id, body) values ${rows(0)}`.execute(tx);
        await sql`savepoint unit`.execute(tx);
        // Moves every page written so far: SQLite journals each for the savepoint (some 200 KB).
        await sql`update t set body = body || 'y'`.execute(tx);
        await sql`insert into t (id, body) values ${rows(400)}`.execute(tx);
        during = openTemporaryFiles();
        await sql`release unit`.execute(tx);
      });
      expect(during).toEqual([]);
      expect(await pragma('temp_store')).toBe(2); // MEMORY
      expect((await sql<{ n: number }>`select count(*) as n from t`.execute(database.db)).rows[0]?.n).toBe(800);
    });
  }
});
