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
  /** The sandbox's hand-overs, one entry per call: the ids it was given together, and when; each takes `delayMs` more. */
  const handOvers = (delayMs = 0) => {
    const provider = t.dispatch.providers.sms;
    const sendMany = provider?.sendMany?.bind(provider);
    if (!provider || !sendMany) throw new Error('the sandbox hands over in batches');
    const calls: Array<{ ids: string[]; at: number }> = [];
    provider.sendMany = async (messages: readonly OutboundMessage[], signal: AbortSignal) => {
      calls.push({ ids: messages.map((m) => m.id), at: performance.now() });
      const outcomes = await sendMany(messages, signal);
      if (delayMs > 0) await pause(delayMs);
      return outcomes;
    };
    return calls;
  };
  /** A worker that claims only when woken (as the store wakes a process's worker after each commit) or after a minute. */
  const startWorker = (options: Partial<WorkerOptions>) => {
    worker = new Worker(t.dispatch, { ...DEFAULT_WORKER_OPTIONS, pollIntervalMs: 60_000, ...options });
    worker.start();
    return worker;
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Sends one after another, each committed on its own and waking the worker, a quarter second apart (longer than a claim). */
  const sendApart = async (running: Worker, recipients: string[]) => {
    const ids: string[] = [];
    for (const to of recipients) {
      ids.push(await send(to));
      running.wake();
      await pause(250);
    }
    return ids;
  };
  /** From the first hand-over to the last, ms. */
  const spreadOf = (calls: ReadonlyArray<{ at: number }>) => (calls.at(-1)?.at ?? 0) - (calls[0]?.at ?? 0);
  const sentIds = async (ids: string[]) => {
    for (const id of ids) {
      // Handed over: sent, or already delivered (the sandbox reports at once here).
      const handedOver = async () => ['sent', 'delivered'].includes((await t.store.messages.findById(id))?.status ?? '');
      await until(handedOver, `message ${id} handed over`, 20_000);
    }
  };

  it('sends committed one after another while it lingers go out in one wave', async () => {
    const calls = handOvers();
    const running = startWorker({ lingerMs: 3_000 });
    const ids = await sendApart(running, ['+14155550101', '+14155550102', '+14155550103']);
    await sentIds(ids);
    expect(calls.map((c) => c.ids.sort())).toEqual([[...ids].sort()]);
  });

  it('without lingering, each of those sends goes out in a wave of its own', async () => {
    const calls = handOvers();
    const running = startWorker({ lingerMs: 0 });
    const ids = await sendApart(running, ['+14155550111', '+14155550112', '+14155550113']);
    await sentIds(ids);
    expect(calls.map((c) => c.ids)).toEqual(ids.map((id) => [id]));
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
    expect(spreadOf(calls)).toBeLessThan(3_000);
  });

  it('work known to be due waits for a free lane, not for another linger', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await send(`+1415555014${i}`));
    // Each hand-over takes 200 ms; two lanes: three claims, each as soon as the lanes are free.
    const calls = handOvers(200);
    startWorker({ lingerMs: 3_000, concurrency: 2 });
    await sentIds(ids);
    expect(calls.map((c) => c.ids.length)).toEqual([2, 2, 2]);
    expect(spreadOf(calls)).toBeLessThan(3_000);
  });

  it('stopping cuts a linger short, even one about to begin: nothing is claimed, and the message stays queued', async () => {
    const calls = handOvers();
    const running = startWorker({ lingerMs: 10_000 });
    const id = await send('+14155550131');
    running.wake();
    // Stopped at once, while the woken loop is still on its way to the linger.
    const began = performance.now();
    await running.stop(5_000);
    worker = undefined;
    expect(performance.now() - began).toBeLessThan(5_000);
    expect(calls).toEqual([]);
    expect((await t.store.messages.findById(id))?.status).toBe('queued');
  });

  it('a worker woken while it claims goes round again without asking when the next job is due; an idle one asks', async () => {
    const store = t.dispatch.store;
    let asked = 0;
    const nextDueAt = store.jobs.nextDueAt.bind(store.jobs);
    store.jobs.nextDueAt = (now) => {
      asked++;
      return nextDueAt(now);
    };
    let claims = 0;
    let wakeWhileClaiming = false;
    const groupedTransaction = store.groupedTransaction.bind(store);
    store.groupedTransaction = ((work) => {
      claims++;
      if (wakeWhileClaiming) {
        wakeWhileClaiming = false;
        worker?.wake(); // as a commit of new sends would, while the claim runs
      }
      return groupedTransaction(work);
    }) as typeof store.groupedTransaction;
    const running = startWorker({ lingerMs: 0 });
    await until(async () => asked === 1, 'the first, idle, turn asked', 5_000);
    expect(claims).toBe(1);
    wakeWhileClaiming = true;
    running.wake();
    // The woken claim goes round again at once; that claim finds nothing and, not woken, asks.
    await until(async () => claims === 3, 'two more claims', 5_000);
    await until(async () => asked === 2, 'the idle turn asked', 5_000);
    await pause(100);
    expect({ claims, asked }).toEqual({ claims: 3, asked: 2 });
  });
});
