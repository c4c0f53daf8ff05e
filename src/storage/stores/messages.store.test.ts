import { CompiledQuery, sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { CHANNELS } from '../../../test/channels.js';
import { describeEachDialect, recordingStatements, useTestDatabase } from '../../../test/databases.js';
import { createAccount } from '../../core/accounts/manage-accounts.js';
import { ManualClock } from '../../core/clock.js';
import { queuedMessage } from '../../core/messages/accept-messages.js';
import type { Store, Transition } from '../../core/ports.js';
import { createStore } from '../store.js';
import { messagesStore } from './messages.store.js';

describeEachDialect('moving many messages at once (transitionMany)', (dialect) => {
  const test = useTestDatabase(dialect);
  let store: Store;
  let accountId: string;
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  let recipients = 0;

  beforeAll(async () => {
    store = createStore(test.database.db, { channels: CHANNELS });
    accountId = (await createAccount(store, clock, { name: 'Movers', email: 'movers@example.com', creditsMicros: 0 })).account.id;
  });

  /** `count` new queued messages, in the order their ids were made. */
  async function queued(count: number): Promise<string[]> {
    const messages = Array.from({ length: count }, () =>
      queuedMessage(
        { channel: 'sms', to: `+1415555${String(++recipients).padStart(4, '0')}`, body: 'hi', costMicros: 0 },
        accountId,
        clock.now(),
        null,
        // Where each came from, read back with the move (the trail's log lines and spans need it).
        { requestId: `req_${recipients}`, traceContext: `00-${'1'.repeat(32)}-${String(recipients).padStart(16, '0')}-01` },
      ),
    );
    await store.messages.insertQueued(messages.map((message) => ({ message, payload: null })));
    return messages.map((message) => message.id);
  }

  const toSent = (messageId: string, n: number): Transition => ({
    messageId,
    from: ['queued'],
    to: 'sent',
    at: clock.now() + n,
    detail: `accepted as p-${n}`,
    sentAt: clock.now() + n,
    providerMessageId: `p-${n}`,
    chargeState: 'captured',
    clearInFlight: true,
  });

  it('moves each message with values of its own, writes its history and counts its event', async () => {
    const ids = await queued(3);
    const moved = await store.messages.transitionMany(
      ids.map((id, n) => toSent(id, n)),
      { countEvent: true },
    );
    expect([...moved.keys()].sort()).toEqual([...ids].sort());
    for (const [n, id] of ids.entries()) {
      const { message, eventSequence } = moved.get(id) as { message: { status: string }; eventSequence: number };
      expect(message).toEqual({
        id,
        accountId,
        channel: 'sms',
        to: expect.any(String),
        callbackUrl: null,
        status: 'sent',
        costMicros: 0,
        sentAt: clock.now() + n,
        deliveredAt: null,
        requestId: expect.stringMatching(/^req_\d+$/),
        traceContext: expect.stringMatching(/^00-1{32}-\d{16}-01$/),
      });
      expect(eventSequence).toBe(1);
      expect(await store.messages.findById(id)).toMatchObject({
        status: 'sent',
        providerMessageId: `p-${n}`,
        sentAt: clock.now() + n,
        chargeState: 'captured',
        dispatchState: null,
      });
      expect((await store.messages.statusHistory(id)).map((h) => [h.status, h.detail, h.occurredAt])).toEqual([
        ['queued', null, clock.now()],
        ['sent', `accepted as p-${n}`, clock.now() + n],
      ]);
    }
  });

  it('leaves a message whose status is not one of `from` as it was, and moves from any of several statuses', async () => {
    const [sent, queuedOne, other] = await queued(3);
    await store.messages.transitionMany([toSent(sent as string, 0)], { countEvent: false });
    const failing = (messageId: string, n: number): Transition => ({
      messageId,
      from: ['queued', 'sent'],
      to: 'failed',
      at: clock.now() + 10 + n,
      detail: null,
      error: { code: `E${n}`, message: `reason ${n}` },
    });
    const moved = await store.messages.transitionMany([failing(sent as string, 1), failing(queuedOne as string, 2)], { countEvent: false });
    expect(moved.size).toBe(2);
    expect(await store.messages.findById(sent as string)).toMatchObject({ status: 'failed', error: { code: 'E1', message: 'reason 1' } });
    expect(await store.messages.findById(queuedOne as string)).toMatchObject({
      status: 'failed',
      error: { code: 'E2', message: 'reason 2' },
    });
    // Already final: `failed` is not among `from`, so nothing moves and no history is written.
    const again = await store.messages.transitionMany([{ ...failing(sent as string, 3), from: ['queued', 'sent'] }], { countEvent: false });
    expect(again.size).toBe(0);
    expect(await store.messages.findById(sent as string)).toMatchObject({ error: { code: 'E1' } });
    expect((await store.messages.statusHistory(sent as string)).map((h) => h.status)).toEqual(['queued', 'sent', 'failed']);
    expect((await store.messages.findById(other as string))?.status).toBe('queued');
  });

  /** A cancel as the API makes it: only of a message no worker has taken. */
  const cancel = (messageId: string): Transition => ({
    messageId,
    from: ['queued'],
    to: 'canceled',
    at: clock.now(),
    detail: null,
    chargeState: 'released',
    requireNotInFlight: true,
  });

  it('skips a message a worker is handing over when the move requires none to be', async () => {
    const [inFlight, idle] = await queued(2);
    await store.messages.markInFlight([inFlight as string]);
    const moved = await store.messages.transitionMany([cancel(inFlight as string), cancel(idle as string)], { countEvent: true });
    expect([...moved.keys()]).toEqual([idle]);
    expect(await store.messages.findById(inFlight as string)).toMatchObject({ status: 'queued', dispatchState: 'in_flight' });
    expect(await store.messages.findById(idle as string)).toMatchObject({ status: 'canceled', chargeState: 'released' });
  });

  it('claims only on claim-only channels, keeps one already in flight so, and marks a claim in flight only at the attempt that made it', async () => {
    const [fresh, inDoubt, other] = await queued(3);
    await store.messages.markInFlight([inDoubt as string]);
    // Another worker takes them (a lease taken over for `inDoubt`): an SMS only claimed, unless already in flight.
    const taken = await store.messages.markInFlight([fresh as string, inDoubt as string], { claimOnly: ['sms'] });
    expect(taken.map((row) => [row.message.id, row.message.dispatchState, row.message.attempts]).sort()).toEqual(
      [
        [fresh, null, 0],
        [inDoubt, 'in_flight', 1],
      ].sort(),
    );
    expect(await store.messages.findById(fresh as string)).toMatchObject({ dispatchState: 'claimed', attempts: 1 });
    expect(await store.messages.findById(inDoubt as string)).toMatchObject({ dispatchState: 'in_flight', attempts: 2 });
    await store.messages.markInFlight([other as string], { claimOnly: ['email'] });
    expect(await store.messages.findById(other as string)).toMatchObject({ dispatchState: 'in_flight' });

    // Taken over while only claimed: the first claim's mark is fenced off, the second's goes through.
    await store.messages.markInFlight([fresh as string], { claimOnly: ['sms'] });
    expect(await store.messages.markHandedOver([{ messageId: fresh as string, attempts: 1 }])).toEqual(new Set());
    expect(
      await store.messages.markHandedOver([
        { messageId: fresh as string, attempts: 2 },
        { messageId: inDoubt as string, attempts: 2 },
      ]),
    ).toEqual(new Set([fresh]));
    expect(await store.messages.findById(fresh as string)).toMatchObject({ dispatchState: 'in_flight', attempts: 2 });
  });

  it('refuses to cancel a claimed message, and does not mark in flight one that is no longer queued', async () => {
    const [claimed, canceled] = await queued(2);
    await store.messages.markInFlight([claimed as string], { claimOnly: ['sms'] });
    expect(await store.messages.transition(cancel(claimed as string))).toBe(false);
    // Canceled before its claim: never claimed, so there is nothing to mark.
    expect(await store.messages.transition(cancel(canceled as string))).toBe(true);
    expect(await store.messages.markInFlight([canceled as string], { claimOnly: ['sms'] })).toEqual([]);
    expect(await store.messages.markHandedOver([{ messageId: canceled as string, attempts: 0 }])).toEqual(new Set());
    expect(await store.messages.findById(canceled as string)).toMatchObject({ status: 'canceled', dispatchState: null });
  });

  it('clears a mark only for the attempt that made it: a worker that lost the message to a later claim leaves that claim’s mark', async () => {
    const [id] = await queued(1);
    await store.messages.markInFlight([id as string]); // attempt 1, its worker then loses the job
    await store.messages.markInFlight([id as string]); // attempt 2, another worker's
    await store.messages.clearInFlight(id as string, 1);
    expect(await store.messages.findById(id as string)).toMatchObject({ dispatchState: 'in_flight', attempts: 2 });
    await store.messages.clearInFlight(id as string, 2);
    expect(await store.messages.findById(id as string)).toMatchObject({ dispatchState: null, attempts: 2 });
  });

  it('stores text with a broken surrogate pair (an emoji cut in half) readable, on both stores', async () => {
    const [id] = await queued(1);
    const cut = 'provider said: \ud83d';
    await store.messages.transitionMany(
      [{ messageId: id as string, from: ['queued'], to: 'failed', at: clock.now(), detail: null, error: { code: 'X', message: cut } }],
      { countEvent: false },
    );
    expect((await store.messages.findById(id as string))?.error).toEqual({ code: 'X', message: 'provider said: \ufffd' });
  });

  it('moves more messages than one statement takes, handed over in any order', async () => {
    const ids = await queued(1_500);
    const shuffled = ids.map((id, n) => toSent(id, n)).reverse();
    const moved = await store.messages.transitionMany(shuffled, { countEvent: false });
    expect(moved.size).toBe(1_500);
    expect((await store.messages.findById(ids[1_234] as string))?.providerMessageId).toBe('p-1234');
  });

  it('refuses changes of different kinds, or one message twice, moving nothing', async () => {
    const [a, b] = await queued(2);
    const mixed = { ...toSent(b as string, 1), providerMessageId: undefined } as Transition;
    delete (mixed as { providerMessageId?: string }).providerMessageId;
    await expect(store.messages.transitionMany([toSent(a as string, 0), mixed], { countEvent: false })).rejects.toThrow('one kind');
    await expect(store.messages.transitionMany([toSent(a as string, 0), toSent(a as string, 1)], { countEvent: false })).rejects.toThrow(
      'each message once',
    );
    expect((await store.messages.findById(a as string))?.status).toBe('queued');
    expect((await store.messages.findById(b as string))?.status).toBe('queued');
  });

  it('refuses a message given twice even when the two fall into different statements, moving nothing', async () => {
    const ids = await queued(1_000);
    const last = [...ids].sort().at(-1) as string;
    // Sorted by id, the two changes of `last` are the 1,000th and the 1,001st: one in each statement.
    const changes = [...ids.map((id, n) => toSent(id, n)), toSent(last, 1_000)];
    await expect(store.messages.transitionMany(changes, { countEvent: false })).rejects.toThrow('each message once');
    expect((await store.messages.findById(ids[0] as string))?.status).toBe('queued');
    expect((await store.messages.findById(last))?.status).toBe('queued');
  });
});

describeEachDialect("an account's messages period by period (activityByPeriod)", (dialect) => {
  const test = useTestDatabase(dialect);
  const DAY = 86_400_000;
  const from = Date.UTC(2026, 0, 1);

  it("reads indexes only, sorting nothing: a range of (account, status, created_at) per status and period, and of the failed messages' index per code", async () => {
    const store = createStore(test.database.db, { channels: CHANNELS });
    const clock = new ManualClock(from);
    const accountId = (await createAccount(store, clock, { name: 'Charted', email: 'charted@example.com', creditsMicros: 0 })).account.id;
    const message = queuedMessage({ channel: 'sms', to: '+14155550100', body: 'hi', costMicros: 0 }, accountId, from + 1);
    await store.messages.insertQueued([{ message, payload: null }]);
    await store.messages.transition({
      messageId: message.id,
      from: ['queued'],
      to: 'failed',
      at: from + 2,
      detail: null,
      error: { code: 'UNDELIV', message: 'no' },
    });

    // The store's own statements, recorded on their way to the database, then explained.
    const { db: recording, statements } = recordingStatements(test.database);
    const activity = await messagesStore(recording, test.database.capabilities, CHANNELS.names.length).activityByPeriod({
      accountId,
      from,
      to: from + 14 * DAY,
      periodMs: DAY,
      topReasons: 3,
    });
    expect(activity.periods[0]).toMatchObject({ created: 1, failed: 1, failureReasons: [{ code: 'UNDELIV', count: 1 }] });
    const [statement] = statements;
    if (!statement || statements.length !== 1) throw new Error(`the store ran ${statements.length} statements, not one`);
    const plan = await test.database.db.transaction().execute(async (trx) => {
      // Tables this small would let PostgreSQL prefer a sequential scan; the plan is what is tested.
      if (dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
      const explain = dialect === 'sqlite' ? 'explain query plan ' : 'explain (costs off) ';
      const { rows } = await trx.executeQuery(CompiledQuery.raw(explain + statement.sql, [...statement.parameters]));
      return JSON.stringify(rows);
    });
    // Covering: SQLite says so; PostgreSQL scans the index only. On a table this small PostgreSQL may
    // take the (account, channel, status, created_at) index as well; on a million rows it takes this one.
    expect(plan).toMatch(
      dialect === 'sqlite'
        ? /COVERING INDEX messages_account_status_created/
        : /Index Only Scan using messages_account_(channel_)?status_created/,
    );
    // The codes, one seek after another, and each code's failures in a period: the failed messages' index.
    expect(plan).toMatch(
      dialect === 'sqlite'
        ? /COVERING INDEX messages_account_failed \(account_id=\? AND error_code>\?\).*COVERING INDEX messages_account_failed \(account_id=\? AND error_code=\? AND created_at>\? AND created_at<\?\)/
        : /Index Only Scan using messages_account_failed.*Index Cond: \(\(account_id = .*error_code = codes\.code\) AND \(created_at >= /,
    );
    expect(plan).not.toMatch(/SCAN messages|SCAN m\b|Seq Scan|TEMP B-TREE|Sort/);
  });
});
