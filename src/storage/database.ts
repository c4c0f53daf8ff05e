import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import type pg from 'pg';
import { loadOnUse } from '../core/load-on-use.js';
import { MIGRATIONS } from './migrations/index.js';
import { Migrator } from './migrator.js';
import type { Database } from './schema.js';
import { type Checkpointer, startCheckpointer } from './sqlite-checkpointer.js';
import { withStatementCache } from './sqlite-statements.js';
import { sqliteTransactions, type TransactionRunner } from './sqlite-transactions.js';
import { WriteTurns } from './sqlite-write-turns.js';

export type Dialect = 'sqlite' | 'postgres';

/**
 * What each backend can do, named, so stores ask "can it?" instead of "which one is it?".
 */
export interface Capabilities {
  /** `FOR UPDATE SKIP LOCKED`: many workers can claim rows without blocking each other. */
  skipLocked: boolean;
  /** LISTEN/NOTIFY: other processes can be woken when work arrives. */
  listenNotify: boolean;
  /**
   * `SELECT ... FOR UPDATE`: a read locks the rows it is about to change. Needed where transactions
   * write side by side (PostgreSQL); SQLite's single writer (BEGIN IMMEDIATE) already excludes them.
   */
  rowLocks: boolean;
  /**
   * Grouping concurrent units into one transaction pays: one writer at a time, each commit an
   * fsync (SQLite). PostgreSQL already flushes concurrent commits together and runs transactions
   * side by side on its pool; there, grouping would serialise them on one connection and let two
   * groups deadlock on rows their units take in different orders.
   */
  groupCommit: boolean;
}

const CAPABILITIES: Record<Dialect, Capabilities> = {
  sqlite: { skipLocked: false, listenNotify: false, rowLocks: false, groupCommit: true },
  postgres: { skipLocked: true, listenNotify: true, rowLocks: true, groupCommit: false },
};

export interface DatabaseOptions {
  /** `sqlite:PATH`, `sqlite::memory:`, or `postgres://...` / `postgresql://...`. */
  url: string;
  /** PostgreSQL schema to live in (created by `migrate`); default `public`. */
  schema?: string | undefined;
  /** PostgreSQL pool size. */
  poolSize?: number | undefined;
  /**
   * SQLite: checkpoint the WAL on a background thread instead of on the connection that commits
   * (see sqlite-checkpointer.ts). Every process built by main/services.ts turns it on.
   */
  backgroundCheckpoints?: boolean | undefined;
  /** Told when a background checkpoint fails (the next one tries again). */
  onCheckpointError?: ((message: string) => void) | undefined;
  /**
   * SQLite: another connection of this process checkpoints the WAL (the API thread's, for the
   * dispatch thread: main/dispatch-thread.ts); this one never does.
   */
  checkpointsElsewhere?: boolean | undefined;
  /** SQLite: the write turns shared by this process's threads (sqlite-write-turns.ts); a new set when omitted. */
  writeTurns?: SharedArrayBuffer | undefined;
}

export interface HeraldDatabase {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  readonly capabilities: Capabilities;
  /** The PostgreSQL LISTEN/NOTIFY channel for new jobs, one per schema so stores never wake each other. */
  readonly jobsChannel: string | undefined;
  /** The PostgreSQL LISTEN/NOTIFY channel for IP allow-list changes (payload: the account id), one per schema. */
  readonly accessChannel: string | undefined;
  /** PostgreSQL only: the connection settings, for a dedicated LISTEN connection. */
  readonly connection: { url: string; schema: string | undefined } | undefined;
  /** SQLite only: the store's transactions, through handles made once (sqlite-transactions.ts); elsewhere Kysely's own. */
  readonly transactions: TransactionRunner | undefined;
  /** SQLite only: the turns at the write lock, to share with another thread of this process (WriteTurns). */
  readonly writeTurns: SharedArrayBuffer | undefined;
  /** Applies every pending migration; safe to run from several processes at once. */
  migrate(): Promise<string[]>;
  /** Names of migrations not yet applied. */
  pendingMigrations(): Promise<string[]>;
  /** Throws unless the store answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Whether an error a store call threw means the store cannot be reached now (PostgreSQL
   * restarting or refusing connections, a connection cut, SQLite's write lock held past its
   * timeout), as opposed to a fault of the request or of Herald: the API answers it 503 with
   * Retry-After, and the client tries again.
   */
  isUnavailable(error: unknown): boolean;
  close(): Promise<void>;
}

/** The Kysely database handle, or a transaction on it: every store function accepts either. */
export type Executor = Kysely<Database>;

/**
 * Whether an executor (a handle or a transaction, of the store's tables or, in a migration, of any)
 * talks to PostgreSQL, for SQL the dialects write differently.
 */
export function isPostgres(db: Pick<Executor, 'getExecutor'>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** How long a write waits for SQLite's write lock (held by another process or thread) before failing. */
const BUSY_TIMEOUT_MS = 5_000;

const isBusy = (error: unknown): boolean => String((error as { code?: string }).code).startsWith('SQLITE_BUSY'); // and its extended codes

/**
 * The server's one SQLite connection, as Kysely's driver hands it out, never waiting inside SQLite.
 *
 * Someone else holds the write lock now and then: another process (the CLI next to a running
 * server, a `herald worker`) and the checkpoint thread, which takes it for a few milliseconds to
 * restart the log (sqlite-checkpointer.ts). SQLite's own busy handler would sleep on the event loop
 * meanwhile, for longer and longer (up to 100 ms a time), blocking every request of the process,
 * and still be asleep when the lock came free. So the connection has no busy timeout: a statement
 * outside a transaction, or the BEGIN IMMEDIATE of one, that finds the lock taken (and so did
 * nothing) is asked again a millisecond later with the event loop free, for up to BUSY_TIMEOUT_MS.
 * Inside a transaction nothing waits: BEGIN IMMEDIATE took the write lock up front.
 */
class PatientConnection implements DatabaseConnection {
  constructor(
    private readonly inner: DatabaseConnection,
    private readonly sqlite: Pick<SqliteDatabase.Database, 'inTransaction'>,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.sqlite.inTransaction) return this.inner.executeQuery<R>(query);
    const deadline = performance.now() + BUSY_TIMEOUT_MS;
    for (;;) {
      try {
        return await this.inner.executeQuery<R>(query);
      } catch (error) {
        if (!isBusy(error) || performance.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * Kysely's SQLite driver opens transactions with a deferred BEGIN. Another process may then make a
 * reader's upgrade to writer fail at once with SQLITE_BUSY; BEGIN IMMEDIATE takes the write lock
 * up front (waiting for it as every statement outside a transaction does: PatientConnection).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  #patient: PatientConnection | undefined;
  /** This connection holds a turn at the write lock (taken at BEGIN, given at the end of the transaction). */
  #holdsTurn = false;

  constructor(
    config: SqliteDialectConfig,
    private readonly sqlite: SqliteDatabase.Database,
    private readonly turns: WriteTurns,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.#patient ??= new PatientConnection(connection, this.sqlite);
    return this.#patient;
  }

  /** Waits for this thread's turn at the write lock (WriteTurns), then for the lock itself. */
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await this.turns.take();
    this.#holdsTurn = true;
    try {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    } catch (error) {
      this.#giveTurn();
      throw error;
    }
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.commitTransaction(connection);
    } finally {
      // A commit that failed may leave the transaction open, for the rollback that follows.
      if (!this.sqlite.inTransaction) this.#giveTurn();
    }
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } finally {
      if (!this.sqlite.inTransaction) this.#giveTurn();
    }
  }

  /**
   * However the transaction ended: SQLite rolls a transaction back by itself on some errors (a full
   * disk, an I/O error, INSERT OR ROLLBACK), and then nobody calls rollback; the turn is given
   * here, or every later write of the process would wait for it for ever.
   */
  override async releaseConnection(): Promise<void> {
    if (this.#holdsTurn) {
      if (this.sqlite.inTransaction) {
        try {
          this.sqlite.exec('rollback');
        } catch {}
      }
      if (!this.sqlite.inTransaction) this.#giveTurn();
    }
    await super.releaseConnection();
  }

  #giveTurn(): void {
    if (!this.#holdsTurn) return;
    this.#holdsTurn = false;
    this.turns.give();
  }
}

/** SQLite through Kysely on one better-sqlite3 connection (its prepared statements kept), patiently. */
class ImmediateSqliteDialect extends SqliteDialect {
  /** The driver Kysely is given; the store's transactions (sqlite-transactions.ts) begin and end through it too. */
  readonly driver: ImmediateSqliteDriver;
  constructor(sqlite: SqliteDatabase.Database, turns: WriteTurns) {
    const config = { database: withStatementCache(sqlite) };
    super(config);
    this.driver = new ImmediateSqliteDriver(config, sqlite, turns);
  }
  override createDriver(): SqliteDriver {
    return this.driver;
  }
}

function openSqlite(path: string): SqliteDatabase.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  // While it opens (before it serves anything) the connection may wait for locks inside SQLite.
  const database = new SqliteDatabase(path, { timeout: BUSY_TIMEOUT_MS });
  database.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before it is acknowledged, so an accepted send survives a power cut.
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  // Statement journals in memory. A multi-row write or a savepoint inside a transaction journals
  // every page it moves; past 64 KiB SQLite spilled that to a new temporary file (opened, written
  // and deleted once per grouped commit). In memory: accept ×1.12 in alternating rounds.
  database.pragma('temp_store = MEMORY');
  // Once copied back, a log that grew under a burst is cut back to this size (64 MiB).
  database.pragma('journal_size_limit = 67108864');
  // From now on never: SQLite would wait asleep on the event loop (PatientConnection waits instead).
  database.pragma('busy_timeout = 0');
  return database;
}

/**
 * PostgreSQL's connection failures (SQLSTATE class 08), its shutting down or starting up (57P01-03)
 * and running out of connections (53300); a socket that failed; pg's own words for a connection that
 * ended or could not be had in time; SQLite's lock held past its timeout.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);
/** SQLite's lock held past the timeout; not SQLITE_BUSY_SNAPSHOT, which is a transaction's own fault. */
const UNAVAILABLE_SQLITE = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_TIMEOUT']);
const UNAVAILABLE_MESSAGES = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

function storeUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code)) return true;
    if (UNAVAILABLE_SQLITE.has(code)) return true;
  }
  return error instanceof Error && UNAVAILABLE_MESSAGES.test(error.message);
}

/** How often the background thread checkpoints the SQLite WAL. */
const CHECKPOINT_INTERVAL_MS = 500;

const PG_INT8 = 20;

/** The PostgreSQL driver, loaded by the first PostgreSQL store or listener: a SQLite server never loads it. */
export const loadPg = loadOnUse<typeof pg>('pg');

function openPostgres(options: DatabaseOptions): pg.Pool {
  const { Pool, types } = loadPg();
  const pool = new Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    // Money and timestamps are bigint columns holding values far below 2^53: read them as numbers.
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === PG_INT8 ? (value: string) => Number(value) : types.getTypeParser(oid, format as 'text')) as typeof types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor a client in use losing it between two queries (a transaction waiting on the application
  // when PostgreSQL restarts): pg emits that as an 'error' on the client, which the pool listens
  // for only while the client is idle. Its next query fails, and so does its transaction, which
  // the caller handles; the pool then drops the client. Measured: a PostgreSQL restart under load
  // took down every API node and worker of four.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

export function parseDialect(url: string): Dialect {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got "${url.split(':')[0]}:...")`);
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A LISTEN/NOTIFY channel of one schema: `herald_<topic>_<schema>`, every process on the schema
 * deriving the same. PostgreSQL refuses (pg_notify) or cuts (LISTEN) names past 63 bytes, so a
 * long schema name is replaced by a digest of it.
 */
export function channelName(topic: string, schema: string | undefined): string {
  const name = `herald_${topic}_${schema ?? 'public'}`;
  return name.length <= 63
    ? name
    : `herald_${topic}_${createHash('sha256')
        .update(schema ?? '')
        .digest('hex')
        .slice(0, 32)}`;
}

export function createDatabase(options: DatabaseOptions): HeraldDatabase {
  const dialect = parseDialect(options.url);
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new Error('DATABASE_SCHEMA must be a lower-case SQL identifier');
  }
  const sqlitePath = dialect === 'sqlite' ? options.url.slice('sqlite:'.length) : undefined;
  const sqlite = sqlitePath !== undefined ? openSqlite(sqlitePath) : undefined;
  let checkpointer: Checkpointer | undefined;
  if (sqlite && options.checkpointsElsewhere) sqlite.pragma('wal_autocheckpoint = 0');
  else if (sqlite && sqlitePath !== ':memory:' && options.backgroundCheckpoints) {
    sqlite.pragma('wal_autocheckpoint = 0');
    checkpointer = startCheckpointer(sqlitePath as string, {
      intervalMs: CHECKPOINT_INTERVAL_MS,
      onError: options.onCheckpointError,
      // Without its thread the log would grow for ever: the connection checkpoints again itself.
      onDeath: () => {
        if (!sqlite.open) return;
        sqlite.pragma('wal_autocheckpoint = 1000');
        options.onCheckpointError?.('the checkpoint thread ended; checkpoints are back on the main connection');
      },
    });
  }
  const turns = sqlite ? new WriteTurns(options.writeTurns) : undefined;
  const sqliteDialect = sqlite && turns ? new ImmediateSqliteDialect(sqlite, turns) : undefined;
  const db = sqliteDialect
    ? new Kysely<Database>({ dialect: sqliteDialect })
    : new Kysely<Database>({ dialect: new PostgresDialect({ pool: openPostgres(options) }) });

  const migrator = new Migrator(db as Kysely<unknown>, dialect, MIGRATIONS);

  return {
    db,
    dialect,
    capabilities: CAPABILITIES[dialect],
    jobsChannel: dialect === 'postgres' ? channelName('jobs', options.schema) : undefined,
    accessChannel: dialect === 'postgres' ? channelName('account_access', options.schema) : undefined,
    connection: dialect === 'postgres' ? { url: options.url, schema: options.schema } : undefined,
    transactions: sqlite && sqliteDialect ? sqliteTransactions(db, sqliteDialect, sqlite) : undefined,
    writeTurns: turns?.buffer,
    async migrate() {
      if (options.schema) await db.schema.createSchema(options.schema).ifNotExists().execute();
      return migrator.migrate(Date.now());
    },
    pendingMigrations: () => migrator.pending(),
    async ping() {
      await sql`select 1`.execute(db);
    },
    isUnavailable: storeUnavailable,
    async close() {
      await checkpointer?.stop();
      // The last connection to close checkpoints what is left and removes the log.
      await db.destroy();
    },
  };
}
