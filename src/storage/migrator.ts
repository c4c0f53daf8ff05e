import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from './database.js';

const TABLE = 'herald_migrations';

/**
 * Applies numbered, forward-only migrations, all pending ones in one transaction: a failed
 * migration leaves the schema as it was. Several processes may start at once: on PostgreSQL an
 * advisory lock scoped to the current schema lets one apply them while the others wait and then
 * find nothing to do; on SQLite the write lock of BEGIN IMMEDIATE does the same.
 *
 * Kysely's own migrator introspects every schema of the server, which fails when another schema
 * is dropped at the same moment (parallel test runs) and locks across schemas; this one touches
 * only its own schema.
 */
export class Migrator {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly dialect: Dialect,
    private readonly migrations: Record<string, Migration>,
  ) {}

  async migrate(now: number): Promise<string[]> {
    await this.#ensureTable();
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') {
        await sql`select pg_advisory_xact_lock(hashtext(current_schema() || ${`:${TABLE}`}))`.execute(trx);
      }
      const applied = await this.#applied(trx);
      const pending = Object.keys(this.migrations)
        .sort()
        .filter((name) => !applied.has(name));
      for (const name of pending) {
        await this.migrations[name]?.up(trx);
        await sql`insert into ${sql.table(TABLE)} (name, applied_at) values (${name}, ${now})`.execute(trx);
      }
      return pending;
    });
  }

  async pending(): Promise<string[]> {
    const applied = await this.#applied(this.db).catch(() => new Set<string>());
    return Object.keys(this.migrations)
      .sort()
      .filter((name) => !applied.has(name));
  }

  async #ensureTable(): Promise<void> {
    await sql`create table if not exists ${sql.table(TABLE)} (name text primary key, applied_at bigint not null)`.execute(this.db);
  }

  async #applied(db: Kysely<unknown>): Promise<Set<string>> {
    const result = await sql<{ name: string }>`select name from ${sql.table(TABLE)}`.execute(db);
    return new Set(result.rows.map((row) => row.name));
  }
}
