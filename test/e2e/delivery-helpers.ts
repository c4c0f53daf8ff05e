import { afterAll, beforeAll, expect } from 'vitest';
import { createDatabase, type Dialect, type HeraldDatabase } from '../../src/storage/database.js';
import { allocateDatabase, type TestDatabaseLocation } from '../databases.js';
import { killLeftoverProcesses, type ProcessEnv, runCliOk } from '../process.js';
import { api, fetchToken } from './api.js';

/**
 * Helpers of the end-to-end tests that run Herald's real processes on a test database, crash them
 * and read the database to check what only it can tell (the ledger, the sandbox carrier's record
 * of every hand-over, the job backlog).
 */

/** A line in the test's output (not an assertion): what a crash test saw on its way. */
export const note = (line: string) => process.stdout.write(`[e2e] ${line}\n`);

export interface Account {
  accountId: string;
  clientId: string;
  clientSecret: string;
}

export const MICROS = 1_000_000;

export async function createAccount(env: ProcessEnv, credits: number): Promise<Account> {
  const created = await runCliOk(
    ['accounts', 'create', '--name', 'Delivery Ltd', '--email', 'ops@delivery.example', '--credits', String(credits), '--json'],
    env,
  );
  const json = JSON.parse(created.stdout) as { account_id: string; client_id: string; client_secret: string };
  return { accountId: json.account_id, clientId: json.client_id, clientSecret: json.client_secret };
}

export async function tokenFor(url: string, account: Account): Promise<string> {
  return (await fetchToken(url, account, 'client_secret_post')).access_token;
}

/** An ordinary recipient (no magic number): the sandbox accepts it and reports it delivered. */
export const recipient = (i: number): string => `+1415555${String(i % 10_000).padStart(4, '0')}`;

/**
 * Sends `count` SMS through HTTP, `concurrency` at a time; every answer must be 200. Returns the ids
 * in order. Like a careful client, each send carries an Idempotency-Key and is retried when the
 * connection fails before an answer (a reset under load): the retry cannot create a second message.
 */
export async function sendMany(url: string, token: string, count: number, concurrency: number): Promise<string[]> {
  const ids: string[] = new Array(count);
  const run = `${process.pid}-${Date.now()}`;
  let next = 0;
  const sendOne = async (i: number) => {
    for (let attempt = 1; ; attempt++) {
      try {
        const sent = await api(
          url,
          'POST',
          '/v1/sms/send',
          token,
          { to: recipient(i), message: `Delivery test ${i}` },
          { 'idempotency-key': `${run}-${i}` },
        );
        if (sent.status === 409 && attempt < 5) {
          await sleep(200); // the first attempt is still being answered
          continue;
        }
        return sent;
      } catch (error) {
        if (attempt >= 3) throw error;
        note(`send ${i}: ${(error as Error).message} (${String((error as { cause?: unknown }).cause)}); retrying with the same key`);
        await sleep(100);
      }
    }
  };
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const sent = await sendOne(i);
      if (sent.status !== 200) throw new Error(`send ${i} answered ${sent.status}: ${JSON.stringify(sent.body)}`);
      ids[i] = sent.body.data.message_id as string;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return ids;
}

/** Sends `count` SMS (distinct ordinary recipients) through the bulk endpoint, 1000 per request. Returns the ids. */
export async function sendBulk(url: string, token: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; offset < count; offset += 1_000) {
    const recipients = Array.from({ length: Math.min(1_000, count - offset) }, (_, i) => recipient(offset + i));
    const sent = await api(url, 'POST', '/v1/sms/bulk', token, { recipients, message: `Bulk delivery test from ${offset}` });
    if (sent.status !== 200) throw new Error(`bulk send from ${offset} answered ${sent.status}: ${JSON.stringify(sent.body)}`);
    expect(sent.body.data.rejected).toEqual([]);
    expect(sent.body.data.messages).toHaveLength(recipients.length);
    ids.push(...sent.body.data.messages.map((m: { message_id: string }) => m.message_id));
  }
  return ids;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value `done` accepts; fails with the last value after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs: number; intervalMs?: number },
): Promise<T> {
  const until = Date.now() + options.timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`waited ${options.timeoutMs} ms for ${what}; last saw ${JSON.stringify(value)}`);
    await sleep(options.intervalMs ?? 50);
  }
}

/** Opens the test's database the way the processes do (same URL and schema); the test only reads. */
export function openDatabase(location: TestDatabaseLocation): HeraldDatabase {
  return createDatabase({ url: location.url, schema: location.schema, poolSize: 2 });
}

export interface Progress {
  total: number;
  queued: number;
  delivered: number;
  /** Queued, marked in flight: a worker is handing them over (or died doing so). */
  inFlight: number;
  jobs: number;
}

export async function progress(database: HeraldDatabase): Promise<Progress> {
  const { db } = database;
  const row = await db
    .selectFrom('messages')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.countAll<number>().filterWhere('status', '=', 'queued').as('queued'),
      eb.fn.countAll<number>().filterWhere('status', '=', 'delivered').as('delivered'),
      eb.fn
        .countAll<number>()
        .filterWhere((w) => w.and([w('status', '=', 'queued'), w('dispatch_state', '=', 'in_flight')]))
        .as('in_flight'),
    ])
    .executeTakeFirstOrThrow();
  const jobs = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return {
    total: Number(row.total),
    queued: Number(row.queued),
    delivered: Number(row.delivered),
    inFlight: Number(row.in_flight),
    jobs: Number(jobs.n),
  };
}

/** Waits until every message is delivered and the job table is empty (receipts applied too). */
export function waitUntilAllDelivered(database: HeraldDatabase, expected: number, timeoutMs: number): Promise<Progress> {
  return waitFor(
    `all ${expected} messages delivered and no job left`,
    () => progress(database),
    (p) => p.total === expected && p.delivered === expected && p.jobs === 0,
    { timeoutMs, intervalMs: 100 },
  );
}

export interface SandboxTotals {
  rows: number;
  accepted: number;
  duplicates: number;
  maxAttempts: number;
  overOneAttempt: number;
}

export async function sandboxTotals(database: HeraldDatabase): Promise<SandboxTotals> {
  const row = await database.db
    .selectFrom('sandbox_submissions')
    .select((eb) => [
      eb.fn.countAll<number>().as('rows'),
      eb.fn.count<number>('accepted_at').as('accepted'),
      eb.fn.coalesce(eb.fn.sum<number>('duplicates'), eb.lit(0)).as('duplicates'),
      eb.fn.coalesce(eb.fn.max<number>('attempts'), eb.lit(0)).as('max_attempts'),
      eb.fn.countAll<number>().filterWhere('attempts', '>', 1).as('over_one'),
    ])
    .executeTakeFirstOrThrow();
  return {
    rows: Number(row.rows),
    accepted: Number(row.accepted),
    duplicates: Number(row.duplicates),
    maxAttempts: Number(row.max_attempts),
    overOneAttempt: Number(row.over_one),
  };
}

/** The account's balance columns next to the sums of its ledger rows. */
export async function ledgerOf(database: HeraldDatabase, accountId: string) {
  const { db } = database;
  const account = await db
    .selectFrom('accounts')
    .select(['credits_micros', 'reserved_micros'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  const sums = await db
    .selectFrom('credit_ledger')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('credits_delta'), eb.lit(0)).as('credits'),
      eb.fn.coalesce(eb.fn.sum<number>('reserved_delta'), eb.lit(0)).as('reserved'),
    ])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return {
    credits: Number(account.credits_micros),
    reserved: Number(account.reserved_micros),
    ledgerCredits: Number(sums.credits),
    ledgerReserved: Number(sums.reserved),
  };
}

/** Messages the sandbox accepted that the store still has as queued: a worker died between the two commits. */
export async function acceptedUnrecorded(database: HeraldDatabase): Promise<number> {
  const row = await database.db
    .selectFrom('sandbox_submissions')
    .innerJoin('messages', 'messages.id', 'sandbox_submissions.message_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('messages.status', '=', 'queued')
    .where('sandbox_submissions.accepted_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Messages whose history holds some status more than once (a double transition). */
export async function repeatedTransitions(database: HeraldDatabase): Promise<number> {
  const rows = await database.db
    .selectFrom('message_status_history')
    .select(['message_id', 'status'])
    .groupBy(['message_id', 'status'])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  return rows.length;
}

/**
 * What must hold once every message of an account has been delivered, whatever crashed or
 * stopped on the way: each message handed to the carrier exactly once and delivered once, the
 * ledger balancing to the account's columns, nothing held in reserve, no job left.
 */
export async function expectCleanDelivery(database: HeraldDatabase, account: Account, openingCredits: number, ids: readonly string[]) {
  const p = await progress(database);
  expect(p).toEqual({ total: ids.length, queued: 0, delivered: ids.length, inFlight: 0, jobs: 0 });
  // Every acknowledged id is one of them (the count above rules out extras).
  const known = await database.db.selectFrom('messages').select('id').where('status', '=', 'delivered').execute();
  const delivered = new Set(known.map((r) => r.id));
  expect(ids.filter((id) => !delivered.has(id))).toEqual([]);

  const sandbox = await sandboxTotals(database);
  expect(sandbox).toEqual({ rows: ids.length, accepted: ids.length, duplicates: 0, maxAttempts: 1, overOneAttempt: 0 });
  expect(await repeatedTransitions(database)).toBe(0);

  const ledger = await ledgerOf(database, account.accountId);
  expect(ledger.ledgerCredits).toBe(ledger.credits);
  expect(ledger.ledgerReserved).toBe(ledger.reserved);
  expect(ledger.reserved).toBe(0);
  expect(ledger.credits).toBe((openingCredits - ids.length) * MICROS); // one 1-segment SMS costs 1 credit
  return sandbox;
}

export function useDatabase(dialect: Dialect) {
  const state: { location: TestDatabaseLocation; database: HeraldDatabase | undefined } = {
    location: undefined as unknown as TestDatabaseLocation,
    database: undefined,
  };
  beforeAll(() => {
    state.location = allocateDatabase(dialect);
  });
  afterAll(async () => {
    await killLeftoverProcesses();
    await state.database?.close();
    await state.location?.drop();
  });
  return state;
}

export const BASE_SETTINGS: ProcessEnv = { DEMO_ACCOUNT: 'false', SANDBOX_DELAY_MS: '0' };
