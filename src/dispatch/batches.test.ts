import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import { until } from '../../test/wait.js';
import { startReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';
import { sumLedger } from '../core/accounts/ledger.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';
import { MICROS_PER_CREDIT } from '../core/credits.js';
import { applyReceipts } from '../core/messages/lifecycle.js';
import type { Store } from '../core/ports.js';

/**
 * The worker runs deliveries and receipts in batches (multi-row statements, outcomes recorded in
 * waves). These tests hold each message of a batch to what it would get alone.
 */
describeEachDialect('deliveries and receipts in batches', (dialect) => {
  let t: TestApp;
  let account: CreatedAccount;
  let token: string;
  let receiver: WebhookReceiver | undefined;

  beforeEach(async () => {
    t = await createTestApp(dialect);
    account = await t.createAccount({ credits: 1_000 });
    token = await t.tokenFor(account);
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
    await t.close();
  });

  const send = async (to: string) => {
    const response = await t.call('POST', '/v1/sms/send', token, { to, message: 'Your code is 123456' });
    expect(response.statusCode).toBe(200);
    return response.json().data.message_id as string;
  };
  const history = async (id: string) => (await t.store.messages.statusHistory(id)).map((h) => h.status);
  const eventsOf = async (id: string) =>
    (await t.database.db.selectFrom('events').select('body').where('message_id', '=', id).orderBy('id').execute()).map(
      (row) => JSON.parse(row.body) as { type: string; data: { sequence: number; status: string } },
    );
  /** A webhook of the account's for `events`, at a loopback receiver answering 204. */
  const subscribe = async (events: string[]): Promise<WebhookReceiver> => {
    const started = await startReceiver(() => 204);
    receiver = started;
    // Room for every delivery at once: the tests are about what is sent, not about receiver slots.
    t.dispatch.webhooks = { ...t.dispatch.webhooks, perReceiverConcurrency: 50 };
    await t.store.webhooks.create({
      id: 'wh_batch',
      accountId: account.account.id,
      url: started.url,
      events,
      description: null,
      active: true,
      disabledReason: null,
      failingSince: null,
      createdAt: t.clock.now(),
    });
    return started;
  };
  const expectLedgerBalanced = async () => {
    const stored = await t.store.accounts.findAccount(account.account.id);
    const sums = sumLedger(await t.store.credits.ledger(account.account.id));
    expect(sums).toEqual({ creditsMicros: stored?.creditsMicros, reservedMicros: stored?.reservedMicros });
  };

  it('ends each message of a mixed batch as it would end alone, each with its own provider id, history and events', async () => {
    const hook = await subscribe(['message.sent']);
    const ordinary = [];
    for (let i = 0; i < 30; i++) ordinary.push(await send(`+1415555${String(2000 + i)}`));
    const rejected = await send('+15005550001');
    const failsLater = await send('+15005550002');
    const silent = await send('+15005550003');
    const retried = await send('+15005550004');

    // One claim takes every delivery job (the harness claims up to 50).
    expect(await t.worker.runOnce()).toBe(34);
    for (const id of ordinary) expect(await history(id)).toEqual(['queued', 'sent']);
    expect(await history(rejected)).toEqual(['queued', 'failed']);
    expect(await history(retried)).toEqual(['queued']);
    await t.drain();
    t.clock.advance(60_000);
    await t.drain();

    for (const id of ordinary) {
      expect(await history(id)).toEqual(['queued', 'sent', 'delivered']);
      // Stored only where someone is told: the webhook takes message.sent alone. The delivery
      // spent sequence 2 all the same.
      expect((await eventsOf(id)).map((e) => [e.type, e.data.sequence])).toEqual([['message.sent', 1]]);
      const counter = await t.database.db.selectFrom('messages').select('event_sequence').where('id', '=', id).executeTakeFirst();
      expect(Number(counter?.event_sequence)).toBe(2);
    }
    const providerIds = await Promise.all(ordinary.map(async (id) => (await t.store.messages.findById(id))?.providerMessageId));
    expect(new Set(providerIds).size).toBe(ordinary.length);
    for (const [i, id] of ordinary.entries()) expect((await t.store.sandbox.find(id))?.providerMessageId).toBe(providerIds[i]);

    expect(await history(rejected)).toEqual(['queued', 'failed']);
    expect(await history(failsLater)).toEqual(['queued', 'sent', 'failed']);
    expect(await history(silent)).toEqual(['queued', 'sent']);
    expect(await history(retried)).toEqual(['queued', 'sent', 'delivered']);
    expect((await t.store.sandbox.find(retried))?.attempts).toBe(2);
    expect(await t.store.sandbox.totals()).toEqual({ accepted: 33, duplicates: 0 });

    // message.sent went to the webhook once per message sent, each delivery with its event.
    const sentEvents = hook.received.map((r) => JSON.parse(r.body) as { type: string; data: { message_id: string } });
    expect(sentEvents).toHaveLength(33);
    expect(new Set(sentEvents.map((e) => e.data.message_id)).size).toBe(33);

    // Charged: every message a provider took (32 normal + the silent one), released the rejected one.
    const balance = (await t.call('GET', '/v1/account/balance', await t.tokenFor(account))).json().data;
    expect(balance).toEqual({ credits: 1_000 - 33, reserved: 0, available: 1_000 - 33 });
    await expectLedgerBalanced();
    expect(await t.store.jobs.count()).toBe(0);
  });

  it('applies receipts in batches: delivered ones together, two for one message in order, an overtaking one implies the acceptance', async () => {
    await subscribe(['*']);
    const sent = await send('+14155552671');
    const twice = await send('+14155552672');
    const queued = await send('+14155552673');
    const wrongChannel = await send('+14155552674');
    // Hand over the first two only: their delivery jobs run, their receipts are removed unapplied.
    await t.database.db.deleteFrom('jobs').where('message_id', 'in', [queued, wrongChannel]).execute();
    await t.worker.runOnce();
    await t.database.db.deleteFrom('jobs').execute();
    const providerId = async (id: string) => (await t.store.messages.findById(id))?.providerMessageId as string;
    const at = t.clock.now();
    const [sentId, twiceId] = [await providerId(sent), await providerId(twice)];

    const results = await t.store.transaction((tx) =>
      applyReceipts(tx, [
        { channel: 'sms', providerMessageId: sentId, messageId: sent, status: 'delivered', occurredAt: at },
        { channel: 'sms', providerMessageId: twiceId, messageId: twice, status: 'delivered', occurredAt: at },
        { channel: 'sms', providerMessageId: twiceId, messageId: twice, status: 'read', occurredAt: at + 1 },
        { channel: 'sms', providerMessageId: 'carrier-7', messageId: queued, status: 'delivered', occurredAt: at },
        { channel: 'whatsapp', providerMessageId: 'x', messageId: wrongChannel, status: 'delivered', occurredAt: at },
        { channel: 'sms', providerMessageId: 'x', messageId: 'msg_nobody', status: 'delivered', occurredAt: at },
        { channel: 'sms', providerMessageId: 'x', messageId: 'msg_sms_01nobody', status: 'delivered', occurredAt: at },
        { channel: 'sms', providerMessageId: sentId, messageId: sent, status: 'failed', occurredAt: at + 2 },
      ]),
    );
    expect(results).toEqual(['applied', 'applied', 'applied', 'applied', 'unmatched', 'unmatched', 'unmatched', 'ignored']);
    expect(await history(sent)).toEqual(['queued', 'sent', 'delivered']);
    expect(await history(twice)).toEqual(['queued', 'sent', 'delivered', 'read']);
    expect(await history(queued)).toEqual(['queued', 'sent', 'delivered']);
    expect(await providerId(queued)).toBe('carrier-7');
    expect(await history(wrongChannel)).toEqual(['queued']);
    expect((await eventsOf(twice)).map((e) => e.data.sequence)).toEqual([1, 2, 3]);
    // Captured once each: three sent, one still reserved.
    const stored = await t.store.accounts.findAccount(account.account.id);
    expect({ credits: stored?.creditsMicros, reserved: stored?.reservedMicros }).toEqual({ credits: 997_000_000, reserved: 1_000_000 });
    await expectLedgerBalanced();
  });

  it('sets aside a message that breaks its batch (an unreadable stored payload) and delivers the rest', async () => {
    const good = [await send('+14155552671'), await send('+14155552672'), await send('+14155552673')];
    const broken = await send('+14155552674');
    await t.database.db.updateTable('messages').set({ payload: '{not json' }).where('id', '=', broken).execute();

    await t.drain();
    for (const id of good) expect(await history(id)).toEqual(['queued', 'sent', 'delivered']);
    expect(await history(broken)).toEqual(['queued']);
    const [job] = await t.database.db.selectFrom('jobs').selectAll().where('message_id', '=', broken).execute();
    expect(job?.last_error).toContain('JSON');
    expect(job?.locked_by).toBeNull();
    expect(job?.run_at).toBeGreaterThan(t.clock.now()); // after a backoff
    expect(await t.store.sandbox.totals()).toEqual({ accepted: 3, duplicates: 0 });
  });

  it('gives up a message whose delivery keeps failing inside Herald: after 25 failures in a row, failed with DISPATCH_FAILED and refunded', async () => {
    const receiver = await subscribe(['message.failed']);
    const broken = await send('+14155552675');
    await t.database.db.updateTable('messages').set({ payload: '{not json' }).where('id', '=', broken).execute();
    let claims = 0;
    while (claims < 40 && (await history(broken)).length === 1) {
      await t.drain();
      claims++;
      t.clock.advance(301_000); // past the longest backoff of a failing job
    }
    // Each drain claims the job once: given up at its 25th failure in a row, not before.
    expect(claims).toBe(25);
    expect(await t.store.jobs.count()).toBe(0);
    expect(await t.store.messages.findById(broken)).toMatchObject({
      status: 'failed',
      error: { code: 'DISPATCH_FAILED' },
      chargeState: 'released',
    });
    expect(await history(broken)).toEqual(['queued', 'failed']);
    const failed = receiver.received
      .map((r) => JSON.parse(r.body) as { data: { message_id: string } })
      .find((e) => e.data.message_id === broken);
    expect(failed).toMatchObject({ type: 'message.failed', data: { status: 'failed', error: { code: 'DISPATCH_FAILED' } } });
    const stored = await t.store.accounts.findAccount(account.account.id);
    expect(stored?.reservedMicros).toBe(0);
    expect(stored?.creditsMicros).toBe(1_000 * MICROS_PER_CREDIT);
    await expectLedgerBalanced();
  });

  it('puts a job back, still counted as failing, when its drop cannot be recorded, and drops it at the next failure', async () => {
    const broken = await send('+14155552677');
    await t.database.db.updateTable('messages').set({ payload: '{not json' }).where('id', '=', broken).execute();
    await t.database.db.updateTable('jobs').set({ failures: 24 }).where('message_id', '=', broken).execute();
    // Every transaction that drops a job fails (the database went away at that moment).
    const store = t.dispatch.store;
    t.dispatch.store = Object.assign({}, store, {
      groupedTransaction: <T>(work: (tx: Store) => Promise<T>): Promise<T> =>
        store.groupedTransaction((tx) =>
          work(
            Object.assign({}, tx, {
              jobs: Object.assign({}, tx.jobs, { drop: () => Promise.reject(new Error('connection reset')) }),
            }),
          ),
        ),
    });
    try {
      await t.drain();
    } finally {
      t.dispatch.store = store;
    }
    expect(await history(broken)).toEqual(['queued']);
    const [job] = await t.database.db
      .selectFrom('jobs')
      .select(['failures', 'run_at', 'last_error'])
      .where('message_id', '=', broken)
      .execute();
    expect(job?.failures).toBe(25);
    expect(job?.run_at).toBe(t.clock.now() + 300_000);
    expect(job?.last_error).toContain('could not be dropped');
    t.clock.advance(300_000);
    await t.drain();
    expect(await t.store.messages.findById(broken)).toMatchObject({ status: 'failed', error: { code: 'DISPATCH_FAILED' } });
    expect(await t.store.jobs.count()).toBe(0);
    await expectLedgerBalanced();
  });

  it("does not count a job's ordinary retries as failures: a job claimed 30 times for a provider outage is not given up at its first throw", async () => {
    const broken = await send('+14155552676');
    await t.database.db.updateTable('messages').set({ payload: '{not json' }).where('id', '=', broken).execute();
    await t.database.db.updateTable('jobs').set({ attempts: 30 }).where('message_id', '=', broken).execute();
    await t.drain();
    expect(await history(broken)).toEqual(['queued']);
    const [job] = await t.database.db.selectFrom('jobs').select(['attempts', 'failures']).where('message_id', '=', broken).execute();
    expect(job).toEqual({ attempts: 31, failures: 1 });
  });

  it('gives a provider with a throughput limit only what it can take within the send timeout; the rest go back untried', async () => {
    const sandbox = t.providers.sms;
    t.dispatch.providers = { ...t.dispatch.providers, sms: { ...sandbox, sendMany: undefined, maxPerSecond: 5 } };
    t.dispatch.sendTimeoutMs = 600;
    const ids = [];
    for (let i = 0; i < 15; i++) ids.push(await send(`+1415555${String(3000 + i)}`));

    await t.worker.runOnce();
    const histories = await Promise.all(ids.map(history));
    const sent = histories.filter((h) => h.includes('sent')).length;
    // A burst of 5, then 5 a second for 0.6 s: about 8 (bounds left loose for a slow machine).
    expect(sent).toBeGreaterThanOrEqual(5);
    expect(sent).toBeLessThanOrEqual(11);
    const waiting = ids.filter((_, i) => !histories[i]?.includes('sent'));
    for (const id of waiting) {
      const message = await t.store.messages.findById(id);
      expect(message?.dispatchState).toBeNull(); // not tried: nothing to ask the provider about
      expect(await t.store.sandbox.find(id)).toBeUndefined();
      const [job] = await t.database.db.selectFrom('jobs').selectAll().where('message_id', '=', id).execute();
      expect(job?.last_error).toBe('waiting for the provider throughput limit');
      expect(job?.locked_by).toBeNull();
    }
    expect(await t.store.sandbox.totals()).toEqual({ accepted: sent, duplicates: 0 });
  });

  it('records a wave again when its transaction fails, without handing any message over twice', async () => {
    const ids = [await send('+14155552671'), await send('+14155552672'), await send('+14155552673')];
    const real = t.dispatch.store;
    let calls = 0;
    // The worker's second transaction is the wave's record (the first claims the batch and marks it in flight).
    t.dispatch.store = {
      ...real,
      groupedTransaction: <T>(work: (tx: Store) => Promise<T>) =>
        ++calls === 2 ? Promise.reject(new Error('deadlock detected')) : real.groupedTransaction(work),
    };
    try {
      await t.worker.runOnce();
    } finally {
      t.dispatch.store = real;
    }
    expect(calls).toBeGreaterThanOrEqual(3);
    for (const id of ids) expect(await history(id)).toEqual(['queued', 'sent']);
    expect(await t.store.sandbox.totals()).toEqual({ accepted: 3, duplicates: 0 });
    await t.drain();
    for (const id of ids) expect(await history(id)).toEqual(['queued', 'sent', 'delivered']);
    expect(await t.store.sandbox.totals()).toEqual({ accepted: 3, duplicates: 0 });
    await expectLedgerBalanced();
  });

  it('claims a batch of deliveries and marks it in flight in one transaction, and records the wave in one more', async () => {
    const ids = [await send('+14155552671'), await send('+14155552672'), await send('+14155552673')];
    const real = t.dispatch.store;
    let calls = 0;
    t.dispatch.store = {
      ...real,
      groupedTransaction: <T>(work: (tx: Store) => Promise<T>) => {
        calls++;
        return real.groupedTransaction(work);
      },
    };
    try {
      expect(await t.worker.runOnce()).toBe(3);
    } finally {
      t.dispatch.store = real;
    }
    expect(calls).toBe(2);
    for (const id of ids) expect(await history(id)).toEqual(['queued', 'sent']);
    expect(await t.store.sandbox.totals()).toEqual({ accepted: 3, duplicates: 0 });
  });

  it('claims without the claim step when the step fails, and the batch takes the step itself: every message sent once', async () => {
    const ids = [await send('+14155552671'), await send('+14155552672'), await send('+14155552673')];
    const real = t.dispatch.store;
    let marks = 0;
    // The first in-flight mark fails (a broken row, a blip); the claim it was part of is made again without it.
    t.dispatch.store = {
      ...real,
      groupedTransaction: <T>(work: (tx: Store) => Promise<T>) =>
        real.groupedTransaction((tx) =>
          work({
            ...tx,
            messages: {
              ...tx.messages,
              markInFlight: (...args: Parameters<Store['messages']['markInFlight']>) =>
                ++marks === 1 ? Promise.reject(new Error('disk I/O error')) : tx.messages.markInFlight(...args),
            },
          }),
        ),
    };
    try {
      expect(await t.worker.runOnce()).toBe(3);
    } finally {
      t.dispatch.store = real;
    }
    expect(marks).toBe(2);
    for (const id of ids) expect(await history(id)).toEqual(['queued', 'sent']);
    expect(await t.store.sandbox.totals()).toEqual({ accepted: 3, duplicates: 0 });
    expect(await t.store.jobs.count()).toBe(3); // their receipts, one job each
  });

  it('shows why a message waits: the error of the attempt that put it back, while queued, cleared once it is sent', async () => {
    const id = await send('+15005550004'); // the sandbox's carrier fails its first attempt
    const view = async () => (await t.call('GET', `/v1/sms/${id}`, token)).json().data;
    await t.worker.runOnce();
    expect(await view()).toMatchObject({
      status: 'queued',
      error: { code: 'TEMPORARY_FAILURE', message: 'The carrier is temporarily unavailable (sandbox).' },
    });
    expect((await t.call('GET', `/v1/messages/${id}`, token)).json().data.error).toMatchObject({ code: 'TEMPORARY_FAILURE' });
    t.clock.advance(60_000); // past its backoff
    await t.drain();
    expect(await view()).toMatchObject({ status: 'delivered', error: null });
  });

  it('forgets why a message waited once it is canceled: it will not be sent', async () => {
    const id = await send('+15005550004');
    await t.worker.runOnce();
    expect((await t.call('GET', `/v1/sms/${id}`, token)).json().data.error).toMatchObject({ code: 'TEMPORARY_FAILURE' });
    expect((await t.call('POST', `/v1/messages/${id}/cancel`, token)).statusCode).toBe(200);
    expect((await t.call('GET', `/v1/sms/${id}`, token)).json().data).toMatchObject({ status: 'canceled', error: null });
  });

  if (dialect === 'postgres') {
    it('claims without marking when a message of the batch is held by another transaction (a cancel): no wait in the claim, no deadlock', async () => {
      const ids = [await send('+14155552671'), await send('+14155552672')];
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked: () => void = () => {};
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      // Another transaction holds the first message's row, as a cancel does between its two steps.
      const holder = t.database.db.transaction().execute(async (trx) => {
        await sql`select id from messages where id = ${ids[0]} for update`.execute(trx);
        locked();
        await released;
      });
      await isLocked;
      const run = t.worker.runOnce();
      // The claim does not wait for the row: its step fails at once and the claim is made without it.
      await until(
        async () => (await t.database.db.selectFrom('jobs').select('locked_by').where('locked_by', 'is not', null).execute()).length === 2,
        'the claim committed while the row is held',
      );
      release();
      await holder;
      expect(await run).toBe(2);
      for (const id of ids) expect(await history(id)).toEqual(['queued', 'sent']);
      expect(await t.store.sandbox.totals()).toEqual({ accepted: 2, duplicates: 0 });
    });
  }
});
