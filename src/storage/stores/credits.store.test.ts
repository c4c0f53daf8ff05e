import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../test/channels.js';
import { describeEachDialect, useTestDatabase } from '../../../test/databases.js';
import { sumLedger } from '../../core/accounts/ledger.js';
import { createAccount } from '../../core/accounts/manage-accounts.js';
import { ManualClock } from '../../core/clock.js';
import { BalanceLimitError, MICROS_PER_CREDIT } from '../../core/credits.js';
import { newMessageId } from '../../core/ids.js';
import { queuedMessage as newQueuedMessage } from '../../core/messages/accept-messages.js';
import type { Message } from '../../core/messages/message.js';
import type { Store } from '../../core/ports.js';
import { createStore } from '../store.js';

const C = MICROS_PER_CREDIT;

describeEachDialect('credits store', (dialect) => {
  const test = useTestDatabase(dialect);
  let store: Store;
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  let accounts = 0;

  beforeAll(() => {
    store = createStore(test.database.db, { channels: CHANNELS });
  });

  /** A new account holding `micros` (nothing when 0), created as the product does it. */
  async function newAccount(micros: number): Promise<string> {
    accounts++;
    const created = await createAccount(store, clock, {
      name: `Store account ${accounts}`,
      email: `store${accounts}@example.com`,
      creditsMicros: micros,
    });
    return created.account.id;
  }

  async function balance(accountId: string) {
    const account = await store.accounts.findAccount(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    return { creditsMicros: account.creditsMicros, reservedMicros: account.reservedMicros };
  }

  async function expectLedgerMatchesBalance(accountId: string) {
    const current = await balance(accountId);
    expect(sumLedger(await store.credits.ledger(accountId))).toEqual(current);
    expect(current.reservedMicros).toBeGreaterThanOrEqual(0);
    expect(current.reservedMicros).toBeLessThanOrEqual(current.creditsMicros);
    return current;
  }

  const messageId = () => newMessageId('sms', clock.now());

  const queuedMessage = (accountId: string, id: string, costMicros: number): Message =>
    newQueuedMessage({ id, channel: 'sms', to: '+14155552671', body: 'hi', segments: 1, costMicros }, accountId, clock.now());

  describe('top-up', () => {
    it('refuses a top-up that would take the balance past the largest exact amount, writing nothing', async () => {
      const accountId = await newAccount(0);
      await store.credits.topUp(accountId, Number.MAX_SAFE_INTEGER - 10, clock.now(), 'almost all');
      const before = await store.credits.ledger(accountId);
      const refused = store.credits.topUp(accountId, 11, clock.now(), 'one too many');
      await expect(refused).rejects.toBeInstanceOf(BalanceLimitError);
      // The limit as the balance it is, written exactly (not the nearest double, ...740992).
      await expect(refused).rejects.toThrow('the balance would exceed 9007199254.740991 credits, the largest amount kept exactly');
      expect(await store.credits.ledger(accountId)).toEqual(before);
      await store.credits.topUp(accountId, 10, clock.now(), 'exactly the limit');
      expect(await balance(accountId)).toEqual({ creditsMicros: Number.MAX_SAFE_INTEGER, reservedMicros: 0 });
    });

    it('raises credits, leaves reserved alone and writes one top_up row with its note', async () => {
      const accountId = await newAccount(0);
      expect(await balance(accountId)).toEqual({ creditsMicros: 0, reservedMicros: 0 });
      await store.credits.topUp(accountId, 2_500_000, clock.now(), 'invoice 42');
      expect(await balance(accountId)).toEqual({ creditsMicros: 2_500_000, reservedMicros: 0 });
      const ledger = await store.credits.ledger(accountId);
      expect(ledger).toEqual([
        {
          id: expect.stringMatching(/^led_[0-9a-z]{26}$/),
          accountId,
          kind: 'top_up',
          creditsDeltaMicros: 2_500_000,
          reservedDeltaMicros: 0,
          messageId: null,
          note: 'invoice 42',
          createdAt: clock.now(),
        },
      ]);
    });

    it('refuses a zero, negative or fractional amount, writing nothing', async () => {
      const accountId = await newAccount(C);
      for (const micros of [0, -C, 0.5, Number.NaN]) {
        await expect(store.credits.topUp(accountId, micros, clock.now(), null)).rejects.toThrow();
      }
      expect(await balance(accountId)).toEqual({ creditsMicros: C, reservedMicros: 0 });
      expect(await store.credits.ledger(accountId)).toHaveLength(1);
    });

    it('fails for an unknown account, writing no ledger row', async () => {
      await expect(store.credits.topUp('acc_missing', C, clock.now(), null)).rejects.toThrow(/does not exist/);
      expect(await store.credits.ledger('acc_missing')).toEqual([]);
    });
  });

  describe('reserve', () => {
    it('holds the amount in reserved, leaves credits alone and ties the row to the message', async () => {
      const accountId = await newAccount(10 * C);
      const id = messageId();
      expect(await store.credits.reserve(accountId, 3 * C, id, clock.now())).toBe(true);
      expect(await balance(accountId)).toEqual({ creditsMicros: 10 * C, reservedMicros: 3 * C });
      const ledger = await store.credits.ledger(accountId);
      expect(ledger.map((e) => [e.kind, e.creditsDeltaMicros, e.reservedDeltaMicros, e.messageId])).toEqual([
        ['top_up', 10 * C, 0, null],
        ['reserve', 0, 3 * C, id],
      ]);
    });

    it('can hold exactly the available amount, then refuses even one micro-credit more', async () => {
      const accountId = await newAccount(5 * C);
      expect(await store.credits.reserve(accountId, 2 * C, messageId(), clock.now())).toBe(true);
      expect(await store.credits.reserve(accountId, 3 * C, messageId(), clock.now())).toBe(true);
      const before = await store.credits.ledger(accountId);
      expect(await store.credits.reserve(accountId, 1, messageId(), clock.now())).toBe(false);
      expect(await balance(accountId)).toEqual({ creditsMicros: 5 * C, reservedMicros: 5 * C });
      expect(await store.credits.ledger(accountId)).toEqual(before);
    });

    it('refuses, returning false and writing nothing, when available is below the amount', async () => {
      const accountId = await newAccount(10 * C);
      expect(await store.credits.reserve(accountId, 7 * C, messageId(), clock.now())).toBe(true);
      const before = await store.credits.ledger(accountId);
      // credits 10, reserved 7: 3 available, so 4 is refused although credits alone would cover it.
      expect(await store.credits.reserve(accountId, 4 * C, messageId(), clock.now())).toBe(false);
      expect(await balance(accountId)).toEqual({ creditsMicros: 10 * C, reservedMicros: 7 * C });
      expect(await store.credits.ledger(accountId)).toEqual(before);
      expect(await store.credits.reserve(accountId, 3 * C, messageId(), clock.now())).toBe(true);
    });

    it('refuses on an account with no credits at all', async () => {
      const accountId = await newAccount(0);
      expect(await store.credits.reserve(accountId, 1, messageId(), clock.now())).toBe(false);
      expect(await store.credits.ledger(accountId)).toEqual([]);
    });

    it('refuses for an unknown account', async () => {
      expect(await store.credits.reserve('acc_missing', 1, messageId(), clock.now())).toBe(false);
      expect(await store.credits.ledger('acc_missing')).toEqual([]);
    });

    it('holds the sum of several holds in one go and moves each channel’s message counter by its own count', async () => {
      const accountId = await newAccount(10 * C);
      const holds = [1, 2, 3].map((n) => ({ messageId: messageId(), micros: n * C }));
      expect(await store.credits.reserveMany(accountId, holds, clock.now(), { sms: 2, whatsapp: 1, telegram: 4 })).toBe(true);
      expect(await balance(accountId)).toEqual({ creditsMicros: 10 * C, reservedMicros: 6 * C });
      const counters = await test.database.db
        .selectFrom('account_message_counts')
        .select(['channel', 'messages'])
        .where('account_id', '=', accountId)
        .orderBy('channel')
        .execute();
      expect(counters.map((row) => [row.channel, Number(row.messages)])).toEqual([
        ['sms', 2],
        ['telegram', 4],
        ['whatsapp', 1],
      ]);
      const held = (await store.credits.ledger(accountId)).filter((entry) => entry.kind === 'reserve');
      expect(held.map((entry) => entry.messageId).sort()).toEqual(holds.map((hold) => hold.messageId).sort());
      // More than is left: refused whole, counters and balance as they were.
      expect(await store.credits.reserveMany(accountId, [{ messageId: messageId(), micros: 5 * C }], clock.now(), { email: 1 })).toBe(
        false,
      );
      expect(await balance(accountId)).toEqual({ creditsMicros: 10 * C, reservedMicros: 6 * C });
      await expectLedgerMatchesBalance(accountId);
    });

    it('never over-commits when many reservations race for the same credits', async () => {
      const accountId = await newAccount(7 * C);
      const results = await Promise.all(
        Array.from({ length: 30 }, () => store.transaction((tx) => tx.credits.reserve(accountId, C, messageId(), clock.now()))),
      );
      expect(results.filter(Boolean)).toHaveLength(7);
      expect(await expectLedgerMatchesBalance(accountId)).toEqual({ creditsMicros: 7 * C, reservedMicros: 7 * C });
      expect((await store.credits.ledger(accountId)).filter((e) => e.kind === 'reserve')).toHaveLength(7);
    });
  });

  describe('capture and release', () => {
    it('capture takes the held amount out of both credits and reserved', async () => {
      const accountId = await newAccount(10 * C);
      const id = messageId();
      await store.credits.reserve(accountId, 4 * C, id, clock.now());
      await store.credits.capture(accountId, 4 * C, id, clock.now());
      expect(await balance(accountId)).toEqual({ creditsMicros: 6 * C, reservedMicros: 0 });
      const last = (await store.credits.ledger(accountId)).at(-1);
      expect(last).toMatchObject({ kind: 'capture', creditsDeltaMicros: -4 * C, reservedDeltaMicros: -4 * C, messageId: id });
    });

    it('release gives the held amount back without touching credits', async () => {
      const accountId = await newAccount(10 * C);
      const id = messageId();
      await store.credits.reserve(accountId, 4 * C, id, clock.now());
      await store.credits.release(accountId, 4 * C, id, clock.now());
      expect(await balance(accountId)).toEqual({ creditsMicros: 10 * C, reservedMicros: 0 });
      const last = (await store.credits.ledger(accountId)).at(-1);
      expect(last).toMatchObject({ kind: 'release', creditsDeltaMicros: 0, reservedDeltaMicros: -4 * C, messageId: id });
    });

    it('makes released credits available to the next reservation, captured ones not', async () => {
      const accountId = await newAccount(3 * C);
      const [a, b] = [messageId(), messageId()];
      expect(await store.credits.reserve(accountId, 2 * C, a, clock.now())).toBe(true);
      expect(await store.credits.reserve(accountId, C, b, clock.now())).toBe(true);
      await store.credits.release(accountId, 2 * C, a, clock.now());
      await store.credits.capture(accountId, C, b, clock.now());
      expect(await balance(accountId)).toEqual({ creditsMicros: 2 * C, reservedMicros: 0 });
      expect(await store.credits.reserve(accountId, 3 * C, messageId(), clock.now())).toBe(false);
      expect(await store.credits.reserve(accountId, 2 * C, messageId(), clock.now())).toBe(true);
      await expectLedgerMatchesBalance(accountId);
    });

    it('lists the ledger in the order the movements were written, even within one millisecond', async () => {
      const accountId = await newAccount(5 * C);
      const id = messageId();
      await store.credits.reserve(accountId, 2 * C, id, clock.now());
      await store.credits.capture(accountId, 2 * C, id, clock.now());
      await store.credits.topUp(accountId, C, clock.now(), null);
      await store.credits.reserve(accountId, C, id, clock.now());
      await store.credits.release(accountId, C, id, clock.now());
      const kinds = (await store.credits.ledger(accountId)).map((e) => e.kind);
      expect(kinds).toEqual(['top_up', 'reserve', 'capture', 'top_up', 'reserve', 'release']);
    });
  });

  describe('transactions', () => {
    it('leaves nothing behind when the transaction fails after a reserve', async () => {
      const accountId = await newAccount(10 * C);
      const before = await store.credits.ledger(accountId);
      const id = messageId();
      await expect(
        store.transaction(async (tx) => {
          expect(await tx.credits.reserve(accountId, 4 * C, id, clock.now())).toBe(true);
          await tx.messages.insertQueued([{ message: queuedMessage(accountId, id, 4 * C), payload: null }]);
          // Inside the transaction the hold is visible...
          expect((await tx.accounts.findAccount(accountId))?.reservedMicros).toBe(4 * C);
          throw new Error('provider lookup failed');
        }),
      ).rejects.toThrow('provider lookup failed');
      // ...and after the rollback nothing of it remains.
      expect(await balance(accountId)).toEqual({ creditsMicros: 10 * C, reservedMicros: 0 });
      expect(await store.credits.ledger(accountId)).toEqual(before);
      expect(await store.messages.findForAccount(id, accountId)).toBeUndefined();
      expect(await store.messages.statusHistory(id)).toEqual([]);
    });

    it('commits a reserve and its message together', async () => {
      const accountId = await newAccount(10 * C);
      const id = messageId();
      await store.transaction(async (tx) => {
        await tx.credits.reserve(accountId, 2 * C, id, clock.now());
        await tx.messages.insertQueued([{ message: queuedMessage(accountId, id, 2 * C), payload: null }]);
      });
      expect(await balance(accountId)).toEqual({ creditsMicros: 10 * C, reservedMicros: 2 * C });
      expect(await store.messages.findForAccount(id, accountId)).toMatchObject({ id, costMicros: 2 * C, status: 'queued' });
    });

    it('rolls back a nested transaction with its outer one', async () => {
      const accountId = await newAccount(10 * C);
      await expect(
        store.transaction(async (tx) => {
          await tx.transaction((inner) => inner.credits.reserve(accountId, C, messageId(), clock.now()));
          await tx.credits.topUp(accountId, C, clock.now(), null);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await balance(accountId)).toEqual({ creditsMicros: 10 * C, reservedMicros: 0 });
      expect(await store.credits.ledger(accountId)).toHaveLength(1);
    });
  });

  describe('ledger and balance agree', () => {
    it('after a fixed sequence of every kind of movement', async () => {
      const accountId = await newAccount(4 * C);
      const [a, b, c] = [messageId(), messageId(), messageId()];
      await store.credits.reserve(accountId, 1_500_000, a, clock.now());
      await store.credits.reserve(accountId, 2 * C, b, clock.now());
      await store.credits.topUp(accountId, 50_000, clock.now(), null);
      await store.credits.capture(accountId, 1_500_000, a, clock.now());
      await store.credits.reserve(accountId, 550_000, c, clock.now());
      await store.credits.release(accountId, 2 * C, b, clock.now());
      expect(await expectLedgerMatchesBalance(accountId)).toEqual({ creditsMicros: 2_550_000, reservedMicros: 550_000 });
    });

    type Op =
      | { kind: 'topUp'; micros: number }
      | { kind: 'reserve'; micros: number }
      | { kind: 'capture'; pick: number }
      | { kind: 'release'; pick: number }
      | { kind: 'failedSend'; micros: number };

    const amount = fc.integer({ min: 1, max: 5 * C });
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('topUp' as const), micros: amount }),
      fc.record({ kind: fc.constant('reserve' as const), micros: amount }),
      fc.record({ kind: fc.constant('capture' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('failedSend' as const), micros: amount }),
    );

    it('keeps ledger == balance and 0 <= reserved <= credits over any sequence of movements', async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 10 * C }), fc.array(op, { maxLength: 20 }), async (opening, ops) => {
          const accountId = await newAccount(opening);
          const model = { credits: opening, reserved: 0 };
          const holds: { messageId: string; micros: number }[] = [];
          let rows = opening > 0 ? 1 : 0;

          for (const step of ops) {
            clock.advance(1);
            const now = clock.now();
            switch (step.kind) {
              case 'topUp':
                await store.transaction((tx) => tx.credits.topUp(accountId, step.micros, now, null));
                model.credits += step.micros;
                rows++;
                break;
              case 'reserve': {
                const id = messageId();
                const held = await store.transaction((tx) => tx.credits.reserve(accountId, step.micros, id, now));
                expect(held).toBe(model.credits - model.reserved >= step.micros);
                if (held) {
                  model.reserved += step.micros;
                  holds.push({ messageId: id, micros: step.micros });
                  rows++;
                }
                break;
              }
              case 'capture':
              case 'release': {
                if (holds.length === 0) break;
                const [hold] = holds.splice(step.pick % holds.length, 1);
                if (!hold) break;
                if (step.kind === 'capture') {
                  await store.transaction((tx) => tx.credits.capture(accountId, hold.micros, hold.messageId, now));
                  model.credits -= hold.micros;
                } else {
                  await store.transaction((tx) => tx.credits.release(accountId, hold.micros, hold.messageId, now));
                }
                model.reserved -= hold.micros;
                rows++;
                break;
              }
              case 'failedSend':
                await expect(
                  store.transaction(async (tx) => {
                    await tx.credits.reserve(accountId, step.micros, messageId(), now);
                    throw new Error('rolled back');
                  }),
                ).rejects.toThrow('rolled back');
                break;
            }
            const current = await expectLedgerMatchesBalance(accountId);
            expect(current).toEqual({ creditsMicros: model.credits, reservedMicros: model.reserved });
          }
          expect(await store.credits.ledger(accountId)).toHaveLength(rows);
        }),
        { numRuns: 40 },
      );
    });
  });
});
