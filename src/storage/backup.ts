import { existsSync } from 'node:fs';
import { link, open, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { parseDialect } from './database.js';

/** What a backup wrote. */
export interface BackupResult {
  file: string;
  bytes: number;
  /** Messages in the copy (a quick sense of what it holds). */
  messages: number;
}

/** Why a backup was not made, in words for the operator. */
export class BackupError extends Error {}

/**
 * A consistent copy of a SQLite store, taken while Herald serves: SQLite's online backup API
 * (better-sqlite3's `backup`), on a connection of its own, in one step (a read transaction: in WAL
 * mode writers go on meanwhile, and the copy is the store as of that step's start, every committed
 * send included). Written beside `file` under a name of its own and linked into place only once
 * complete and checked (`PRAGMA integrity_check`), so a failed backup never leaves a half-written
 * file under the name, and an existing file is never replaced.
 * PostgreSQL stores are backed up with pg_dump (docs/operations.md, "Backups").
 */
export async function backupSqlite(databaseUrl: string, file: string): Promise<BackupResult> {
  if (parseDialect(databaseUrl) !== 'sqlite') {
    throw new BackupError('DATABASE_URL is PostgreSQL: back it up with pg_dump (docs/operations.md, "Backups")');
  }
  const source = databaseUrl.slice('sqlite:'.length);
  if (source === ':memory:') throw new BackupError('an in-memory store cannot be backed up');
  if (!existsSync(source)) throw new BackupError(`no store at ${source}`);
  if (existsSync(file)) throw new BackupError(`${file} exists already; choose a new name (a backup never overwrites)`);
  if (!existsSync(dirname(file))) throw new BackupError(`no directory ${dirname(file)} to write ${file} in`);
  // A name of this run's own: two backups at once never write the same file.
  const partial = `${file}.${process.pid}.${Date.now()}.partial`;
  const db = new SqliteDatabase(source, { readonly: true, fileMustExist: true, timeout: 5_000 });
  try {
    // All remaining pages in the next step: one read transaction, so the copy is one moment's.
    await db.backup(partial, { progress: () => 0x7fffffff });
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  const copy = new SqliteDatabase(partial, { fileMustExist: true });
  let messages: number;
  try {
    const [check] = copy.pragma('integrity_check') as Array<{ integrity_check: string }>;
    if (check?.integrity_check !== 'ok') throw new BackupError(`the copy failed its integrity check: ${check?.integrity_check}`);
    // A copy in rollback-journal mode is one file: nothing beside it to forget when moving it.
    copy.pragma('journal_mode = DELETE');
    messages = (copy.prepare('select count(*) as n from messages').get() as { n: number }).n;
  } catch (error) {
    copy.close();
    await rm(partial, { force: true });
    throw error;
  }
  copy.close();
  // Into place only if the name is still free (link fails if it exists: no overwrite, even of a
  // file made meanwhile), then made durable with its directory.
  try {
    await link(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new BackupError(`${file} exists already; choose a new name (a backup never overwrites)`);
    throw error;
  } finally {
    await rm(partial, { force: true });
  }
  const directory = await open(dirname(file), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
  return { file, bytes: (await stat(file)).size, messages };
}
