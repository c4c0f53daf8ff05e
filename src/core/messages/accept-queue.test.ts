import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { CHANNELS, DEFAULT_PRICES } from '../../../test/channels.js';
import { describeEachDialect } from '../../../test/databases.js';
import { sendSms } from '../../channels/sms/send-sms.js';
import { storeOf } from '../../storage/store.js';
import { sumLedger } from '../accounts/ledger.js';
import type { CreatedAccount } from '../accounts/manage-accounts.js';
import { MICROS_PER_CREDIT } from '../credits.js';
import { ApiError } from '../errors.js';
import type { KeptAnswer, Store } from '../ports.js';
import { queuedMessage } from './accept-messages.js';
import { AcceptQueue, type AcceptUnit } from './accept-queue.js';
import type { Message } from './message.js';

/** Concurrent requests are accepted in batches (one transaction, multi-row writes); each is answered as if alone. */
describeEachDialect('accepting concurrent requests together', (dialect) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(() => t.close());

  const expectLedgerBalanced = async (account: CreatedAccount) => {
    const stored = await t.store.accounts.findAccount(account.account.id);
    const sums = sumLedger(await t.store.credits.ledger(account.account.id));
    expect(sums).toEqual({ creditsMicros: stored?.creditsMicros, reservedMicros: stored?.reservedMicros });
  };

  it('accepts exactly what the balance covers when 40 sends arrive at once, and refuses the rest with nothing written', async () => {
    const account = await t.createAccount({ credits: 25 });
    const token = await t.tokenFor(account);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.call('POST', '/v1/sms/send', token, { to: `+1415555${String(2000 + i)}`, message: 'Your code is 123456' }),
      ),
    );
    const accepted = responses.filter((r) => r.statusCode === 200);
    const refused = responses.filter((r) => r.statusCode === 402);
    expect(accepted).toHaveLength(25);
    expect(refused).toHaveLength(15);
    for (const response of refused) expect(response.json().error.code).toBe('INSUFFICIENT_CREDITS');
    const ids = accepted.map((r) => r.json().data.message_id as string);
    expect(new Set(ids).size).toBe(25);

    const stored = await t.store.accounts.findAccount(account.account.id);
    expect(stored?.reservedMicros).toBe(25 * MICROS_PER_CREDIT);
    expect(await t.store.jobs.count()).toBe(25);
    const rows = await t.database.db.selectFrom('messages').select('id').execute();
    expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
    for (const id of ids) expect((await t.store.messages.statusHistory(id)).map((h) => h.status)).toEqual(['queued']);
    // The list's unfiltered total comes from the account's counters, moved with the holds.
    const list = (await t.call('GET', '/v1/messages?limit=1', token)).json();
    expect(list.data.pagination.total).toBe(25);
    await expectLedgerBalanced(account);
  });

  const unit = (accountId: string, n: number, overrides: Partial<Message> = {}): AcceptUnit => {
    const now = t.clock.now();
    const draft = { channel: 'sms' as const, to: '+14155552671', body: 'hi', segments: 1, costMicros: MICROS_PER_CREDIT };
    const messages = Array.from({ length: n }, () => ({ ...queuedMessage(draft, accountId, now), ...overrides }));
    return { accountId, messages, payloads: messages.map(() => null), now, insufficient: () => new ApiError('INSUFFICIENT_CREDITS', 'no') };
  };

  it('writes the units of several accounts in one batch, each account held for its own', async () => {
    const a = await t.createAccount({ credits: 10 });
    const b = await t.createAccount({ credits: 3 });
    const queue = new AcceptQueue(t.store);
    const outcomes = await Promise.allSettled([
      queue.submit(unit(a.account.id, 4)),
      queue.submit(unit(b.account.id, 2)),
      queue.submit(unit(a.account.id, 5)),
      queue.submit(unit(b.account.id, 2)), // 4 > 3: refused
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    expect((await t.store.accounts.findAccount(a.account.id))?.reservedMicros).toBe(9 * MICROS_PER_CREDIT);
    expect((await t.store.accounts.findAccount(b.account.id))?.reservedMicros).toBe(2 * MICROS_PER_CREDIT);
    expect(await t.store.jobs.count()).toBe(11);
    await expectLedgerBalanced(a);
    await expectLedgerBalanced(b);
  });

  it("refuses the concurrent sends to a recipient on their own account's suppression list and writes the others", async () => {
    const a = await t.createAccount({ credits: 20 });
    const b = await t.createAccount({ credits: 20 });
    const [tokenA, tokenB] = [await t.tokenFor(a), await t.tokenFor(b)];
    const optedOut = '+14155550111';
    const added = await t.call('POST', '/v1/suppressions', tokenA, { channel: 'sms', recipient: optedOut, reason: 'opt_out' });
    expect(added.statusCode).toBe(201);
    const sends = [
      [tokenA, optedOut],
      [tokenA, '+14155550112'],
      [tokenB, optedOut], // another account's list does not apply
      [tokenA, optedOut],
      [tokenB, '+14155550113'],
    ] as const;
    const responses = await Promise.all(
      sends.map(([token, to]) => t.call('POST', '/v1/sms/send', token, { to, message: 'Your code is 123456' })),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([422, 200, 200, 422, 200]);
    for (const refused of [responses[0], responses[3]]) {
      expect(refused?.json().error.code).toBe('RECIPIENT_SUPPRESSED');
      expect(refused?.json().error.message).toContain(optedOut);
    }
    const rows = await t.database.db.selectFrom('messages').select(['account_id', 'recipient']).orderBy('recipient').execute();
    expect(rows).toEqual([
      { account_id: b.account.id, recipient: optedOut },
      { account_id: a.account.id, recipient: '+14155550112' },
      { account_id: b.account.id, recipient: '+14155550113' },
    ]);
    expect(await t.store.jobs.count()).toBe(3);
    expect((await t.store.accounts.findAccount(a.account.id))?.reservedMicros).toBe(MICROS_PER_CREDIT);
    await expectLedgerBalanced(a);
    await expectLedgerBalanced(b);
  });

  it('refuses a unit when any of its recipients is suppressed, naming the first in its order, and writes nothing of it', async () => {
    const account = await t.createAccount({ credits: 20 });
    const id = account.account.id;
    for (const recipient of ['+14155550121', '+14155550122']) {
      await t.store.suppressions.insert({
        accountId: id,
        channel: 'sms',
        recipient,
        reason: 'manual',
        source: 'api',
        note: null,
        createdAt: t.clock.now(),
      });
    }
    const queue = new AcceptQueue(t.store);
    const recipients = (...to: string[]) => to.map((r) => ({ channel: 'sms' as const, to: r }));
    const outcomes = await Promise.allSettled([
      queue.submit({ ...unit(id, 2), suppressible: recipients('+14155550100', '+14155550122', '+14155550121') }),
      queue.submit({ ...unit(id, 1), suppressible: recipients('+14155550100') }),
      queue.submit(unit(id, 1)), // nothing to look up: the caller set them aside
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    const refusal = (outcomes[0] as PromiseRejectedResult).reason as ApiError;
    expect(refusal.code).toBe('RECIPIENT_SUPPRESSED');
    expect(refusal.message).toContain('+14155550122');
    expect(await t.store.jobs.count()).toBe(2);
    await expectLedgerBalanced(account);
  });

  it('finds a suppressed recipient among more than one look-up names (1,200 in a batch)', async () => {
    const account = await t.createAccount({ credits: 20 });
    const id = account.account.id;
    const last = '+14155551199';
    await t.store.suppressions.insert({
      accountId: id,
      channel: 'sms',
      recipient: last,
      reason: 'opt_out',
      source: 'api',
      note: null,
      createdAt: t.clock.now(),
    });
    const many = Array.from({ length: 1_200 }, (_, i) => ({ channel: 'sms' as const, to: `+1415555${String(i).padStart(4, '0')}` }));
    const queue = new AcceptQueue(t.store);
    const outcomes = await Promise.allSettled([queue.submit({ ...unit(id, 1), suppressible: many }), queue.submit(unit(id, 1))]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled']);
    expect(((outcomes[0] as PromiseRejectedResult).reason as ApiError).message).toContain(last);
    expect(await t.store.jobs.count()).toBe(1);
  });

  it('splits what waits into batches of at most its message cap, never splitting a request', async () => {
    const account = await t.createAccount({ credits: 20 });
    const queue = new AcceptQueue(t.store, 3);
    const sizes = [2, 2, 5, 1, 1];
    const outcomes = await Promise.allSettled(sizes.map((n) => queue.submit(unit(account.account.id, n))));
    expect(outcomes.every((o) => o.status === 'fulfilled')).toBe(true);
    expect(await t.store.jobs.count()).toBe(11);
    await expectLedgerBalanced(account);
  });

  it('writes each unit of a batch that fails as a whole again on its own, so only the faulty one fails', async () => {
    const account = await t.createAccount({ credits: 10 });
    const queue = new AcceptQueue(t.store);
    const first = unit(account.account.id, 1);
    await queue.submit(first);
    // A unit reusing a stored message's id breaks the batch's multi-row insert.
    const faulty = unit(account.account.id, 1, { id: first.messages[0]?.id as string });
    const good = [unit(account.account.id, 2), unit(account.account.id, 1)];
    const outcomes = await Promise.allSettled([
      queue.submit(good[0] as AcceptUnit),
      queue.submit(faulty),
      queue.submit(good[1] as AcceptUnit),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).not.toBeInstanceOf(ApiError);
    expect((await t.store.accounts.findAccount(account.account.id))?.reservedMicros).toBe(4 * MICROS_PER_CREDIT);
    expect(await t.store.jobs.count()).toBe(4);
    await expectLedgerBalanced(account);
  });

  it("keeps each unit's answer under its Idempotency-Key in the batch; a unit whose key was taken over fails alone, writing nothing", async () => {
    const account = await t.createAccount({ credits: 10 });
    const accountId = account.account.id;
    const claim = async (key: string) => {
      const claimed = await t.store.transaction((tx) =>
        tx.idempotency.claim({ accountId, key, fingerprint: 'f', now: t.clock.now(), lockMs: 60_000, ttlMs: 86_400_000 }),
      );
      if (claimed.kind !== 'claimed') throw new Error(`${key} was not claimed`);
      return claimed.lease;
    };
    const answered = (key: string, lease: number): KeptAnswer<readonly Message[]> => ({
      async keep(tx, messages) {
        const body = JSON.stringify(messages.map((m) => m.id));
        if (!(await tx.idempotency.complete(accountId, key, lease, { statusCode: 200, contentType: null, body }))) {
          throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'taken over');
        }
      },
    });
    const kept = unit(accountId, 2);
    kept.answer = answered('kept', await claim('kept'));
    // Its claim is replaced by a retry's (a later lease) before the unit is written.
    const stale = unit(accountId, 1);
    stale.answer = answered('stale', await claim('stale'));
    t.clock.advance(60_001);
    await claim('stale');
    const plain = unit(accountId, 3);

    const queue = new AcceptQueue(t.store);
    const outcomes = await Promise.allSettled([queue.submit(kept), queue.submit(stale), queue.submit(plain)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });

    const rows = await t.database.db.selectFrom('idempotency_keys').select(['key', 'state', 'body']).orderBy('key').execute();
    expect(rows).toEqual([
      { key: 'kept', state: 'done', body: JSON.stringify(kept.messages.map((m) => m.id)) },
      { key: 'stale', state: 'running', body: null },
    ]);
    expect((await t.store.accounts.findAccount(accountId))?.reservedMicros).toBe(5 * MICROS_PER_CREDIT);
    expect(await t.store.jobs.count()).toBe(5);
    expect(await t.store.messages.findForAccount(stale.messages[0]?.id as string, accountId)).toBeUndefined();
    await expectLedgerBalanced(account);
  });

  /** The test store, with each grouped transaction held at its start until `open()` (and counted). */
  const gatedStore = () => {
    const deferred = () => {
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    };
    const gate = { calls: 0, opened: deferred(), started: deferred() };
    const store: Store = {
      ...t.store,
      async groupedTransaction(work) {
        gate.calls++;
        gate.started.resolve();
        await gate.opened.promise;
        return t.store.groupedTransaction(work);
      },
    };
    return { store, gate, open: () => gate.opened.resolve() };
  };

  it('takes into its batch the requests that arrive while its transaction begins', async () => {
    const account = await t.createAccount({ credits: 10 });
    const { store, gate, open } = gatedStore();
    const queue = new AcceptQueue(store);
    const first = queue.submit(unit(account.account.id, 1));
    await gate.started.promise;
    // The first request's transaction is on its way; these arrive before it has begun.
    const later = [queue.submit(unit(account.account.id, 2)), queue.submit(unit(account.account.id, 3))];
    open();
    await Promise.all([first, ...later]);
    expect(gate.calls).toBe(1);
    expect(await t.store.jobs.count()).toBe(6);
    await expectLedgerBalanced(account);
  });

  it('fails the requests it would have taken when its transaction cannot begin, writes nothing, and goes on with the next', async () => {
    const account = await t.createAccount({ credits: 10 });
    let refusals = 3; // the batch's, then each request's own try
    const store: Store = {
      ...t.store,
      groupedTransaction(work) {
        if (refusals-- > 0) return Promise.reject(new Error('cannot begin: disk I/O error'));
        return t.store.groupedTransaction(work);
      },
    };
    const queue = new AcceptQueue(store);
    const outcomes = await Promise.allSettled([queue.submit(unit(account.account.id, 1)), queue.submit(unit(account.account.id, 2))]);
    expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : 'fulfilled'))).toEqual([
      'cannot begin: disk I/O error',
      'cannot begin: disk I/O error',
    ]);
    expect(await t.store.jobs.count()).toBe(0);
    expect((await t.store.accounts.findAccount(account.account.id))?.reservedMicros).toBe(0);
    await queue.submit(unit(account.account.id, 4));
    expect(await t.store.jobs.count()).toBe(4);
    await expectLedgerBalanced(account);
  });

  it('writes each request in a transaction of its own under GROUP_COMMIT=false, with the same outcome', async () => {
    const account = await t.createAccount({ credits: 6 });
    const store = storeOf(t.database, { channels: CHANNELS, groupCommit: false });
    expect(store.sharesCommits).toBe(false);
    const deps = { store, clock: t.clock, prices: DEFAULT_PRICES };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => sendSms(deps, account.account.id, { to: `+1415555${String(4000 + i)}`, message: 'hi' })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(6);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused.map((o) => (o.reason as ApiError).code)).toEqual(Array(4).fill('INSUFFICIENT_CREDITS'));
    expect(await t.store.jobs.count()).toBe(6);
    await expectLedgerBalanced(account);
  });
});
