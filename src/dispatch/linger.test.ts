import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import { until } from '../../test/wait.js';
import type { OutboundMessage } from '../core/delivery/provider.js';
import { DEFAULT_WORKER_OPTIONS, Worker, type WorkerOptions } from './worker.js';

/**
 * A woken worker lingers (`lingerMs`, WORKER_LINGER_MS) before it claims, so the sends of several
 * commits go out as one wave; a backlog is claimed without lingering, and a stop cuts a linger short.
 */
describeEachDialect('a worker lingers before it claims', (dialect) => {
  let t: TestApp;
  let token: string;
  let worker: Worker | undefined;

  beforeEach(async () => {
    t = await createTestApp(dialect);
    token = await t.tokenFor(await t.createAccount({ credits: 1_000 }));
  });
  afterEach(async () => {
    await worker?.stop(5_000);
    worker = undefined;
    await t.close();
  });

  const send = async (to: string) => {
    const response = await t.call('POST', '/v1/sms/send', token, { to, message: 'Your code is 123456' });
    expect(response.statusCode).toBe(200);
    return response.json().data.message_id as string;
  };
  /** The sandbox's hand-overs, one entry per call: the ids it was given together, and when. */
  const handOvers = () => {
    const provider = t.dispatch.providers.sms;
    const sendMany = provider?.sendMany?.bind(provider);
    if (!provider || !sendMany) throw new Error('the sandbox hands over in batches');
    const calls: Array<{ ids: string[]; at: number }> = [];
    provider.sendMany = (messages: readonly OutboundMessage[], signal: AbortSignal) => {
      calls.push({ ids: messages.map((m) => m.id), at: performance.now() });
      return sendMany(messages, signal);
    };
    return calls;
  };
  const startWorker = (options: Partial<WorkerOptions>) => {
    worker = new Worker(t.dispatch, { ...DEFAULT_WORKER_OPTIONS, pollIntervalMs: 50, ...options });
    worker.start();
    return worker;
  };
  const sentIds = async (ids: string[]) => {
    for (const id of ids) {
      // Handed over: sent, or already delivered (the sandbox reports at once here).
      const handedOver = async () => ['sent', 'delivered'].includes((await t.store.messages.findById(id))?.status ?? '');
      await until(handedOver, `message ${id} handed over`, 20_000);
    }
  };

  it('sends committed one after another while it lingers go out in one wave', async () => {
    const calls = handOvers();
    startWorker({ lingerMs: 1_500 });
    // Each send is a commit of its own, and each wakes the worker.
    const ids = [await send('+14155550101'), await send('+14155550102'), await send('+14155550103')];
    await sentIds(ids);
    expect(calls.map((c) => c.ids.sort())).toEqual([[...ids].sort()]);
  });

  it('without lingering, the first send is claimed before the next is committed', async () => {
    const calls = handOvers();
    startWorker({ lingerMs: 0 });
    const first = await send('+14155550111');
    await sentIds([first]);
    const second = await send('+14155550112');
    await sentIds([second]);
    expect(calls.map((c) => c.ids)).toEqual([[first], [second]]);
  });

  it('a claim that comes back full is followed by the next at once, not after another linger', async () => {
    // Queued before the worker starts: five due messages, claimed two at a time.
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await send(`+1415555012${i}`));
    const calls = handOvers();
    startWorker({ lingerMs: 3_000, batchSize: 2 });
    await sentIds(ids);
    expect(calls.map((c) => c.ids.length)).toEqual([2, 2, 1]);
    // One linger before the first claim; the claims after a full one do not wait for another.
    const spread = (calls.at(-1)?.at ?? 0) - (calls[0]?.at ?? 0);
    expect(spread).toBeLessThan(3_000);
  });

  it('stopping cuts a linger short: nothing is claimed, and the message stays queued for the next worker', async () => {
    const calls = handOvers();
    // Longer than the test may take: were the linger not cut, stop() would wait it out.
    const running = startWorker({ lingerMs: 120_000 });
    const id = await send('+14155550131');
    await running.stop(5_000);
    worker = undefined;
    expect(calls).toEqual([]);
    expect((await t.store.messages.findById(id))?.status).toBe('queued');
  });
});
