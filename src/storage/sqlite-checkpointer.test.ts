import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { until } from '../../test/wait.js';
import { createDatabase } from './database.js';
import { startCheckpointer } from './sqlite-checkpointer.js';

const MB = 1024 * 1024;

/** Writes about 2 MiB in one transaction: it lands in the WAL, not yet in the database file. */
async function writeTwoMegabytes(database: ReturnType<typeof createDatabase>): Promise<void> {
  await sql`create table filler (data blob)`.execute(database.db);
  await database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < 64; i++) await sql`insert into filler (data) values (randomblob(32768))`.execute(trx);
  });
}

describe('WAL checkpoints on a background thread (SQLite)', () => {
  it("copies committed pages into the database file without the server's connection doing it", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'herald-checkpoint-')), 'herald.db');
    const database = createDatabase({ url: `sqlite:${path}`, backgroundCheckpoints: true });
    try {
      await writeTwoMegabytes(database);
      const fileSize = await until(async () => {
        const size = statSync(path).size;
        return size >= 2 * MB && size;
      }, 'the checkpoint to reach the database file');
      expect(fileSize).toBeGreaterThanOrEqual(2 * MB);
      // The server's own connection never checkpoints: that is the thread's job.
      expect((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db)).rows[0]?.wal_autocheckpoint).toBe(
        0,
      );
    } finally {
      await database.close();
    }
  });

  it('leaves the pages in the WAL without it (below the 1,000-page automatic checkpoint)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'herald-checkpoint-')), 'herald.db');
    const database = createDatabase({ url: `sqlite:${path}` });
    try {
      await writeTwoMegabytes(database);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(statSync(path).size).toBeLessThan(MB);
      expect(statSync(`${path}-wal`).size).toBeGreaterThanOrEqual(2 * MB);
    } finally {
      await database.close();
    }
  });

  /**
   * A writer on its own connection, committing without fsync (more writes, the same log logic) and
   * never checkpointing: `write(mb)` adds `mb` MiB in transactions of 64 KiB a millisecond apart,
   * as a busy server commits, noting the largest the log has been.
   */
  const openWriter = (path: string) => {
    const writer = new Database(path);
    writer.pragma('journal_mode = WAL');
    writer.pragma('synchronous = NORMAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table filler (data blob)');
    const insert = writer.prepare('insert into filler (data) values (randomblob(16384))');
    const log = { largest: 0 };
    const write = async (mb: number) => {
      for (let i = 0; i < mb * 16; i++) {
        writer.transaction(() => {
          for (let j = 0; j < 4; j++) insert.run();
        })();
        if (i % 16 === 0) log.largest = Math.max(log.largest, statSync(`${path}-wal`).size);
        await sleep(1);
      }
    };
    return { writer, insert, log, write };
  };

  it('keeps the log from growing without bound under writes that never pause', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'herald-checkpoint-')), 'herald.db');
    const { writer, insert, log, write } = openWriter(path);
    const checkpointer = startCheckpointer(path, { intervalMs: 20, restartFrames: 500 });
    try {
      insert.run();
      await until(async () => statSync(path).size > 16384, 'the checkpoint thread to be at work');
      // The checkpoint thread never finds the log wholly copied when a transaction begins, so the
      // writer alone would never start the log again from its top.
      await write(64);
      expect(statSync(path).size + statSync(`${path}-wal`).size).toBeGreaterThan(64 * MB);
      expect(log.largest).toBeLessThan(40 * MB);
    } finally {
      await checkpointer.stop();
      writer.close();
    }
  });

  it('lets writers go on while a reader stays in the log, and restarts the log once it has left', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'herald-checkpoint-')), 'herald.db');
    const { writer, insert, write } = openWriter(path);
    const checkpointer = startCheckpointer(path, { intervalMs: 20, restartFrames: 500, restartWaitMs: 20 });
    const reader = new Database(path);
    try {
      insert.run();
      await until(async () => statSync(path).size > 16384, 'the checkpoint thread to be at work');
      // A reader in the middle of a long read: the log cannot restart under it, and every restart
      // tried meanwhile gives up after its wait.
      reader.exec('begin');
      const before = (reader.prepare('select count(*) as n from filler').get() as { n: number }).n;
      await write(16);
      expect((writer.prepare('select count(*) as n from filler').get() as { n: number }).n).toBe(before + 16 * 16 * 4);
      // The reader still sees its snapshot: nothing was copied over what it reads.
      expect((reader.prepare('select count(*) as n from filler').get() as { n: number }).n).toBe(before);
      reader.exec('commit');
      const pinned = statSync(`${path}-wal`).size;
      expect(pinned).toBeGreaterThan(16 * MB);
      // Once it has left, the thread copies what the log holds into the database file (how long
      // that takes is the machine's: 16 MiB and more, on a loaded one, can outlast the writes
      // below)...
      const pages = writer.pragma('page_count', { simple: true }) as number;
      const pageSize = writer.pragma('page_size', { simple: true }) as number;
      await until(async () => statSync(path).size >= pages * pageSize, 'the log to be copied into the database file');
      // ...and the log starts again from its top: 32 MiB more fit in the file it has.
      await write(32);
      expect(statSync(`${path}-wal`).size).toBeLessThan(pinned + 8 * MB);
    } finally {
      reader.close();
      await checkpointer.stop();
      writer.close();
    }
  });

  it('reports a checkpoint thread that ends unasked, so its owner can checkpoint again itself', async () => {
    const errors: string[] = [];
    const died = new Promise<void>((resolve) => {
      startCheckpointer(join(tmpdir(), 'herald-no-such-dir', 'x', 'herald.db'), {
        intervalMs: 50,
        onError: (message) => errors.push(message),
        onDeath: resolve,
      });
    });
    await died;
    expect(errors.join(' ')).toMatch(/directory does not exist|unable to open/i);
  });

  it('stops with the database, and the last close folds the WAL into the file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'herald-checkpoint-')), 'herald.db');
    const database = createDatabase({ url: `sqlite:${path}`, backgroundCheckpoints: true });
    await writeTwoMegabytes(database);
    await database.close();
    expect(statSync(path).size).toBeGreaterThanOrEqual(2 * MB);
  });
});
