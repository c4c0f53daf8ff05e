import { beforeAll, expect, it } from 'vitest';
import { CHANNELS } from '../../../test/channels.js';
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
    store = createStore(test.database.db, { channels: CHANNELS });
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

  it('frees a key released by its holder (a 5xx): the next request runs at once, whatever its body', async () => {
    const lease = await leaseOf('k-failed');
    await store.idempotency.release(accountId, 'k-failed', lease);
    // Retried near the end of the key's day: the retry's answer is kept a whole day, as a new key's.
    clock.advance(23 * 3_600_000);
    const again = await store.transaction((tx) =>
      tx.idempotency.claim({ accountId, key: 'k-failed', fingerprint: 'another body', now: clock.now(), lockMs: LOCK, ttlMs: 86_400_000 }),
    );
    expect(again.kind).toBe('claimed');
    const row = await test.database.db
      .selectFrom('idempotency_keys')
      .select('expires_at')
      .where('key', '=', 'k-failed')
      .executeTakeFirstOrThrow();
    expect(Number(row.expires_at)).toBe(clock.now() + 86_400_000);
  });

  it('never hands the same lease out twice for a key, even to a claim made at the same moment after a release', async () => {
    const first = await leaseOf('k-reused');
    await store.idempotency.release(accountId, 'k-reused', first);
    // The same clock reading (another process's clock may lag): now + lock would be the old lease.
    const second = await leaseOf('k-reused');
    expect(second).toBeGreaterThan(first);
    expect(await store.idempotency.complete(accountId, 'k-reused', first, answer('stale'))).toBe(false);
    expect(await store.idempotency.complete(accountId, 'k-reused', second, answer('fresh'))).toBe(true);
  });
});
