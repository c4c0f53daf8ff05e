import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { MICROS_PER_CREDIT } from '../credits.js';
import { ApiError } from '../errors.js';
import type { Store } from '../ports.js';
import { queuedMessage } from './accept-messages.js';
import { AcceptQueue, type AcceptUnit } from './accept-queue.js';

/** What admission control reads of the accept queue: what waits for a batch, never the batch being written. */
describeEachDialect('what waits in the accept queue', (dialect) => {
  let t: TestApp;
  /** Opens the gate before which every batch's transaction waits. */
  let open: () => void;
  let gated: Store;

  beforeEach(async () => {
    t = await createTestApp(dialect);
    const gate = new Promise<void>((resolve) => (open = resolve));
    gated = Object.assign({}, t.store, {
      groupedTransaction: async <T>(work: (tx: Store) => Promise<T>): Promise<T> => {
        await gate;
        return t.store.groupedTransaction(work);
      },
    });
  });
  afterEach(() => t.close());

  const unit = (accountId: string, n: number): AcceptUnit => {
    const now = t.clock.now();
    const draft = { channel: 'sms' as const, to: '+14155552671', body: 'hi', segments: 1, costMicros: MICROS_PER_CREDIT };
    const messages = Array.from({ length: n }, () => queuedMessage(draft, accountId, now));
    return { accountId, messages, payloads: messages.map(() => null), now, insufficient: () => new ApiError('INSUFFICIENT_CREDITS', 'no') };
  };

  it('counts the requests and messages waiting, and gives the oldest one’s time, until their batch takes them', async () => {
    const account = await t.createAccount({ credits: 100 });
    const queue = new AcceptQueue(gated);
    expect(queue.waiting).toEqual({ units: 0, messages: 0, oldestNow: undefined });

    const firstAt = t.clock.now();
    const first = queue.submit(unit(account.account.id, 2));
    t.clock.advance(40);
    const second = queue.submit(unit(account.account.id, 3));
    expect(queue.waiting).toEqual({ units: 2, messages: 5, oldestNow: firstAt });

    open();
    await Promise.all([first, second]);
    expect(queue.waiting).toEqual({ units: 0, messages: 0, oldestNow: undefined });
    expect(await t.store.jobs.count()).toBe(5);
  });

  it('stops counting a refused request once its batch has taken it', async () => {
    const account = await t.createAccount({ credits: 1 });
    const queue = new AcceptQueue(gated);
    const refused = queue.submit(unit(account.account.id, 4));
    expect(queue.waiting.messages).toBe(4);
    open();
    await expect(refused).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(queue.waiting).toEqual({ units: 0, messages: 0, oldestNow: undefined });
  });
});
