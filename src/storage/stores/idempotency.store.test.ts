import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, useTestDatabase } from '../../../test/databases.js';
import { createAccount } from '../../core/accounts/manage-accounts.js';
import { ManualClock } from '../../core/clock.js';
import type { Store } from '../../core/ports.js';
import { createStore } from '../store.js';

describeEachDialect('idempotency store', (dialect) => {
  const test = useTestDatabase(dialect);
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  let store: Store;
  let accountId: string;
  const LOCK = 60_000;

  beforeAll(async () => {
    store = createStore(test.database.db);
    accountId = (await createAccount(store, clock, { name: 'Keys', email: 'keys@example.com', creditsMicros: 0 })).account.id;
  });

  const claim = (key: string) =>
    store.transaction((tx) =>
      tx.idempotency.claim({ accountId, key, fingerprint: 'f', now: clock.now(), lockMs: LOCK, ttlMs: 86_400_000 }),
    );
  const leaseOf = async (key: string) => {
    const claimed = await claim(key);
    if (claimed.kind !== 'claimed') throw new Error(`${key}: ${claimed.kind}`);
    return claimed.lease;
  };
  const answer = (body: string) => ({ statusCode: 200, contentType: 'application/json; charset=utf-8', body });

  it('keeps the answer of the claim that holds the key, and replays it', async () => {
    const lease = await leaseOf('k-held');
    expect(lease).toBe(clock.now() + LOCK);
    expect(await store.idempotency.complete(accountId, 'k-held', lease, answer('first'))).toBe(true);
    expect(await claim('k-held')).toEqual({ kind: 'replay', response: answer('first') });
    // Kept once: a second answer for the same claim changes nothing.
    expect(await store.idempotency.complete(accountId, 'k-held', lease, answer('second'))).toBe(false);
    expect(await claim('k-held')).toEqual({ kind: 'replay', response: answer('first') });
  });

  it('refuses the answer of a claim a retry took over after it lapsed; the retry keeps its own', async () => {
    const first = await leaseOf('k-lapsed');
    expect(await claim('k-lapsed')).toEqual({ kind: 'in_use' });
    clock.advance(LOCK + 1);
    const second = await leaseOf('k-lapsed');
    expect(second).toBeGreaterThan(first);
    expect(await store.idempotency.complete(accountId, 'k-lapsed', first, answer('late'))).toBe(false);
    // Nor may the first forget the retry's claim.
    await store.idempotency.release(accountId, 'k-lapsed', first);
    expect(await claim('k-lapsed')).toEqual({ kind: 'in_use' });
    expect(await store.idempotency.complete(accountId, 'k-lapsed', second, answer('retry'))).toBe(true);
    expect(await claim('k-lapsed')).toEqual({ kind: 'replay', response: answer('retry') });
  });

  it('forgets a claim released by its holder (a 5xx), so a retry runs at once', async () => {
    const lease = await leaseOf('k-failed');
    await store.idempotency.release(accountId, 'k-failed', lease);
    expect((await claim('k-failed')).kind).toBe('claimed');
  });
});
