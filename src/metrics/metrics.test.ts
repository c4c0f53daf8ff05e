import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import { sampleOf, seriesIn } from '../../test/prometheus-text.js';
import { startReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';
import { PrometheusMeter } from './prometheus-meter.js';
import { type Scraper, scraperOf } from './scrape.js';

describeEachDialect('metrics, as the store says', (dialect) => {
  let t: TestApp;
  let meter: PrometheusMeter;
  let scraper: Scraper;
  let account: CreatedAccount;
  let token: string;
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    meter = new PrometheusMeter({ process: false });
    t = await createTestApp(dialect, { meter });
    scraper = scraperOf({ meter, store: t.store, clock: t.clock });
    account = await t.createAccount({ credits: 100_000 });
    token = await t.tokenFor(account);
    receiver = await startReceiver((delivery) => (delivery.body.includes('"message.failed"') ? 500 : 204));
    const registered = await t.call('POST', '/v1/webhooks', token, { url: `${receiver.url}/hooks`, events: ['*'] });
    expect(registered.statusCode).toBe(201);
  });
  afterEach(async () => {
    await t.close();
    await receiver.close();
  });

  const statusCounts = async () => {
    const rows = await t.database.db
      .selectFrom('messages')
      .select(['channel', 'status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy(['channel', 'status'])
      .execute();
    return Object.fromEntries(rows.map((row) => [`${row.channel} ${row.status}`, Number(row.n)]));
  };

  it('counts messages accepted, sent, delivered and failed as the store moved them, and the queue as it stands', async () => {
    const send = (to: string) => t.call('POST', '/v1/sms/send', token, { to, message: 'Your code is 123456' });
    for (let i = 0; i < 5; i++) expect((await send(`+1415555${2000 + i}`)).statusCode).toBe(200);
    expect((await send('+15005550001')).statusCode).toBe(200); // refused by the sandbox: failed
    expect((await send('+15005550002')).statusCode).toBe(200); // sent, then a failed receipt
    expect((await t.call('POST', '/v1/sms/send', token, { to: 'not a number', message: 'x' })).statusCode).toBe(422);

    let text = await scraper.scrape();
    expect(sampleOf(text, 'herald_messages_total', { channel: 'sms', status: 'queued' })).toBe(7);
    expect(sampleOf(text, 'herald_jobs', { kind: 'deliver_message', state: 'due' })).toBe(7);
    expect(sampleOf(text, 'herald_jobs', { kind: 'deliver_message', state: 'held' })).toBe(0);
    expect(sampleOf(text, 'herald_jobs_oldest_due_age_seconds', { kind: 'deliver_message' })).toBeGreaterThanOrEqual(0);
    expect(sampleOf(text, 'herald_http_requests_total', { route: '/v1/sms/send', method: 'POST', status: '200' })).toBe(7);
    expect(sampleOf(text, 'herald_http_requests_total', { route: '/v1/sms/send', method: 'POST', status: '422' })).toBe(1);
    expect(sampleOf(text, 'herald_http_request_duration_seconds_count', { route: '/v1/sms/send', method: 'POST' })).toBe(8);

    t.clock.advance(5_000);
    await t.drain();
    text = await scraper.scrape();
    const stored = await statusCounts();
    expect(stored).toEqual({ 'sms delivered': 5, 'sms failed': 2 });
    // Every move counted once: 6 handed over and sent, 5 delivered by receipt, 1 failed at once and 1 by receipt.
    expect(sampleOf(text, 'herald_messages_total', { channel: 'sms', status: 'sent' })).toBe(6);
    expect(sampleOf(text, 'herald_messages_total', { channel: 'sms', status: 'delivered' })).toBe(stored['sms delivered']);
    expect(sampleOf(text, 'herald_messages_total', { channel: 'sms', status: 'failed' })).toBe(stored['sms failed']);
    expect(sampleOf(text, 'herald_handover_duration_seconds_count', { channel: 'sms', provider: 'sandbox', outcome: 'accepted' })).toBe(6);
    expect(sampleOf(text, 'herald_handover_duration_seconds_count', { channel: 'sms', provider: 'sandbox', outcome: 'refused' })).toBe(1);
    expect(sampleOf(text, 'herald_receipts_total', { channel: 'sms', result: 'applied' })).toBe(6);
    expect(sampleOf(text, 'herald_delivered_after_seconds_count', { channel: 'sms' })).toBe(5);
    expect(sampleOf(text, 'herald_store_transaction_duration_seconds_count')).toBeGreaterThan(7);
    // Grouped commits where the store groups them (SQLite); PostgreSQL's sends batch in the accept queue instead.
    if (dialect === 'sqlite') expect(sampleOf(text, 'herald_group_commit_units_count')).toBeGreaterThan(0);
    else expect(sampleOf(text, 'herald_group_commit_units_count')).toBe(0);
    // Captured for the 6 the sandbox took (one credit each), none for the one it refused.
    expect(sampleOf(text, 'herald_credits_captured_total')).toBe(6);
    const ledger = await t.store.credits.ledger(account.account.id);
    expect(ledger.filter((entry) => entry.kind === 'capture').length).toBe(6);
    // Webhooks: the receiver took every event but message.failed (500: to be tried again).
    const deliveries = await t.database.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).execute();
    expect(sampleOf(text, 'herald_webhook_attempt_duration_seconds_count', { outcome: 'delivered' })).toBe(
      deliveries.filter((d) => d.status === 'succeeded').length,
    );
    expect(sampleOf(text, 'herald_webhook_attempt_duration_seconds_count', { outcome: 'retry' })).toBe(
      deliveries.filter((d) => d.status === 'pending' && Number(d.attempts) > 0).length,
    );
    expect(sampleOf(text, 'herald_webhook_attempt_duration_seconds_count', { outcome: 'delivered' })).toBeGreaterThan(0);
    expect(sampleOf(text, 'herald_jobs', { kind: 'deliver_message', state: 'stored' })).toBe(0);
    expect(sampleOf(text, 'herald_jobs_oldest_due_age_seconds', { kind: 'deliver_message' })).toBe(0);
    expect(sampleOf(text, 'herald_jobs', { kind: 'deliver_webhook', state: 'stored' })).toBe(2);
  });

  it('counts what a transaction counted once it commits: nothing of one rolled back, nor of a unit of a group commit rolled back alone', async () => {
    // The meter's own registry: a scrape also reads the store, which waits for the transaction.
    const sent = async () => sampleOf(await meter.registry.metrics(), 'herald_messages_total', { channel: 'sms', status: 'sent' });
    const tallied = async () => sampleOf(await meter.registry.metrics(), 'herald_messages_total', { channel: 'sms', status: 'read' });
    await t.store.transaction(async (tx) => {
      tx.meter.messages('sms', 'sent', 1);
      expect(await sent()).toBeUndefined(); // not before the commit
    });
    expect(await sent()).toBe(1);
    await expect(
      t.store.transaction(async (tx) => {
        tx.meter.messages('sms', 'sent', 5);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await sent()).toBe(1);
    const groups = async () => sampleOf(await meter.registry.metrics(), 'herald_group_commit_units_sum') ?? 0;
    const groupedBefore = await groups();
    // Started together, they share one transaction where the store groups commits (SQLite).
    const [kept, alone] = await Promise.allSettled([
      t.store.groupedTransaction(async (tx) => tx.meter.messages('sms', 'read', 2)),
      t.store.groupedTransaction(async (tx) => {
        tx.meter.messages('sms', 'read', 7);
        throw new Error('this unit alone');
      }),
      t.store.groupedTransaction(async (tx) => tx.meter.messages('sms', 'read', 3)),
    ]);
    expect(kept.status).toBe('fulfilled');
    expect(alone.status).toBe('rejected');
    expect(await tallied()).toBe(5);
    // SQLite did group them (so the rollback above was of one unit among three); PostgreSQL does not group.
    expect((await groups()) - groupedBefore).toBe(dialect === 'sqlite' ? 3 : 0);
  });

  it('a write that rolls back counts nothing: a send refused for its balance is not counted as accepted', async () => {
    const poor = await t.createAccount({ credits: 0 });
    const refused = await t.call('POST', '/v1/sms/send', await t.tokenFor(poor), { to: '+14155552671', message: 'hi' });
    expect(refused.statusCode).toBe(402);
    const text = await scraper.scrape();
    expect(sampleOf(text, 'herald_messages_total', { channel: 'sms', status: 'queued' })).toBeUndefined();
    expect(sampleOf(text, 'herald_http_requests_total', { route: '/v1/sms/send', method: 'POST', status: '402' })).toBe(1);
  });
});

/**
 * Labels come from the code (channels, providers, outcomes, route templates), never from the
 * traffic; one dialect shows it (the store adds no label of its own), at the size of the claim.
 */
describe('metrics cardinality', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('labels stay bounded: 10,000 distinct recipients, ids and unknown URLs add no series', async () => {
    const meter = new PrometheusMeter({ process: false });
    const t = await createTestApp('sqlite', { meter });
    cleanups.push(() => t.close());
    const scraper = scraperOf({ meter, store: t.store, clock: t.clock });
    const token = await t.tokenFor(await t.createAccount({ credits: 100_000 }));
    const bulk = (from: number) =>
      t.call('POST', '/v1/sms/bulk', token, {
        recipients: Array.from({ length: 1_000 }, (_, i) => `+1415555${String(from + i).padStart(4, '0')}`),
        message: 'Your order shipped',
      });
    expect((await bulk(0)).statusCode).toBe(200);
    expect((await t.call('GET', '/v1/messages?limit=1', token)).statusCode).toBe(200);
    const first = await t.database.db.selectFrom('messages').select('id').executeTakeFirstOrThrow();
    expect((await t.call('GET', `/v1/messages/${first.id}`, token)).statusCode).toBe(200);
    await t.call('GET', '/v1/messages/msg_sms_unknown', token);
    await t.call('GET', '/no/such/path', token);
    await t.app.inject({ method: 'PROPFIND', url: '/v1/messages' });
    t.clock.advance(5_000);
    await t.drain();
    const before = await scraper.scrape();

    for (let from = 1_000; from < 10_000; from += 1_000) expect((await bulk(from)).statusCode).toBe(200);
    const ids = (await t.database.db.selectFrom('messages').select('id').limit(50).execute()).map((row) => row.id);
    for (const id of ids) await t.call('GET', `/v1/messages/${id}`, token);
    for (let i = 0; i < 20; i++) await t.call('GET', `/no/such/path/${i}`, token);
    t.clock.advance(5_000);
    await t.drain();
    const after = await scraper.scrape();

    expect(sampleOf(after, 'herald_messages_total', { channel: 'sms', status: 'queued' })).toBe(10_000);
    expect(sampleOf(after, 'herald_messages_total', { channel: 'sms', status: 'delivered' })).toBe(10_000);
    expect(seriesIn(after)).toBe(seriesIn(before));
    expect(after).not.toMatch(/\+1415|msg_sms_|acc_|no\/such/);
    expect(sampleOf(after, 'herald_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).toBe(21);
  });
});
