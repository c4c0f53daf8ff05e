import { CompiledQuery, type DatabaseConnection, type Driver, Kysely, type Dialect as KyselyDialect } from 'kysely';
import type { Database } from './schema.js';

/** Runs `work` in one transaction and answers its result once committed; rolls back when it throws. */
export type TransactionRunner = <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;

const refuse = (): Promise<never> => Promise.reject(new Error('a transaction handle cannot open another transaction or connection'));

/** The driver of the transaction handle: everything goes through the open transaction's connection. */
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
 * Transactions on SQLite's one connection, every one through the same transaction handle.
 *
 * Kysely's `db.transaction().execute()` makes a transaction builder and a Kysely instance for each
 * transaction, each holding `Object.freeze({ ...props })`. On Node 20 a spread copy whose shape is
 * then changed (a member added, or frozen) outlives the young collections that should free it:
 * about 120 bytes of the old generation a transaction, most of what a durable send still left
 * there (docs/performance.md, "A spread that outlives its request"). SQLite has one connection and
 * so one transaction at a time (the driver's lock, taken here as Kysely takes it), so one handle,
 * bound to "the connection of the open transaction", serves them all. The handle answers only
 * while its transaction is open: a query made after the end is refused, as Kysely refuses it.
 *
 * BEGIN IMMEDIATE, COMMIT and ROLLBACK go to the connection the driver hands out (database.ts:
 * it waits for a lock held elsewhere with the event loop free). A commit that fails leaves SQLite
 * in the transaction for some errors (a deferred constraint, SQLITE_BUSY): it is rolled back, and
 * the caller gets the commit's error.
 */
export function sqliteTransactions(db: Kysely<Database>, dialect: KyselyDialect, inTransaction: () => boolean): TransactionRunner {
  const executor = db.getExecutor();
  let open: DatabaseConnection | undefined;
  const handle = new Kysely<Database>({
    config: { dialect },
    dialect,
    driver: NO_DRIVER,
    executor: executor.withConnectionProvider({
      provideConnection: (consume) => (open ? consume(open) : Promise.reject(new Error('this transaction has ended'))),
    }),
  });
  return (work) =>
    executor.provideConnection(async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      open = connection;
      try {
        const result = await work(handle);
        await connection.executeQuery(CompiledQuery.raw('commit'));
        return result;
      } catch (error) {
        if (inTransaction()) await connection.executeQuery(CompiledQuery.raw('rollback'));
        throw error;
      } finally {
        open = undefined;
      }
    });
}
