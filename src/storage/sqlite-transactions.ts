import type SqliteDatabase from 'better-sqlite3';
import { type DatabaseConnection, type Driver, type Kysely, type Dialect as KyselyDialect, Transaction } from 'kysely';
import type { Database } from './schema.js';

/** Runs `work` in one transaction and answers its result once committed; rolls back when it throws. */
export type TransactionRunner = <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;

const refuse = (): Promise<never> => Promise.reject(new Error('a transaction handle has no driver of its own'));

/** The driver of the transaction handles, never called: their queries go through the open transaction's connection. */
const NO_DRIVER: Driver = {
  init: () => Promise.resolve(),
  acquireConnection: refuse,
  beginTransaction: refuse,
  commitTransaction: refuse,
  rollbackTransaction: refuse,
  releaseConnection: refuse,
  destroy: () => Promise.resolve(),
};

/**
 * Handles taken in turn: one kept past its transaction (a bug) finds its slot empty, and is
 * refused, for the next fifteen transactions, instead of running inside whichever one is open.
 */
const HANDLES = 16;

/**
 * Transactions on SQLite's one connection, through sixteen handles made once and taken in turn.
 *
 * Kysely's `db.transaction().execute()` makes a transaction builder and a `Transaction` (a Kysely
 * instance) for each transaction, each holding `Object.freeze({ ...props })`. On Node 20 a spread
 * copy whose shape is then changed (a member added, or frozen) outlives the young collections
 * that should free it: about 120 bytes of the old generation a transaction, most of what a
 * durable send still left there (docs/performance.md, "A spread that outlives its request").
 * SQLite has one connection and so one transaction at a time (the driver's lock, taken here as
 * Kysely takes it), so a `Transaction` bound to "the connection of the open transaction" can be
 * made once and serve again. A handle answers only while its own transaction is open: a query made
 * through it later is refused, as Kysely refuses it, and like Kysely's it opens no transaction or
 * connection of its own.
 *
 * The transaction begins (BEGIN IMMEDIATE), commits and rolls back through the dialect's own
 * driver, on the connection it hands out (database.ts: it waits for a lock held elsewhere with the
 * event loop free). A commit that fails leaves SQLite in the transaction for some errors (a
 * deferred constraint, SQLITE_BUSY): it is rolled back, and the caller gets the commit's error.
 */
export function sqliteTransactions(
  db: Kysely<Database>,
  dialect: KyselyDialect & { readonly driver: Driver },
  sqlite: Pick<SqliteDatabase.Database, 'inTransaction'>,
): TransactionRunner {
  const { driver } = dialect;
  const executor = db.getExecutor();
  const open: Array<DatabaseConnection | undefined> = Array.from({ length: HANDLES }, () => undefined);
  const handles = open.map(
    (_, slot) =>
      new Transaction<Database>({
        config: { dialect },
        dialect,
        driver: NO_DRIVER,
        executor: executor.withConnectionProvider({
          provideConnection: (consume) => {
            const connection = open[slot];
            return connection ? consume(connection) : Promise.reject(new Error('this transaction has ended'));
          },
        }),
      }),
  );
  let turn = 0;
  return (work) =>
    executor.provideConnection(async (connection) => {
      const slot = turn;
      turn = (turn + 1) % HANDLES;
      await driver.beginTransaction(connection, {});
      open[slot] = connection;
      try {
        const result = await work(handles[slot] as Transaction<Database>);
        await driver.commitTransaction(connection);
        return result;
      } catch (error) {
        if (sqlite.inTransaction) await driver.rollbackTransaction(connection);
        throw error;
      } finally {
        open[slot] = undefined;
      }
    });
}
