import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import type { Store } from '../core/ports.js';

/**
 * The answers an operator relies on when something is wrong: each test names the breakage it
 * catches, one that an earlier version of the suite let pass.
 */
describeEachDialect('operational paths', (dialect) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  // Breakage caught: the 500 path answering another status, or putting the error's message or stack in the body.
  it('answers a bug with 500 INTERNAL_ERROR in the envelope, its request id, and nothing of the error itself', async () => {
    let broken = false;
    const failing = (store: Store): Store =>
      Object.assign(Object.create(store) as Store, {
        accounts: Object.assign(Object.create(store.accounts), {
          findAccount: async (accountId: string) => {
            if (broken) throw new Error('boom: password=hunter2 at /srv/herald/secret.ts');
            return store.accounts.findAccount(accountId);
          },
        }),
      });
    t = await createTestApp(dialect, { wrapStore: failing });
    const token = await t.tokenFor(await t.createAccount());
    broken = true;
    const response = await t.call('GET', '/v1/account', token);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      success: false,
      error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side. Quote the request id when you contact support.' },
    });
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    expect(response.body).not.toMatch(/boom|hunter2|secret\.ts|\bat \//);
  });

  // Breakage caught: a store that cannot be reached (PostgreSQL restarting, a cut connection, SQLite's
  // lock held too long) answered 500 INTERNAL_ERROR, as if the request were a bug and not worth retrying.
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After while the store cannot be reached, and a bug still 500', async () => {
    const outages: Array<{ name: string; error: Error & { code?: string } }> = [
      {
        name: 'PostgreSQL shutting down',
        error: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      },
      { name: 'a connection failure', error: Object.assign(new Error('connection failure'), { code: '08006' }) },
      { name: 'a refused socket', error: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }) },
      { name: 'a cut connection', error: new Error('Connection terminated unexpectedly') },
      { name: "SQLite's lock held past its timeout", error: Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }) },
    ];
    let outage: Error | undefined;
    const unreachable = (store: Store): Store =>
      Object.assign(Object.create(store) as Store, {
        accounts: Object.assign(Object.create(store.accounts), {
          findAccount: async (accountId: string) => {
            if (outage) throw outage;
            return store.accounts.findAccount(accountId);
          },
        }),
      });
    t = await createTestApp(dialect, { wrapStore: unreachable });
    const token = await t.tokenFor(await t.createAccount());
    for (const { name, error } of outages) {
      outage = error;
      const response = await t.call('GET', '/v1/account', token);
      expect(response.statusCode, name).toBe(503);
      expect(response.headers['retry-after'], name).toBe('1');
      expect(response.json(), name).toEqual({
        success: false,
        error: { code: 'SERVICE_UNAVAILABLE', message: 'The service cannot reach its store at the moment; retry the request shortly.' },
      });
      expect(response.body, name).not.toMatch(/5432|terminat|locked/);
    }
    outage = new Error('a bug, not an outage');
    expect((await t.call('GET', '/v1/account', token)).statusCode).toBe(500);
    outage = undefined;
    expect((await t.call('GET', '/v1/account', token)).statusCode).toBe(200);
  });

  // Breakage caught: with an Idempotency-Key, the store's outage answered 500, not 503: the claim's
  // release after a 5xx failed too (the store was still out of reach), and the hook's error became
  // the answer. Seen at 10,000 sends through a PostgreSQL restart (test/e2e/many-nodes.e2e.test.ts).
  it('answers a send 503 when the store goes away mid-request even with an Idempotency-Key whose claim cannot be released', async () => {
    let outage: Error | undefined;
    const unreachable = (store: Store): Store =>
      Object.assign(Object.create(store) as Store, {
        groupedTransaction: ((work) => (outage ? Promise.reject(outage) : store.groupedTransaction(work))) as Store['groupedTransaction'],
        idempotency: Object.assign(Object.create(store.idempotency), {
          release: async (...args: Parameters<Store['idempotency']['release']>) => {
            if (outage) throw outage;
            return store.idempotency.release(...args);
          },
        }),
      });
    t = await createTestApp(dialect, { wrapStore: unreachable });
    const token = await t.tokenFor(await t.createAccount());
    outage = new Error('Connection terminated unexpectedly');
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/sms/send',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'outage-1' },
      payload: JSON.stringify({ to: '+14155552671', message: 'hi' }),
    });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json().error.code).toBe('SERVICE_UNAVAILABLE');
  });

  // Breakage caught: requests served (or shed without the envelope) while the node drains.
  it('answers every API request 503 SERVICE_UNAVAILABLE with Retry-After and Connection: close while draining; /healthz stays up', async () => {
    let draining = false;
    t = await createTestApp(dialect, { isDraining: () => draining });
    const token = await t.tokenFor(await t.createAccount());
    draining = true;
    const send = await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'hi' });
    expect(send.statusCode).toBe(503);
    expect(send.json()).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(send.headers['retry-after']).toBe('1');
    expect(send.headers.connection).toBe('close');
    expect(
      (
        await t.store.messages.list({
          accountId: (await t.store.accounts.listAccounts())[0]?.id ?? '',
          channels: ['sms'],
          limit: 1,
          offset: 0,
        })
      ).total,
    ).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'draining' });
  });

  // Breakage caught: /readyz saying ready with migrations pending.
  it('is not ready while a migration is pending, and names it', async () => {
    t = await createTestApp(dialect);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await sql`delete from herald_migrations where name = '0016-message-counts'`.execute(t.database.db);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'unavailable', checks: { store: 'ok', migrations: 'pending: 0016-message-counts' } });
  });

  // Breakage caught: /readyz saying ready with the store down.
  it('is not ready when the store does not answer', async () => {
    const app = await createTestApp(dialect);
    try {
      await app.database.close();
      const ready = await app.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'unavailable', checks: { store: 'unreachable' } });
      expect((await app.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.app.close();
      await app.location.drop();
    }
  });
});
