import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type Dialect, type HeraldDatabase } from '../../src/storage/database.js';
import { storeOf } from '../../src/storage/store.js';
import { generateWebhookSecret } from '../../src/webhooks/signing.js';
import { verifyWebhook } from '../../src/webhooks/verify.js';
import { CHANNELS } from '../channels.js';
import { allocateDatabase, describeEachDialect, type TestDatabaseLocation } from '../databases.js';
import { heraldEnv, killLeftoverProcesses, type ProcessEnv, runCliOk, startServer, startWorker } from '../process.js';
import { startReceiver, type WebhookReceiver } from '../webhook-receiver.js';
import { api, fetchToken } from './api.js';

/**
 * Webhook delivery with real processes: an API-only `herald serve` accepts a bulk send, a
 * `herald worker` delivers the messages and their events to a receiver on loopback run by the
 * test, is killed with SIGKILL part-way, and a second worker finishes. The test reads the
 * database directly to know which events exist.
 */

const MESSAGES = 1_000; // each ordinary SMS makes two events: message.sent and message.delivered
const EVENTS = 2 * MESSAGES;

const log = (line: string) => process.stdout.write(`[webhooks e2e] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, probe: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms for ${what}; last saw ${JSON.stringify(value)}`);
    await sleep(50);
  }
}

interface Backlog {
  events: number;
  webhookJobs: number;
  pending: number;
  succeeded: number;
}

async function backlog(database: HeraldDatabase): Promise<Backlog> {
  const { db } = database;
  const events = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const jobs = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', 'deliver_webhook')
    .executeTakeFirstOrThrow();
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => [
      eb.fn.countAll<number>().filterWhere('status', '=', 'pending').as('pending'),
      eb.fn.countAll<number>().filterWhere('status', '=', 'succeeded').as('succeeded'),
    ])
    .executeTakeFirstOrThrow();
  return {
    events: Number(events.n),
    webhookJobs: Number(jobs.n),
    pending: Number(deliveries.pending),
    succeeded: Number(deliveries.succeeded),
  };
}

describeEachDialect('webhook delivery survives a worker killed mid-stream', (dialect: Dialect) => {
  let location: TestDatabaseLocation;
  let database: HeraldDatabase | undefined;
  let receiver: WebhookReceiver | undefined;

  beforeAll(() => {
    location = allocateDatabase(dialect);
  });
  afterAll(async () => {
    await killLeftoverProcesses();
    await receiver?.close();
    await database?.close();
    await location?.drop();
  });

  it(`${EVENTS} events, a worker SIGKILLed while delivering them, a second one finishes: every event arrives, duplicates keep their id`, async () => {
    const env: ProcessEnv = heraldEnv(location, {
      DEMO_ACCOUNT: 'false',
      SANDBOX_DELAY_MS: '0',
      WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    const workerEnv: ProcessEnv = { ...env, WORKER_LEASE_MS: '2000', SEND_TIMEOUT_MS: '1000', WEBHOOK_TIMEOUT_MS: '1000' };
    receiver = await startReceiver(() => 204);
    const hook = receiver;

    // An API-only server takes the sends; nothing is delivered until a worker starts.
    const server = await startServer(env, { worker: false });
    const created = await runCliOk(
      ['accounts', 'create', '--name', 'Hooks Ltd', '--email', 'ops@hooks.example', '--credits', String(MESSAGES + 10), '--json'],
      env,
    );
    const account = JSON.parse(created.stdout) as { account_id: string; client_id: string; client_secret: string };
    const { access_token: token } = await fetchToken(
      server.url,
      { clientId: account.client_id, clientSecret: account.client_secret },
      'client_secret_post',
    );

    // The webhook goes straight into the store (registration has its own tests); the account's
    // secret is made now so the test knows it.
    database = createDatabase({ url: location.url, schema: location.schema, poolSize: 2 });
    const store = storeOf(database, { channels: CHANNELS });
    await store.webhooks.create({
      id: 'wh_test_crash',
      accountId: account.account_id,
      url: `${hook.url}/herald`,
      events: ['*'],
      description: 'crash test',
      active: true,
      disabledReason: null,
      failingSince: null,
      createdAt: Date.now(),
    });
    const { secret } = await store.webhooks.signingSecrets(account.account_id, generateWebhookSecret, Date.now());

    const recipients = Array.from({ length: MESSAGES }, (_, i) => `+1415555${String(i).padStart(4, '0')}`);
    const sent = await api(server.url, 'POST', '/v1/sms/bulk', token, { recipients, message: 'Webhook crash test' });
    expect(sent.status).toBe(200);
    expect(sent.body.data.messages).toHaveLength(MESSAGES);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(await backlog(database)).toMatchObject({ events: 0, webhookJobs: 0 });

    // The first worker delivers until the receiver has a good share of the events; then the
    // receiver stops answering, so the worker dies with deliveries received but not recorded.
    const started = Date.now();
    const first = await startWorker(workerEnv);
    await hook.waitFor(EVENTS / 5, 60_000);
    hook.answer(() => 'hang');
    await waitFor(
      'a delivery held open by the receiver',
      () => hook.open(),
      (open) => open > 0,
      10_000,
    );
    expect(await first.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    const atKill = await backlog(database);
    const receivedAtKill = hook.received.length;
    log(
      `[${dialect}] killed the first worker after ${Date.now() - started} ms: ${receivedAtKill} requests received, ` +
        `${hook.open()} held open, backlog ${JSON.stringify(atKill)}`,
    );
    expect(receivedAtKill).toBeLessThan(EVENTS);

    // A second worker takes over once the dead worker's leases run out.
    hook.answer(() => 204);
    const second = await startWorker(workerEnv);
    const done = await waitFor(
      `all ${EVENTS} events delivered`,
      () => backlog(database as HeraldDatabase),
      (b) => b.events === EVENTS && b.succeeded === EVENTS && b.pending === 0 && b.webhookJobs === 0,
      90_000,
    );
    expect(await second.stop()).toEqual({ code: 0, signal: null });
    log(`[${dialect}] all delivered ${Date.now() - started} ms after the first worker started: ${JSON.stringify(done)}`);

    // Compare what arrived with the events table.
    const events = await database.db.selectFrom('events').select(['id', 'type', 'body']).execute();
    expect(events).toHaveLength(EVENTS);
    expect(events.filter((e) => e.type === 'message.sent')).toHaveLength(MESSAGES);
    expect(events.filter((e) => e.type === 'message.delivered')).toHaveLength(MESSAGES);
    const bodyById = new Map(events.map((e) => [e.id, e.body]));

    const copies = new Map<string, number>();
    let unverified = 0;
    for (const request of hook.received) {
      const id = JSON.parse(request.body).id as string;
      // A duplicate carries the same event: the Standard Webhooks id is the body's id, the body the stored one.
      expect(request.headers['webhook-id']).toBe(id);
      expect(request.body).toBe(bodyById.get(id));
      const headers = Object.fromEntries(Object.entries(request.headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
      if (!verifyWebhook({ secret, body: request.body, headers })) unverified++;
      copies.set(id, (copies.get(id) ?? 0) + 1);
    }
    const missing = events.filter((e) => !copies.has(e.id)).map((e) => e.id);
    const duplicated = [...copies.values()].filter((n) => n > 1);
    log(
      `[${dialect}] ${hook.received.length} requests for ${copies.size} events: ${duplicated.length} events arrived more than once ` +
        `(at most ${Math.max(0, ...duplicated)} times), ${missing.length} missing, ${unverified} failed verification`,
    );
    expect(missing).toEqual([]); // none lost
    expect(copies.size).toBe(EVENTS); // and nothing that is not an event
    expect(unverified).toBe(0);
    // The deliveries held open at the kill were received but never recorded: they came again.
    expect(duplicated.length).toBeGreaterThan(0);
  }, 180_000);
});
