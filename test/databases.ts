import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CompiledQuery, type Kysely, type Migration, sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, inject } from 'vitest';
import { createDatabase, type Dialect, type Executor, type HeraldDatabase } from '../src/storage/database.js';
import { Migrator } from '../src/storage/migrator.js';

export const DIALECTS: readonly Dialect[] = ['sqlite', 'postgres'];

/** Where a test's own database lives: the URL (and schema) a child process can be given too. */
export interface TestDatabaseLocation {
  dialect: Dialect;
  url: string;
  schema: string | undefined;
  /** Removes the database (the SQLite directory, or the PostgreSQL schema). */
  drop(): Promise<void>;
}

/**
 * A fresh, empty database of its own for one test file or test: a SQLite file in a temporary
 * directory (a real file, so WAL and locking behave as in production), or a PostgreSQL schema with
 * a random name, so parallel runs on one server never see each other's rows.
 */
export function allocateDatabase(dialect: Dialect): TestDatabaseLocation {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'herald-test-'));
    return {
      dialect,
      url: `sqlite:${join(dir, 'herald.db')}`,
      schema: undefined,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const url = inject('postgresUrl');
  if (!url) throw new Error('PostgreSQL is not available for this run');
  const schema = `herald_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  return {
    dialect,
    url,
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Opens and migrates a database at a location from allocateDatabase. */
export async function openDatabase(location: TestDatabaseLocation): Promise<HeraldDatabase> {
  const database = createDatabase({ url: location.url, schema: location.schema, poolSize: 10 });
  await database.migrate();
  return database;
}

/**
 * A migrated database of the suite's own, opened before its tests (before each test with `each`)
 * and dropped after them. Read `database` inside tests and hooks, not at declaration.
 */
export function useTestDatabase(dialect: Dialect, options: { each?: boolean } = {}): { readonly database: HeraldDatabase } {
  let location: TestDatabaseLocation | undefined;
  let database: HeraldDatabase | undefined;
  (options.each ? beforeEach : beforeAll)(async () => {
    location = allocateDatabase(dialect);
    database = await openDatabase(location);
  });
  (options.each ? afterEach : afterAll)(async () => {
    await database?.close();
    await location?.drop();
  });
  return {
    get database() {
      if (!database) throw new Error('the test database is opened in a before hook: read it inside tests');
      return database;
    },
  };
}

/**
 * Declares the same suite once per dialect. The PostgreSQL copy is skipped, visibly, only when
 * the global setup found no server (and never under CI, where that fails the run instead).
 */
export function describeEachDialect(name: string, suite: (dialect: Dialect) => void): void {
  for (const dialect of DIALECTS) {
    const skip = dialect === 'postgres' && !inject('postgresUrl');
    describe.skipIf(skip)(`${name} [${dialect}]`, () => suite(dialect));
  }
}

/**
 * The store's handle, recording each statement it runs on its way to the database (compiled, with
 * its parameters): to explain the statements a store really runs.
 */
export function recordingStatements(database: HeraldDatabase): { db: Executor; statements: CompiledQuery[] } {
  const statements: CompiledQuery[] = [];
  const db = database.db.withPlugin({
    transformQuery(args) {
      statements.push(database.db.getExecutor().compileQuery(args.node, args.queryId));
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  return { db, statements };
}

/** The store's indexes (of one table, or all) by name, with their definitions as the database gives them. */
export async function indexesOf(database: HeraldDatabase, table?: string): Promise<Map<string, string>> {
  const db = database.db as Kysely<unknown>;
  const { rows } =
    database.dialect === 'sqlite'
      ? await sql<{ name: string; definition: string | null }>`
          select name, sql as definition from sqlite_schema
          where type = 'index' ${table === undefined ? sql`` : sql`and tbl_name = ${table}`}`.execute(db)
      : await sql<{ name: string; definition: string }>`
          select indexname as name, indexdef as definition from pg_indexes
          where schemaname = current_schema() ${table === undefined ? sql`` : sql`and tablename = ${table}`}`.execute(db);
  return new Map(rows.map((row) => [row.name, row.definition ?? '']));
}

/**
 * A test's own store with only the given migrations applied (e.g. those before the one under test),
 * on a connection that can go on migrating: the state a migration starts from. Close and drop it after.
 */
export async function migratedStore(
  dialect: Dialect,
  migrations: Record<string, Migration>,
  at: number,
): Promise<{ location: TestDatabaseLocation; database: HeraldDatabase; db: Kysely<unknown> }> {
  const location = allocateDatabase(dialect);
  const database = createDatabase({ url: location.url, schema: location.schema, poolSize: 2 });
  const db = database.db as Kysely<unknown>;
  try {
    if (location.schema) await sql`create schema ${sql.id(location.schema)}`.execute(db);
    await new Migrator(db, dialect, migrations).migrate(at);
  } catch (error) {
    await database.close();
    await location.drop();
    throw error;
  }
  return { location, database, db };
}
