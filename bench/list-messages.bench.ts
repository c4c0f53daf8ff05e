/**
 * GET /v1/messages against a store holding 1,000,000 messages of one account (issue 4).
 * Fills the store directly (fast multi-row inserts), then times the list query path the route
 * uses (`listMessages`) for the first page and for filtered pages, and the dashboard's message log
 * (`GET /dashboard/messages`, rendered whole for a signed-in user, docs/dashboard.md). Not a test:
 * figures only.
 *
 *   npx tsx bench/list-messages.bench.ts [--dialect sqlite|postgres] [--messages 1000000] [--rounds 30]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { createAccount } from '../src/core/accounts/manage-accounts.js';
import { ManualClock } from '../src/core/clock.js';
import { newMessageId } from '../src/core/ids.js';
import { listMessages } from '../src/core/messages/list-messages.js';
import type { Store } from '../src/core/ports.js';
import type { Scope } from '../src/core/scopes.js';
import { acceptInvitation, inviteUser } from '../src/core/users/manage-users.js';
import { signIn } from '../src/core/users/sign-in.js';
import { dashboard } from '../src/dashboard/dashboard.plugin.js';
import { createDatabase, type HeraldDatabase } from '../src/storage/database.js';
import { MemoryRateLimitStore } from '../src/storage/rate-limit-stores.js';
import { storeOf } from '../src/storage/store.js';
import { ALL_SCOPES, CHANNELS } from '../test/channels.js';

const { values } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'sqlite' },
    messages: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '30' },
    'postgres-url': { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const total = Number(values.messages);
const rounds = Number(values.rounds);

async function open(): Promise<{ database: HeraldDatabase; cleanup: () => Promise<void> }> {
  if (values.dialect === 'postgres') {
    const schema = `herald_bench_${process.pid}`;
    const database = createDatabase({ url: values['postgres-url'] as string, schema });
    await database.migrate();
    return {
      database,
      cleanup: async () => {
        await database.db.schema.dropSchema(schema).cascade().execute();
        await database.close();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'herald-bench-'));
  const database = createDatabase({ url: `sqlite:${join(dir, 'bench.db')}` });
  await database.migrate();
  return {
    database,
    cleanup: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The carriers' reasons a failed message gives (its error_code), in turn: the overview charts them. */
const FAILURE_CODES = ['UNDELIV', 'EXPIRED', 'REJECTD', 'INVALID_DESTINATION'] as const;

const STATUSES = [
  'delivered',
  'delivered',
  'delivered',
  'delivered',
  'delivered',
  'delivered',
  'sent',
  'queued',
  'failed',
  'read',
] as const;

async function fill(database: HeraldDatabase, accountId: string, start: number): Promise<void> {
  const chunk = 500;
  for (let offset = 0; offset < total; offset += chunk) {
    const n = Math.min(chunk, total - offset);
    await database.db.transaction().execute(async (trx) => {
      const rows = Array.from({ length: n }, (_, i) => {
        const k = offset + i;
        const createdAt = start + k * 1_000; // one message a second, about 11.5 days of traffic
        const channel = CHANNELS.names[k % 10 === 0 ? 2 : k % 7 === 0 ? 1 : k % 11 === 0 ? 3 : 0] ?? 'sms';
        const status = k % 50 === 0 ? 'failed' : (STATUSES[k % STATUSES.length] ?? 'delivered');
        return {
          id: newMessageId(channel, createdAt),
          account_id: accountId,
          channel,
          recipient: `+1415555${String(k % 10_000).padStart(4, '0')}`,
          sender: null,
          body: `message ${k}`,
          payload: null,
          status,
          segments: 1,
          cost_micros: 1_000_000,
          charge_state: 'captured' as const,
          callback_url: null,
          scheduled_at: null,
          created_at: createdAt,
          updated_at: createdAt,
          sent_at: createdAt,
          delivered_at: null,
          error_code: status === 'failed' ? (FAILURE_CODES[k % FAILURE_CODES.length] ?? null) : null,
          error_message: status === 'failed' ? 'The carrier reported a failure (bench).' : null,
          provider_message_id: null,
          status_sequence: 1,
          dispatch_state: null,
          attempts: 1,
          batch_id: null,
          event_sequence: 0,
        };
      });
      await trx.insertInto('messages').values(rows).execute();
      for (const channel of CHANNELS.names) {
        const count = rows.filter((r) => r.channel === channel).length;
        if (count > 0) {
          await trx
            .insertInto('account_message_counts')
            .values({ account_id: accountId, channel, messages: count })
            .onConflict((oc) =>
              oc.columns(['account_id', 'channel']).doUpdateSet((eb) => ({ messages: eb('account_message_counts.messages', '+', count) })),
            )
            .execute();
        }
      }
      await trx
        .insertInto('message_status_history')
        .values(rows.map((r) => ({ message_id: r.id, sequence: 1, status: r.status, detail: null, occurred_at: r.created_at })))
        .execute();
    });
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const { database, cleanup } = await open();
  const store = storeOf(database, { channels: CHANNELS });
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const { account } = await createAccount(store, clock, { name: 'bench', email: 'bench@example.com' });
  const began = performance.now();
  await fill(database, account.id, clock.now());
  const fillSeconds = (performance.now() - began) / 1000;
  // What autovacuum / a periodic ANALYZE would have done by now on a store that grew to this size.
  await sql.raw(database.dialect === 'sqlite' ? 'analyze' : 'vacuum analyze').execute(database.db);
  const all = new Set<Scope>(ALL_SCOPES);
  const mid = clock.now() + (total / 2) * 1_000;
  const cases: Array<[string, Parameters<typeof listMessages>[3], ReadonlySet<Scope>]> = [
    ['first page (limit 20)', { limit: 20, offset: 0 }, all],
    ['first page (limit 100)', { limit: 100, offset: 0 }, all],
    ['status=failed', { status: 'failed', limit: 20, offset: 0 }, all],
    ['channel=email', { channel: 'email', limit: 20, offset: 0 }, all],
    ['channel=sms&status=queued', { channel: 'sms', status: 'queued', limit: 20, offset: 0 }, all],
    ['one-hour window mid-range', { from: mid, to: mid + 3_600_000, limit: 20, offset: 0 }, all],
    ['offset 10000', { limit: 20, offset: 10_000 }, all],
    ['token reads sms only', { limit: 20, offset: 0 }, new Set<Scope>(['sms:read'])],
  ];
  const lines = [`| case | p50 ms | p95 ms | total matched |`, `|---|---|---|---|`];
  for (const [name, input, scopes] of cases) {
    const times: number[] = [];
    let matched = 0;
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      const page = await listMessages(store, account.id, scopes, input);
      times.push(performance.now() - t0);
      matched = page.total;
    }
    times.sort((a, b) => a - b);
    lines.push(`| ${name} | ${percentile(times, 50).toFixed(2)} | ${percentile(times, 95).toFixed(2)} | ${matched} |`);
  }
  // The dashboard is read after the traffic, as in production: the overview's recent days hold it
  // (read at the fill's start, every message would lie in its future).
  clock.advance(total * 1_000);
  lines.push('', ...(await dashboardLog(store, clock, account.id)));
  process.stdout.write(
    `\nGET /v1/messages on ${database.dialect}, ${total.toLocaleString('en')} messages (filled in ${fillSeconds.toFixed(1)} s), ${rounds} rounds per case\n\n${lines.join('\n')}\n`,
  );
  await cleanup();
}

/** The dashboard's message log, a signed-in owner's first pages, through the real plugin and its session hook. */
async function dashboardLog(store: Store, clock: ManualClock, accountId: string): Promise<string[]> {
  const app = Fastify();
  await app.register(
    (pages) =>
      dashboard(pages, {
        store,
        clock,
        throttle: new MemoryRateLimitStore(() => clock.now()),
        sessions: { lifetimeMs: 3600_000, idleMs: 3600_000 },
        publicUrl: 'http://127.0.0.1',
        prices: {},
        testMessages: [],
        checkWebhookUrl: async () => undefined,
      }),
    { prefix: '/dashboard' },
  );
  const { token } = await inviteUser(store, clock, { accountId, email: 'bench@example.com', role: 'owner', invitedBy: null, ip: null });
  const password = 'a bench password';
  await acceptInvitation(store, clock, token, password, '127.0.0.1');
  const signed = await signIn(
    { store, clock, throttle: new MemoryRateLimitStore(), sessions: { lifetimeMs: 3600_000, idleMs: 3600_000 } },
    { email: 'bench@example.com', password, ip: '127.0.0.1', userAgent: 'bench' },
  );
  if (!signed.ok) throw new Error('sign-in failed');
  const lines = ['| dashboard page | p50 ms | p95 ms | bytes |', '|---|---|---|---|'];
  for (const url of [
    '/dashboard/messages',
    '/dashboard/messages?status=failed',
    '/dashboard/messages?channel=email&page=2',
    '/dashboard',
    '/dashboard?range=48h',
  ]) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      const response = await app.inject({ method: 'GET', url, headers: { cookie: `herald_session=${signed.token}` } });
      times.push(performance.now() - t0);
      if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
      bytes = response.body.length;
    }
    times.sort((a, b) => a - b);
    lines.push(`| ${url} | ${percentile(times, 50).toFixed(2)} | ${percentile(times, 95).toFixed(2)} | ${bytes} |`);
  }
  await app.close();
  return lines;
}

await main();
