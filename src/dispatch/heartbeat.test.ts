import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import type { Provider } from '../core/delivery/provider.js';
import type { Store } from '../core/ports.js';
import { Worker } from './worker.js';

describeEachDialect('the worker heartbeat', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(() => t.close());

  const options = { batchSize: 10, concurrency: 8, leaseMs: 15_000, pollIntervalMs: 1_000 };

  it('does not renew a job whose work ended without its outcome recorded: another worker takes it once its lease runs out', async () => {
    const token = await t.tokenFor(await t.createAccount({ credits: 10 }));
    const sent = await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'Left to its lease' });
    const id = sent.json().data.message_id as string;
    const busy: Provider = {
      name: 'busy',
      channel: 'sms',
      send: async () => ({ ok: false, retryable: true, code: 'BUSY', message: 'try later', retryAfterMs: 1_000 }),
    };
    t.providers.sms = busy;
    // The store fails every write after the claim and the in-flight mark (a database blip): the
    // outcome of the attempt is never recorded, and the job stays leased to its worker.
    let transactions = 0;
    const failing: Store = Object.assign({}, t.store, {
      groupedTransaction: <T>(work: (tx: Store) => Promise<T>): Promise<T> =>
        ++transactions <= 2 ? t.store.groupedTransaction(work) : Promise.reject(new Error('connection reset')),
    });
    const alive = new Worker(Object.assign({}, t.dispatch, { store: failing }), options);
    await alive.runOnce();
    const leased = () => t.database.db.selectFrom('jobs').select('locked_by').where('message_id', '=', id).executeTakeFirstOrThrow();
    expect((await leased()).locked_by).toBe(alive.id);

    const other = new Worker(t.dispatch, options);
    let taken = 0;
    for (let beat = 0; beat < 5; beat++) {
      t.clock.advance(5_000);
      await alive.renewLeases(); // its heartbeat, every third of the lease
      taken += await other.runOnce();
    }
    expect(taken).toBeGreaterThan(0);
    expect((await leased()).locked_by).not.toBe(alive.id);
  });
});
