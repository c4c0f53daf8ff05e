import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import type { Provider } from '../core/delivery/provider.js';
import type { Store } from '../core/ports.js';
import { Worker } from './worker.js';

const options = { batchSize: 10, concurrency: 8, leaseMs: 15_000, pollIntervalMs: 1_000 };

describeEachDialect('the worker heartbeat', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(() => t.close());

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
    // The store fails every write after the claim, which marks the message in flight in the same
    // transaction (a database blip): the outcome of the attempt is never recorded, and the job
    // stays leased to its worker.
    let transactions = 0;
    const failing: Store = Object.assign({}, t.store, {
      groupedTransaction: <T>(work: (tx: Store) => Promise<T>): Promise<T> =>
        ++transactions <= 1 ? t.store.groupedTransaction(work) : Promise.reject(new Error('connection reset')),
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

describeEachDialect('a hand-over out of time before it starts', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(() => t.close());

  it('under hold, a message whose send time ran out while its mark committed is not in doubt: it goes later, never held', async () => {
    const token = await t.tokenFor(await t.createAccount({ credits: 10 }));
    const id = (await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'In time?' })).json().data.message_id as string;
    let sends = 0;
    const careful: Provider = {
      name: 'careful',
      channel: 'sms',
      recovery: 'hold',
      // A provider that honours its signal: refused at once when it is already aborted.
      send: async (_message, signal) => {
        sends++;
        signal.throwIfAborted();
        return { ok: true, providerMessageId: 'p-1' };
      },
    };
    t.providers.sms = careful;
    // No time at all for a send, and a store slow to commit: the signal is aborted by the time the
    // mark has committed.
    const slow: Store = Object.assign({}, t.store, {
      groupedTransaction: <T>(work: (tx: Store) => Promise<T>): Promise<T> =>
        new Promise((resolve) => setTimeout(resolve, 20)).then(() => t.store.groupedTransaction(work)),
    });
    const worker = new Worker(Object.assign({}, t.dispatch, { store: slow, sendTimeoutMs: 0 }), options);
    await worker.runOnce();
    expect(sends).toBe(0);
    expect(await t.store.messages.findById(id)).toMatchObject({ status: 'queued', dispatchState: null });
    // With time again, it is sent as usual.
    t.clock.advance(60_000);
    await new Worker(t.dispatch, options).runOnce();
    expect(sends).toBe(1);
    expect((await t.store.messages.findById(id))?.status).not.toBe('queued');
  });
});
