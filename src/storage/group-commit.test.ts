import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../test/channels.js';
import { allocateDatabase, describeEachDialect, openDatabase, type TestDatabaseLocation } from '../../test/databases.js';
import type { Store } from '../core/ports.js';
import type { HeraldDatabase } from './database.js';
import { GroupCommitter, type GroupTransactions } from './group-commit.js';
import { storeOf } from './store.js';

/** A backend that records what the committer asks of it; its commit can be made to fail. */
function recordingBackend(options: { failCommit?: boolean } = {}) {
  const calls: string[] = [];
  const backend: GroupTransactions<string[]> = {
    async transaction(work) {
      calls.push('begin');
      const result = await work(calls);
      if (options.failCommit) {
        calls.push('rollback');
        throw new Error('disk full');
      }
      calls.push('commit');
      return result;
    },
    async savepoint(tx) {
      tx.push('savepoint');
    },
    async rollbackToSavepoint(tx) {
      tx.push('rollback to savepoint');
    },
    async releaseSavepoint(tx) {
      tx.push('release');
    },
  };
  return { calls, backend };
}

describe('group commit', () => {
  it('runs a lone unit in a transaction of its own, without savepoints', async () => {
    const { calls, backend } = recordingBackend();
    const committer = new GroupCommitter(backend);
    await expect(committer.run(async (tx) => tx.push('work') && 'done')).resolves.toBe('done');
    expect(calls).toEqual(['begin', 'work', 'commit']);
  });

  it('runs units that arrive together in one transaction, each in a savepoint, in arrival order', async () => {
    const { calls, backend } = recordingBackend();
    const committer = new GroupCommitter(backend);
    const results = await Promise.all([1, 2, 3].map((n) => committer.run(async (tx) => tx.push(`work ${n}`) && n)));
    expect(results).toEqual([1, 2, 3]);
    expect(calls).toEqual([
      'begin',
      ...['savepoint', 'work 1', 'release', 'savepoint', 'work 2', 'release', 'savepoint', 'work 3', 'release'],
      'commit',
    ]);
    expect(committer.stats).toEqual({ groups: 1, units: 3, largest: 3 });
  });

  it('rolls back only the unit that throws: it gets its error, its neighbours their results', async () => {
    const { calls, backend } = recordingBackend();
    const committer = new GroupCommitter(backend);
    const outcomes = await Promise.allSettled([
      committer.run(async () => 'a'),
      committer.run(async () => {
        throw new Error('insufficient credits');
      }),
      committer.run(async () => 'c'),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
      'a',
      'insufficient credits',
      'c',
    ]);
    expect(calls.filter((c) => c.startsWith('rollback'))).toEqual(['rollback to savepoint']);
    expect(calls.at(-1)).toBe('commit');
  });

  it('answers nobody before the commit, and fails every unit of a group whose commit fails', async () => {
    const { backend } = recordingBackend({ failCommit: true });
    const committer = new GroupCommitter(backend);
    const outcomes = await Promise.allSettled([1, 2, 3].map((n) => committer.run(async () => n)));
    expect(outcomes.map((o) => o.status === 'rejected' && (o.reason as Error).message)).toEqual(['disk full', 'disk full', 'disk full']);
  });

  it('fails the group with the error that ended the transaction when its savepoint is gone', async () => {
    const { backend } = recordingBackend();
    backend.rollbackToSavepoint = async () => {
      throw new Error('no such savepoint: herald_unit');
    };
    const committer = new GroupCommitter(backend);
    const outcomes = await Promise.allSettled([
      committer.run(async () => 1),
      committer.run(async () => {
        throw new Error('disk I/O error');
      }),
    ]);
    expect(outcomes.map((o) => o.status === 'rejected' && (o.reason as Error).message)).toEqual(['disk I/O error', 'disk I/O error']);
  });

  it('caps a group at its size and takes units that arrive during a commit into the next', async () => {
    const { calls, backend } = recordingBackend();
    const committer = new GroupCommitter(backend, 2);
    const late: Array<Promise<number>> = [];
    const first = [1, 2, 3].map((n) =>
      committer.run(async () => {
        // Arrives while the first group is still open.
        if (n === 1) late.push(committer.run(async () => 4));
        return n;
      }),
    );
    expect(await Promise.all(first)).toEqual([1, 2, 3]);
    expect(await Promise.all(late)).toEqual([4]);
    expect(calls.filter((c) => c === 'commit')).toHaveLength(2);
    expect(committer.stats).toEqual({ groups: 2, units: 4, largest: 2 });
  });
});

describeEachDialect('group commit on the store', (dialect) => {
  let location: TestDatabaseLocation;
  let database: HeraldDatabase;
  let other: HeraldDatabase;
  let store: Store;
  beforeAll(async () => {
    location = allocateDatabase(dialect);
    database = await openDatabase(location);
    // A second connection pool on the same store: it sees committed rows only.
    other = await openDatabase(location);
    store = storeOf(database, { channels: CHANNELS });
  });
  afterAll(async () => {
    await other.close();
    await database.close();
    await location.drop();
  });

  const committed = async (name: string) =>
    (await other.db.selectFrom('server_secrets').select('name').where('name', '=', name).executeTakeFirst()) !== undefined;

  it('keeps what 50 concurrent units wrote except the ones that threw, and answers each only once it is committed', async () => {
    const failing = new Set([7, 23, 24]);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, async (_, i) => {
        const name = `${dialect}-unit-${i}`;
        await store.groupedTransaction(async (tx) => {
          await tx.secrets.createIfAbsent(name, 'v', 0);
          if (failing.has(i)) throw new Error(`unit ${i} refused`);
        });
        // Answered: the row must already be visible to another connection.
        return committed(name);
      }),
    );
    outcomes.forEach((outcome, i) => {
      if (failing.has(i)) expect(outcome).toMatchObject({ status: 'rejected', reason: { message: `unit ${i} refused` } });
      else expect(outcome).toEqual({ status: 'fulfilled', value: true });
    });
    for (const i of failing) expect(await committed(`${dialect}-unit-${i}`)).toBe(false);
  });

  it('joins the surrounding transaction when called inside one', async () => {
    await expect(
      store.transaction(async (tx) => {
        await tx.groupedTransaction(async (inner) => inner.secrets.createIfAbsent(`${dialect}-nested`, 'v', 0));
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await committed(`${dialect}-nested`)).toBe(false);
  });
});
