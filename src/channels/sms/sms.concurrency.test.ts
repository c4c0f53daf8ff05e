import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { sumLedger } from '../../core/accounts/ledger.js';
import { MICROS_PER_CREDIT } from '../../core/credits.js';

const CREDITS = 37;
const REQUESTS = 100;

describeEachDialect('concurrent SMS sends on one balance', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it(`accepts exactly ${CREDITS} of ${REQUESTS} simultaneous 1-credit sends and refuses the rest with 402`, async () => {
    const account = await t.createAccount({ credits: CREDITS });
    const token = await t.tokenFor(account);

    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) => t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: `race ${i}` })),
    );

    const accepted = responses.filter((r) => r.statusCode === 200);
    const refused = responses.filter((r) => r.statusCode === 402);
    expect(accepted).toHaveLength(CREDITS);
    expect(refused).toHaveLength(REQUESTS - CREDITS);
    for (const response of refused) {
      expect(response.json()).toMatchObject({ success: false, error: { code: 'INSUFFICIENT_CREDITS' } });
    }
    const acceptedIds = accepted.map((r) => r.json().data.message_id as string);
    for (const response of accepted) expect(response.json().data).toMatchObject({ segments: 1, credits_used: 1 });
    expect(new Set(acceptedIds).size).toBe(CREDITS);

    // The balance: everything held, nothing available, nothing overspent.
    const balance = await t.call('GET', '/v1/account/balance', token);
    expect(balance.json().data).toEqual({ credits: CREDITS, reserved: CREDITS, available: 0 });

    // The ledger: the opening top-up plus one reserve per accepted message, summing to the balance.
    const ledger = await t.store.credits.ledger(account.account.id);
    expect(ledger).toHaveLength(CREDITS + 1);
    expect(ledger.filter((e) => e.kind === 'top_up')).toHaveLength(1);
    const reserves = ledger.filter((e) => e.kind === 'reserve');
    expect(reserves).toHaveLength(CREDITS);
    expect(reserves.every((e) => e.reservedDeltaMicros === MICROS_PER_CREDIT && e.creditsDeltaMicros === 0)).toBe(true);
    expect(reserves.map((e) => e.messageId).sort()).toEqual([...acceptedIds].sort());
    expect(sumLedger(ledger)).toEqual({ creditsMicros: CREDITS * MICROS_PER_CREDIT, reservedMicros: CREDITS * MICROS_PER_CREDIT });
    const stored = await t.store.accounts.findAccount(account.account.id);
    expect({ creditsMicros: stored?.creditsMicros, reservedMicros: stored?.reservedMicros }).toEqual(sumLedger(ledger));

    // The messages: exactly the accepted ones exist, each readable and queued.
    const messages = await t.database.db
      .selectFrom('messages')
      .select(['id', 'status', 'cost_micros'])
      .where('account_id', '=', account.account.id)
      .execute();
    expect(messages.map((m) => m.id).sort()).toEqual([...acceptedIds].sort());
    expect(messages.every((m) => m.status === 'queued' && Number(m.cost_micros) === MICROS_PER_CREDIT)).toBe(true);
    const history = await t.database.db
      .selectFrom('message_status_history')
      .select(['message_id'])
      .where('message_id', 'in', acceptedIds)
      .execute();
    expect(history).toHaveLength(CREDITS);
  });

  it('keeps two accounts racing side by side apart', async () => {
    const [a, b] = [await t.createAccount({ credits: 5 }), await t.createAccount({ credits: 8 })];
    const [tokenA, tokenB] = [await t.tokenFor(a), await t.tokenFor(b)];
    const send = (token: string) => t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'x' });
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0 ? send(tokenA).then((r) => ['a', r] as const) : send(tokenB).then((r) => ['b', r] as const),
      ),
    );
    const acceptedFor = (who: 'a' | 'b') => responses.filter(([w, r]) => w === who && r.statusCode === 200).length;
    expect(acceptedFor('a')).toBe(5);
    expect(acceptedFor('b')).toBe(8);
    expect((await t.call('GET', '/v1/account/balance', tokenA)).json().data).toEqual({ credits: 5, reserved: 5, available: 0 });
    expect((await t.call('GET', '/v1/account/balance', tokenB)).json().data).toEqual({ credits: 8, reserved: 8, available: 0 });
  });
});
