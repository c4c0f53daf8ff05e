import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHANNELS } from '../../test/channels.js';
import { allocateDatabase, openDatabase, type TestDatabaseLocation } from '../../test/databases.js';
import { createDatabase, type HeraldDatabase } from './database.js';
import type { Database } from './schema.js';
import type { TransactionRunner } from './sqlite-transactions.js';
import { storeOf } from './store.js';

/** A table of the test's own, so the tests say what they mean without Herald's rows. */
const notes = (trx: Kysely<Database>) => trx as unknown as Kysely<{ notes: { id: number; text: string } }>;

describe('SQLite transactions through handles made once', () => {
  let location: TestDatabaseLocation;
  let database: HeraldDatabase;
  let run: TransactionRunner;
  const texts = async () => (await notes(database.db).selectFrom('notes').select('text').orderBy('id').execute()).map((row) => row.text);

  beforeAll(async () => {
    location = allocateDatabase('sqlite');
    database = await openDatabase(location);
    run = database.transactions as TransactionRunner;
    await sql`create table notes (id integer primary key, text text not null, parent integer references notes (id) deferrable initially deferred)`.execute(
      database.db,
    );
  });
  afterAll(async () => {
    await database.close();
    await location.drop();
  });

  it('is how a store on SQLite runs its transactions', async () => {
    const runs: string[] = [];
    const counting: TransactionRunner = (work) => {
      runs.push('transaction');
      return run(work);
    };
    const store = storeOf({ ...database, transactions: counting }, { channels: CHANNELS });
    await store.transaction(async (tx) => tx.jobs.nextDueAt(0));
    await store.groupedTransaction(async (tx) => tx.jobs.nextDueAt(0));
    expect(runs).toEqual(['transaction', 'transaction']);
  });

  it('commits what the work wrote and answers its result', async () => {
    const answer = await run(async (trx) => {
      await notes(trx).insertInto('notes').values({ id: 1, text: 'kept' }).execute();
      return 'done';
    });
    expect(answer).toBe('done');
    expect(await texts()).toEqual(['kept']);
  });

  it('rolls back everything the work wrote when it throws, and the caller gets its error', async () => {
    await expect(
      run(async (trx) => {
        await notes(trx).insertInto('notes').values({ id: 2, text: 'dropped' }).execute();
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(await texts()).toEqual(['kept']);
    // The connection is out of the transaction: the next one runs.
    await run(async (trx) => notes(trx).insertInto('notes').values({ id: 3, text: 'after' }).execute());
    expect(await texts()).toEqual(['kept', 'after']);
  });

  it('rolls back a transaction whose commit fails (a deferred foreign key), with the commit’s error', async () => {
    await expect(
      run(async (trx) => {
        await notes(trx).insertInto('notes').values({ id: 4, text: 'orphan' }).execute();
        await sql`insert into notes (id, text, parent) values (5, 'child of nothing', 999)`.execute(trx);
      }),
    ).rejects.toThrow(/FOREIGN KEY constraint failed/);
    expect(await texts()).toEqual(['kept', 'after']);
    await run(async (trx) => notes(trx).insertInto('notes').values({ id: 6, text: 'still working' }).execute());
    expect(await texts()).toEqual(['kept', 'after', 'still working']);
  });

  it('runs transactions one at a time: one that starts while another is open waits for its end', async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = run(async (trx) => {
      order.push('first begins');
      await held;
      await notes(trx).insertInto('notes').values({ id: 7, text: 'first' }).execute();
      order.push('first ends');
    });
    const second = run(async (trx) => {
      order.push('second begins');
      await notes(trx).insertInto('notes').values({ id: 8, text: 'second' }).execute();
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(['first begins']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first begins', 'first ends', 'second begins']);
  });

  it('refuses a query made through the handle once its transaction has ended', async () => {
    let kept: Kysely<Database> | undefined;
    await run(async (trx) => {
      kept = trx;
    });
    await expect(
      notes(kept as Kysely<Database>)
        .selectFrom('notes')
        .selectAll()
        .execute(),
    ).rejects.toThrow('this transaction has ended');
  });

  it('refuses a handle kept from an earlier transaction while the next one is open, instead of running in it', async () => {
    let kept: Kysely<Database> | undefined;
    await run(async (trx) => {
      kept = trx;
    });
    await run(async (trx) => {
      expect(trx).not.toBe(kept);
      await expect(
        notes(kept as Kysely<Database>)
          .insertInto('notes')
          .values({ id: 9, text: 'stray' })
          .execute(),
      ).rejects.toThrow('this transaction has ended');
    });
    expect(await texts()).not.toContain('stray');
  });

  it('hands out a Kysely transaction: it says so, and opens no transaction or connection of its own', async () => {
    await run(async (trx) => {
      expect(trx.isTransaction).toBe(true);
      expect(() => trx.transaction()).toThrow(/not supported/);
      expect(() => trx.connection()).toThrow(/not supported/);
    });
    expect(await texts()).toEqual(['kept', 'after', 'still working', 'first', 'second']);
  });
});

describe.skipIf(!inject('postgresUrl'))('PostgreSQL transactions', () => {
  it('stay Kysely’s own: the database has no runner of its own (a pool has many connections)', async () => {
    const location = allocateDatabase('postgres');
    const database = createDatabase({ url: location.url, schema: location.schema });
    try {
      expect(database.transactions).toBeUndefined();
    } finally {
      await database.close();
    }
  });
});
