import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type Dialect, type HeraldDatabase } from '../../src/storage/database.js';
import { allocateDatabase, describeEachDialect, type TestDatabaseLocation } from '../databases.js';
import { TEST_PROVIDER_SECRETS } from '../logs.js';
import { heraldEnv, killLeftoverProcesses, type ProcessEnv, runCliOk, startServer, startWorker } from '../process.js';
import { type FakeSmsc, startFakeSmsc } from '../smsc/fake-smsc.js';
import { api, fetchToken } from './api.js';

/**
 * Worker processes sending SMS to an SMSC on loopback (the `smpp` package's server), killed with
 * SIGKILL again and again while they send; a last one finishes. The SMSC's own record of every
 * submit_sm says whether a message was submitted twice: never under SMS_RECOVERY=hold (what a
 * killed worker left in doubt is reported, not re-submitted), and counted under resend
 * (at-least-once). The store says how soon a killed worker's jobs were taken over: a lease after
 * its last renewal, not a minute.
 *
 * The suite's size is small; HERALD_SMPP_CRASH_FULL=1 runs 3,000 messages and 10 kills.
 */

const FULL = process.env.HERALD_SMPP_CRASH_FULL === '1';
const COUNT = FULL ? 3_000 : 300;
const KILLS = FULL ? 10 : 3;
/** submit_sm per second the workers keep to: slow enough for kills to land mid-send. */
const THROUGHPUT = FULL ? 200 : 40;
const LEASE_MS = FULL ? 15_000 : 4_000;

const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const recipient = (i: number) => `+1415556${String(i).padStart(4, '0')}`;

async function waitFor<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms for ${what}; last saw ${JSON.stringify(value)}`);
    await sleep(20);
  }
}

interface Outcome {
  duplicates: number;
  unconfirmed: number;
  takeoverMs: number[];
  submits: number;
}

function crashSuite(dialect: Dialect, policy: 'hold' | 'resend', check: (outcome: Outcome) => void): void {
  let location: TestDatabaseLocation;
  let database: HeraldDatabase;
  let smsc: FakeSmsc;
  beforeAll(async () => {
    smsc = await startFakeSmsc();
    smsc.receiptsFor(() => ({ stat: 'DELIVRD' }));
    location = allocateDatabase(dialect);
  });
  afterAll(async () => {
    await killLeftoverProcesses();
    await database?.close();
    await smsc?.close();
    await location?.drop();
  });

  it(`${COUNT} SMS, the worker SIGKILLed ${KILLS} times mid-send under SMS_RECOVERY=${policy}`, async () => {
    const env: ProcessEnv = heraldEnv(location, {
      DEMO_ACCOUNT: 'false',
      SMS_PROVIDER: 'smpp',
      SMPP_URL: `smpp://herald:${encodeURIComponent(TEST_PROVIDER_SECRETS.smppPassword)}@127.0.0.1:${smsc.port}`,
      SMPP_RECONNECT_MIN_MS: '100',
      SMPP_RECONNECT_MAX_MS: '500',
      SMPP_THROUGHPUT: String(THROUGHPUT),
      SMS_RECOVERY: policy,
    });
    const apiServer = await startServer(env, { worker: false });
    const account = JSON.parse(
      (
        await runCliOk(
          ['accounts', 'create', '--name', 'Crash Ltd', '--email', 'crash@example.com', '--credits', String(COUNT * 2), '--json'],
          env,
        )
      ).stdout,
    );
    const token = (
      await fetchToken(apiServer.url, { clientId: account.client_id, clientSecret: account.client_secret }, 'client_secret_post')
    ).access_token;
    for (let offset = 0; offset < COUNT; offset += 1_000) {
      const recipients = Array.from({ length: Math.min(1_000, COUNT - offset) }, (_, i) => recipient(offset + i));
      const sent = await api(apiServer.url, 'POST', '/v1/sms/bulk', token, { recipients, message: 'Crash test' });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    }
    expect(await apiServer.stop()).toEqual({ code: 0, signal: null });
    database = createDatabase({ url: location.url, schema: location.schema });
    const db = database.db;
    const leasedBy = async (workerId: string) =>
      Number(
        (
          await db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('locked_by', '=', workerId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    // 50 jobs in hand at most: what a kill can leave in doubt.
    const workerEnv = { ...env, WORKER_LEASE_MS: String(LEASE_MS), WORKER_BATCH_SIZE: '50', WORKER_CONCURRENCY: '50' };
    const queued = async () =>
      Number(
        (
          await db
            .selectFrom('messages')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '=', 'queued')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const takeoverMs: number[] = [];
    // Each worker is killed once it has submitted its share of what was left when it started.
    const startOne = async (kill: number) => {
      const share = Math.max(10, Math.floor((await queued()) / (KILLS - kill + 2)));
      return { before: smsc.submits.length, share, process: await startWorker(workerEnv) };
    };
    let current = await startOne(1);
    for (let kill = 1; kill <= KILLS; kill++) {
      const worker = current.process;
      const workerId = String(worker.logRecords().find((r) => r.msg === 'dispatch worker started')?.worker_id);
      const { before, share } = current;
      // Or until nothing is left to send (a hold can leave less than a share).
      await waitFor(
        'the worker to submit its share',
        async () => ({ submitted: smsc.submits.length - before, queued: await queued() }),
        (p) => p.submitted >= share || p.queued === 0,
        60_000,
      );
      expect(await worker.kill()).toEqual({ code: null, signal: 'SIGKILL' });
      const killedAt = Date.now();
      const left = await leasedBy(workerId);
      // The next worker starts at once; the dead one's jobs are its own once their lease runs out.
      current = await startOne(kill + 1);
      await waitFor(
        'the dead worker’s jobs to be taken over',
        () => leasedBy(workerId),
        (n) => n === 0,
        LEASE_MS * 4,
      );
      takeoverMs.push(Date.now() - killedAt);
      log(
        `[${dialect} ${policy}] kill ${kill}: ${left} jobs leased by the dead worker, all taken over ${Date.now() - killedAt} ms after the kill`,
      );
    }
    const last = current.process;
    const statuses = async () =>
      Object.fromEntries(
        (
          await db
            .selectFrom('messages')
            .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
            .groupBy('status')
            .execute()
        ).map((r) => [r.status, Number(r.n)]),
      );
    await waitFor('every message to leave queued', statuses, (s) => !s.queued, 120_000);
    expect(await last.stop()).toEqual({ code: 0, signal: null });

    const perDestination = new Map<string, number>();
    for (const submit of smsc.submits) perDestination.set(submit.destination, (perDestination.get(submit.destination) ?? 0) + 1);
    const duplicates = [...perDestination.values()].filter((n) => n > 1).length;
    const unconfirmed = Number(
      (
        await db
          .selectFrom('messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('error_code', '=', 'HANDOVER_UNCONFIRMED')
          .executeTakeFirstOrThrow()
      ).n,
    );
    const neverSubmitted = COUNT - perDestination.size;
    log(
      `[${dialect} ${policy}] ${COUNT} messages, ${KILLS} kills: ${smsc.submits.length} submit_sm, ${duplicates} messages submitted twice or more, ` +
        `${unconfirmed} held as HANDOVER_UNCONFIRMED (${neverSubmitted} of them never reached the SMSC), statuses ${JSON.stringify(await statuses())}, ` +
        `takeover after a kill ${takeoverMs.join(', ')} ms (lease ${LEASE_MS} ms)`,
    );
    // Message by message: one that never reached the SMSC was reported (held or failed), and one
    // reported sent or delivered without reservation did reach it.
    const rows = await db.selectFrom('messages').select(['recipient', 'status', 'error_code']).execute();
    expect(rows).toHaveLength(COUNT);
    const misreported = rows.filter((row) => {
      const submitted = perDestination.has(row.recipient.slice(1));
      const unconfirmedRow = row.error_code === 'HANDOVER_UNCONFIRMED';
      if (!submitted) return !(row.status === 'failed' || (row.status === 'sent' && unconfirmedRow));
      return row.status === 'queued';
    });
    expect(misreported).toEqual([]);
    // A killed worker's jobs resume a lease after its last renewal, give or take a claim: never a minute.
    for (const ms of takeoverMs) expect(ms).toBeLessThan(LEASE_MS * 3);
    check({ duplicates, unconfirmed, takeoverMs, submits: smsc.submits.length });
  }, 240_000);
}

describeEachDialect('SMPP workers killed mid-send, SMS_RECOVERY=hold', (dialect) => {
  crashSuite(dialect, 'hold', ({ duplicates }) => {
    expect(duplicates).toBe(0);
  });
});

describeEachDialect('SMPP workers killed mid-send, SMS_RECOVERY=resend', (dialect) => {
  crashSuite(dialect, 'resend', ({ unconfirmed }) => {
    // At-least-once: nothing is held; the duplicates are counted in the log line above.
    expect(unconfirmed).toBe(0);
  });
});
