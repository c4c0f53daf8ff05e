/**
 * `npm run bench`: Herald's throughput, latency and memory, measured against real server processes
 * on loopback (autocannon's JS API), and written as a report (Markdown + JSON) with the machine's
 * facts. Figures, never pass/fail; every run is bounded in time.
 *
 *   npm run bench [-- --quick] [-- --only accept,latency,e2e,bulk,webhooks,postgres] [-- --out DIR]
 *   npm run bench -- --only overload [--overload-rate N] [--cli OTHER/dist/main/cli.js]
 *
 * Compared cases alternate round by round (accept, no-op, accept, ...) so drift on a shared machine
 * hits both alike, and each figure is the median of its rounds.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { cpus, freemem, release, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type BenchAccount,
  type BenchStore,
  benchStore,
  createAccount,
  type Dialect,
  type RunningHerald,
  type RunningWorker,
  startHerald,
  startWorker,
} from './lib/herald.js';
import { type LoadResult, load, median } from './lib/load.js';
import { type Phase, type PhaseFigures, phasedLoad, phaseFigures, recoverySeconds, windowsOf } from './lib/overload.js';
import { pacedLoad } from './lib/paced.js';
import { type SmscPipelineResult, smscPipeline } from './lib/smsc-pipeline.js';
import { bulkOf, pendingOf, recipients, sms, waitForDrain } from './lib/traffic.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    out: { type: 'string', default: 'bench/results' },
    /** The end-to-end case offers this many messages a second (bulk requests of 100). */
    'e2e-rate': { type: 'string', default: '5000' },
    'postgres-url': { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    /** Another build's dist/main/cli.js to run the cases against (e.g. a commit before a change). */
    cli: { type: 'string' },
    /** The overload case offers this many sends a second (default: twice the accept case's rate, measured). */
    'overload-rate': { type: 'string' },
    'overload-connections': { type: 'string', default: '1200' },
    /**
     * Servers the overload case alternates: `off` (shedding disabled, as before it existed), `on`
     * (the defaults), settings of their own (`OVERLOAD_MAX_EVENT_LOOP_DELAY_MS=50+OVERLOAD_MAX_QUEUE_WAIT_MS=50`),
     * or `base=DIR`: the defaults served by another checkout's build.
     */
    'overload-variants': { type: 'string', default: 'off,on' },
    /** The smsc case: messages per run, and PostgreSQL settings to compare (`--smsc-env DISPATCH_THREAD=false`). */
    'smsc-messages': { type: 'string', default: '20000' },
    'smsc-env': { type: 'string', default: '' },
    /**
     * The smsc case's runs to make, of floor-plain, floor-receipts (the Node floor, bench/lib/node-floor.mjs),
     * sqlite-plain, sqlite-receipts, postgres-plain, postgres-receipts.
     */
    'smsc-runs': { type: 'string', default: 'floor-plain,floor-receipts,sqlite-plain,sqlite-receipts,postgres-plain,postgres-receipts' },
    /** The smsc case with `herald serve --no-worker` and this many `herald worker` processes (0: the server's own worker). */
    'smsc-workers': { type: 'string', default: '0' },
  },
});
const CLI_PATH = values.cli ? resolve(values.cli) : undefined;
const QUICK = values.quick;
const ROUNDS = QUICK ? 1 : 3;
const ROUND_SECONDS = QUICK ? 2 : 5;
const E2E_SECONDS = QUICK ? 5 : 30;
const CONNECTIONS = 32;
const only = new Set((values.only ?? 'accept,latency,e2e,bulk,webhooks,postgres,smsc').split(','));

const BULK_SIZE = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, digits = 0) => Number(n.toFixed(digits));
const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

const report: Record<string, unknown> = {};
const lines: string[] = [];
const say = (line: string) => {
  lines.push(line);
  process.stdout.write(`${line}\n`);
};
/** A `##` section of the report: its title, then paragraphs separated by blank lines. */
const section = (title: string, ...paragraphs: string[]) => {
  say(`## ${title}`);
  for (const paragraph of paragraphs) {
    say('');
    say(paragraph);
  }
  say('');
};
const drainText = (e2e: { drained: boolean; drainSeconds: number }) =>
  e2e.drained ? `drained in ${e2e.drainSeconds} s` : `NOT drained after ${e2e.drainSeconds} s`;

/** Samples the server's RSS every 250 ms while `work` runs; the peak. */
async function peakRss<T>(herald: RunningHerald, work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = herald.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, herald.rss());
  }, 250);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, herald.rss()) };
  } finally {
    clearInterval(timer);
  }
}

/** The rounds of two compared cases in turn (a, b, a, b...), so drift on a shared machine hits both alike. */
async function alternating<A, B>(first: () => Promise<A>, second: () => Promise<B>): Promise<[A[], B[]]> {
  const firsts: A[] = [];
  const seconds: B[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    firsts.push(await first());
    seconds.push(await second());
  }
  return [firsts, seconds];
}

/** Single SMS sends to the server, each to a recipient of its own. */
const sendTo = (herald: RunningHerald, token: string) => ({
  url: `${herald.url}/v1/sms/send`,
  method: 'POST' as const,
  token,
  bodyFor: sms,
});

async function withServer<T>(
  dialect: Dialect,
  options: { worker: boolean; env?: Record<string, string>; cli?: string | undefined },
  work: (herald: RunningHerald, token: string, account: BenchAccount, store: BenchStore) => Promise<T>,
): Promise<T> {
  const store = await benchStore(dialect, values['postgres-url'] as string);
  try {
    const cli = options.cli ?? CLI_PATH;
    const account = createAccount(store, cli);
    const herald = await startHerald(store, { worker: options.worker, env: options.env, cli });
    try {
      const token = await herald.token(account);
      // Warm up: JIT, caches, the first prepared statements.
      await load({ url: `${herald.url}/v1/sms/send`, method: 'POST', token, bodyFor: sms, connections: 8, durationSeconds: 1 });
      return await work(herald, token, account, store);
    } finally {
      await herald.stop();
    }
  } finally {
    await store.drop();
  }
}

/** Accept (durable send) vs the authenticated no-op route, alternating rounds; medians and ratio. */
async function acceptVsNoop(dialect: Dialect, env: Record<string, string> = {}) {
  return withServer(dialect, { worker: false, env }, async (herald, token) => {
    const idle = herald.rss();
    const {
      peak,
      result: [noop, accept],
    } = await peakRss(herald, () =>
      alternating(
        () => load({ url: `${herald.url}/v1/token`, token, connections: CONNECTIONS, durationSeconds: ROUND_SECONDS }),
        () => load({ ...sendTo(herald, token), connections: CONNECTIONS, durationSeconds: ROUND_SECONDS }),
      ),
    );
    const acceptRps = median(accept.map((r) => r.rps));
    const noopRps = median(noop.map((r) => r.rps));
    const failures = [...accept, ...noop].reduce((n, r) => n + r.non2xx + r.errors, 0);
    return {
      acceptRps: round(acceptRps),
      noopRps: round(noopRps),
      ratio: round(acceptRps / noopRps, 2),
      acceptRounds: accept.map((r) => round(r.rps)),
      noopRounds: noop.map((r) => round(r.rps)),
      acceptP50: median(accept.map((r) => r.p50)),
      acceptP99: median(accept.map((r) => r.p99)),
      failures,
      rssIdleMb: mb(idle),
      rssPeakMb: mb(peak),
    };
  });
}

/**
 * Sends at a fixed, evenly spaced rate (half the measured maximum), open loop, in rounds that
 * alternate with the no-op at the same rate: the median of the rounds' p50, p90 and p99 (a tail
 * taken from one run is mostly the machine's moment).
 */
async function latencyAt(rate: number) {
  return withServer('sqlite', { worker: false }, async (herald, token) => {
    const seconds = QUICK ? 3 : 5;
    const perSecond = Math.max(1, Math.round(rate));
    // A first round at the rate, not counted: in the server's first seconds of sends at a steady
    // rate its code is still being optimized and it falls behind (docs/performance.md): a cold
    // start, not the steady state the rounds measure. Reported beside them.
    const warmUp = await pacedLoad({ ...sendTo(herald, token), ratePerSecond: perSecond, durationSeconds: seconds });
    const [noops, sends] = await alternating(
      () => pacedLoad({ url: `${herald.url}/v1/token`, method: 'GET', token, ratePerSecond: perSecond, durationSeconds: seconds }),
      () => pacedLoad({ ...sendTo(herald, token), ratePerSecond: perSecond, durationSeconds: seconds }),
    );
    const ok = sends.reduce((n, r) => n + r.ok, 0);
    return {
      rate: perSecond,
      rounds: ROUNDS,
      achievedRps: round(ok / (seconds * ROUNDS)),
      p50: median(sends.map((r) => r.p50)),
      p90: median(sends.map((r) => r.p90)),
      p99: median(sends.map((r) => r.p99)),
      p99Rounds: sends.map((r) => r.p99),
      max: Math.max(...sends.map((r) => r.max)),
      failures: sends.reduce((n, r) => n + r.failed, 0),
      sendLateP99: median(sends.map((r) => r.sendLateP99)),
      connections: sends[0]?.connections ?? 0,
      warmUp: { p50: warmUp.p50, p99: warmUp.p99, max: warmUp.max },
      noop: {
        p50: median(noops.map((r) => r.p50)),
        p90: median(noops.map((r) => r.p90)),
        p99: median(noops.map((r) => r.p99)),
        p99Rounds: noops.map((r) => r.p99),
      },
    };
  });
}

/**
 * Accepted → delivered through the sandbox (zero delay) with the worker in the same process: sends
 * offered at a fixed rate (bulk requests of 100) for E2E_SECONDS, delivered messages counted in the
 * store; then how long what is left takes to drain (bounded at 60 s).
 */
async function endToEnd(dialect: Dialect, offeredPerSecond: number, options: { separateWorker?: boolean } = {}) {
  return withServer(dialect, { worker: !options.separateWorker }, async (herald, token, _account, store) => {
    const worker = options.separateWorker ? await startWorker(store) : undefined;
    try {
      return await endToEndOn(herald, token, store, offeredPerSecond, worker);
    } finally {
      await worker?.stop();
    }
  });
}

async function endToEndOn(
  herald: RunningHerald,
  token: string,
  store: BenchStore,
  offeredPerSecond: number,
  worker: RunningWorker | undefined,
) {
  {
    const before = await store.statusCounts();
    const deliveredBefore = before.delivered ?? 0;
    const started = Date.now();
    let workerPeak = worker?.rss() ?? 0;
    const workerRss = setInterval(() => {
      workerPeak = Math.max(workerPeak, worker?.rss() ?? 0);
    }, 250);
    const { result, peak } = await peakRss(herald, () =>
      load({
        url: `${herald.url}/v1/sms/bulk`,
        method: 'POST',
        token,
        bodyFor: bulkOf(BULK_SIZE),
        connections: 8,
        durationSeconds: E2E_SECONDS,
        overallRate: Math.max(1, Math.round(offeredPerSecond / BULK_SIZE)),
      }),
    );
    clearInterval(workerRss);
    const loadSeconds = (Date.now() - started) / 1000;
    const atEnd = await store.statusCounts();
    const accepted = Math.round(result.rps * E2E_SECONDS) * BULK_SIZE;
    const deliveredDuringLoad = (atEnd.delivered ?? 0) - deliveredBefore;
    const handedOverDuringLoad = (atEnd.delivered ?? 0) + (atEnd.sent ?? 0) + (atEnd.failed ?? 0) - deliveredBefore;
    // Drain: until nothing is queued or sending, bounded.
    const { counts, seconds: drainSeconds } = await waitForDrain(store);
    const total = Object.values(counts).reduce((n, v) => n + v, 0);
    return {
      offeredPerSecond,
      acceptedPerSecond: round(accepted / loadSeconds),
      deliveredPerSecondDuringLoad: round(deliveredDuringLoad / loadSeconds),
      handedOverPerSecondDuringLoad: round(handedOverDuringLoad / loadSeconds),
      backlogAtEnd: pendingOf(atEnd),
      drained: pendingOf(counts) === 0,
      drainSeconds: round(drainSeconds, 1),
      deliveredPerSecondOverall: round((counts.delivered ?? 0) / (loadSeconds + drainSeconds)),
      messages: total,
      failures: result.non2xx + result.errors,
      rssPeakMb: mb(peak),
      workerRssPeakMb: worker ? mb(workerPeak) : null,
    };
  }
}

/** 1,000-recipient bulk requests: messages accepted per second. */
async function bulk() {
  return withServer('sqlite', { worker: false }, async (herald, token) => {
    const rounds: LoadResult[] = [];
    const { peak } = await peakRss(herald, async () => {
      for (let i = 0; i < ROUNDS; i++) {
        rounds.push(
          await load({
            url: `${herald.url}/v1/sms/bulk`,
            method: 'POST',
            token,
            bodyFor: bulkOf(1000),
            connections: 4,
            durationSeconds: ROUND_SECONDS,
          }),
        );
      }
    });
    return {
      requestsPerSecond: round(median(rounds.map((r) => r.rps)), 1),
      messagesPerSecond: round(median(rounds.map((r) => r.rps)) * 1000),
      p50: median(rounds.map((r) => r.p50)),
      p99: median(rounds.map((r) => r.p99)),
      failures: rounds.reduce((n, r) => n + r.non2xx + r.errors, 0),
      rssPeakMb: mb(peak),
    };
  });
}

/** Webhook events delivered per second to a loopback receiver, for a burst of sends. */
async function webhooks() {
  let received = 0;
  let firstAt = 0;
  let lastAt = 0;
  /** Deliveries per event id (the `webhook-id` header): more than one is an event delivered twice. */
  const perEvent = new Map<string, number>();
  const receiver: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      const id = String(req.headers['webhook-id']);
      perEvent.set(id, (perEvent.get(id) ?? 0) + 1);
      lastAt = Date.now();
      if (firstAt === 0) firstAt = lastAt;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as { port: number }).port;
  try {
    return await withServer('sqlite', { worker: true }, async (herald, token, _account, store) => {
      // The warm-up's messages are delivered first: their events would reach the webhook too.
      const settled = Date.now() + 60_000;
      for (;;) {
        const counts = await store.statusCounts();
        if ((counts.queued ?? 0) + (counts.sent ?? 0) === 0 || Date.now() > settled) break;
        await sleep(200);
      }
      const registered = await fetch(`${herald.url}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events: ['message.sent', 'message.delivered'] }),
      });
      if (registered.status !== 201) throw new Error(`webhook registration: ${registered.status} ${await registered.text()}`);
      received = 0;
      firstAt = 0;
      perEvent.clear();
      const messages = QUICK ? 500 : 5_000;
      const expected = messages * 2;
      for (let sent = 0; sent < messages; sent += 1000) {
        const body = { recipients: recipients(Math.min(1000, messages - sent), sent), message: 'webhook bench' };
        const response = await fetch(`${herald.url}/v1/sms/bulk`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (response.status !== 202 && response.status !== 201 && response.status !== 200) throw new Error(`bulk: ${response.status}`);
      }
      const deadline = Date.now() + 180_000;
      while (perEvent.size < expected && Date.now() < deadline) await sleep(200);
      const seconds = (lastAt - firstAt) / 1000;
      return {
        events: perEvent.size,
        requests: received,
        twice: [...perEvent.values()].filter((n) => n > 1).length,
        expected,
        seconds: round(seconds, 1),
        eventsPerSecond: round(perEvent.size / Math.max(seconds, 0.001)),
      };
    });
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

/** A client gives up on a request this long after it was due (the overload case's timeouts). */
const CLIENT_TIMEOUT_MS = 10_000;

/** The server's shedding bounds all off: it queues every request, as Herald did before it shed load. */
const SHEDDING_OFF = {
  OVERLOAD_MAX_QUEUE_WAIT_MS: '0',
  OVERLOAD_MAX_QUEUED_MESSAGES: '0',
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT: '0',
};

/**
 * Sends offered open loop over many connections (each a client with one request at a time): a
 * quarter of `rate` for a while (the unloaded latency: half what the server sustains, a load it
 * serves comfortably; at the sustained rate itself it is already busy nearly all the time), then
 * `rate` (twice what the server sustains) for OVERLOAD_SECONDS, then a quarter again (how soon
 * latency is back to normal). Servers with shedding off and on alternate round by round, each on a
 * fresh store.
 */
async function overload(rate: number, connections: number, variants: string[]) {
  const [calm, over, after] = QUICK ? [3, 5, 5] : [10, 30, 20];
  const phases: Phase[] = [
    // Not counted: in its first seconds at a steady rate the server's code is still being optimized.
    { name: 'warm-up', ratePerSecond: Math.round(rate / 4), durationSeconds: calm },
    { name: 'before', ratePerSecond: Math.round(rate / 4), durationSeconds: calm },
    { name: 'overload', ratePerSecond: Math.round(rate), durationSeconds: over },
    { name: 'after', ratePerSecond: Math.round(rate / 4), durationSeconds: after },
  ];
  const rounds: Array<Record<string, unknown>> = [];
  for (let round = 0; round < Math.min(ROUNDS, 2); round++) {
    for (const variant of variants) {
      // `base=DIR`: the defaults, served by another checkout's build (a before/after of a change).
      const cli = variant.startsWith('base=') ? resolve(variant.slice(5), 'dist/main/cli.js') : undefined;
      const env = variant === 'off' ? SHEDDING_OFF : variant === 'on' || cli ? {} : settingsOf(variant);
      rounds.push(
        await withServer('sqlite', { worker: false, env, cli }, async (herald, token) => {
          const shedding = watchShedding(herald);
          const { result, peak } = await peakRss(herald, () =>
            phasedLoad({ url: `${herald.url}/v1/sms/send`, token, bodyFor: sms, phases, connections }),
          ).finally(() => shedding.stop());
          const [warmUp, unloaded, during, afterwards] = phaseFigures(result, phases, CLIENT_TIMEOUT_MS);
          const unloadedP99 = unloaded?.acceptedP99 ?? 0;
          const before = windowsOf(result, phases, 1);
          return {
            variant,
            round: round + 1,
            connections: result.connections,
            sendLateP99: result.sendLateP99,
            phases: [warmUp, unloaded, during, afterwards],
            unloadedP99,
            p99Ratio: round2((during?.acceptedP99 ?? 0) / Math.max(unloadedP99, 0.1)),
            // Normal is what the unloaded phase shows second by second: its worst second (a collection,
            // a checkpoint: 27-73 ms in seconds whose phase's p99 is 8-12) as well as twice its p99.
            recoverySeconds: recoverySeconds(result, phases, 2, Math.max(2 * unloadedP99, ...before.map((w) => w.p99))) ?? null,
            // Second by second, the unloaded phase and the one after the overload (their p99 and refusals).
            windows: { before, after: windowsOf(result, phases, 3) },
            timeouts: [warmUp, unloaded, during, afterwards].reduce((n, p) => n + (p?.timeouts ?? 0), 0),
            rssPeakMb: mb(peak),
            readyzLoad: shedding.seen,
          };
        }),
      );
    }
  }
  return { rate, connections, phases, clientTimeoutMs: CLIENT_TIMEOUT_MS, rounds };
}

const round2 = (n: number) => round(n, 2);

/** A variant named by its settings, `KEY=value+KEY=value` (e.g. other bounds to compare with the defaults). */
const settingsOf = (variant: string): Record<string, string> =>
  Object.fromEntries(variant.split('+').map((pair) => pair.split('=', 2) as [string, string]));

/** What /readyz says of the load every 250 ms (`checks.load`, its first words), counted: which bound shed, and how often. */
function watchShedding(herald: RunningHerald) {
  const seen: Record<string, number> = {};
  const timer = setInterval(async () => {
    try {
      const body = (await (await fetch(`${herald.url}/readyz`)).json()) as { checks?: { load?: string } };
      // Counted by what is shed, not by how much: "shedding N % of sends".
      const kind = ((body.checks?.load ?? 'none').split(' (')[0] as string).replace(/\d+ %/, 'N %');
      seen[kind] = (seen[kind] ?? 0) + 1;
    } catch {
      seen.unanswered = (seen.unanswered ?? 0) + 1;
    }
  }, 250);
  return { seen, stop: () => clearInterval(timer) };
}

/** Durable sends a second as fast as CONNECTIONS go: the accept case's figure when it ran, else measured now. */
async function sustainedRate(): Promise<number> {
  const measured = (report.acceptSqlite as { acceptRps?: number } | undefined)?.acceptRps;
  if (measured) return measured;
  const result = await withServer('sqlite', { worker: false }, (herald, token) =>
    load({ ...sendTo(herald, token), connections: CONNECTIONS, durationSeconds: ROUND_SECONDS }),
  );
  return round(result.rps);
}

function machine() {
  const gitCommit = (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  })();
  return {
    date: new Date().toISOString(),
    commit: gitCommit,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGb: round(totalmem() / 1024 ** 3, 1),
    freeMemoryGb: round(freemem() / 1024 ** 3, 1),
    kernel: release(),
    node: process.version,
    quick: QUICK,
  };
}

async function main() {
  const facts = machine();
  report.machine = facts;
  say(`# Herald benchmark, ${facts.date}`);
  say('');
  say(
    `Machine: ${facts.cores} × ${facts.cpu}, ${facts.memoryGb} GiB, Linux ${facts.kernel}, Node ${facts.node}; commit ${facts.commit}${QUICK ? ' (quick run: short rounds, not for the record)' : ''}.`,
  );
  say(`Rounds of ${ROUND_SECONDS} s, ${ROUNDS} per case (medians), ${CONNECTIONS} connections unless noted; SQLite with synchronous=FULL.`);
  say('');

  if (only.has('accept')) {
    const sqlite = await acceptVsNoop('sqlite');
    report.acceptSqlite = sqlite;
    const single = await acceptVsNoop('sqlite', { GROUP_COMMIT: 'false' });
    report.acceptSqliteWithoutGroupCommit = single;
    section(
      'Accept vs no-op (SQLite)',
      [
        '| case | requests/s (median) | rounds | p50 ms | p99 ms |',
        '|---|---|---|---|---|',
        `| \`GET /v1/token\` (authenticated no-op) | ${sqlite.noopRps} | ${sqlite.noopRounds.join(', ')} | | |`,
        `| \`POST /v1/sms/send\` (durable accept) | ${sqlite.acceptRps} | ${sqlite.acceptRounds.join(', ')} | ${sqlite.acceptP50} | ${sqlite.acceptP99} |`,
      ].join('\n'),
      `**accept ÷ no-op = ${sqlite.ratio}**; non-2xx or errors: ${sqlite.failures}. RSS idle ${sqlite.rssIdleMb} MB, peak under load ${sqlite.rssPeakMb} MB.`,
      `Group commit: with \`GROUP_COMMIT=false\` (one commit per send) the same server accepts ${single.acceptRps} requests/s (p99 ${single.acceptP99} ms) vs ${single.noopRps} no-op (ratio ${single.ratio}); **group commit gains ×${round(sqlite.acceptRps / single.acceptRps, 2)}**.`,
    );
    if (only.has('latency')) {
      const latency = await latencyAt(sqlite.acceptRps / 2);
      report.latency = latency;
      section(
        'Latency at half the maximum rate (SQLite)',
        `${latency.rate} sends/s, evenly spaced (open loop, latency from when each was due), ${latency.rounds} rounds alternating with the no-op, medians: **p50 ${latency.p50} ms, p90 ${latency.p90} ms, p99 ${latency.p99} ms** (p99 by round ${latency.p99Rounds.join(', ')}; max ${latency.max}); failures ${latency.failures}; ${latency.connections} keep-alive connections opened before each round; the load generator itself sent late by up to ${latency.sendLateP99} ms (p99). The no-op at the same rate: p50 ${latency.noop.p50} ms, p99 ${latency.noop.p99} ms (by round ${latency.noop.p99Rounds.join(', ')}). Before the rounds, one of sends at the rate, not counted (the server's cold start): p50 ${latency.warmUp.p50} ms, p99 ${latency.warmUp.p99} ms, max ${latency.warmUp.max} ms.`,
      );
    }
  }
  if (only.has('e2e')) {
    const e2e = await endToEnd('sqlite', Number(values['e2e-rate']));
    report.endToEndSqlite = e2e;
    section(
      `End to end (SQLite, worker in the same process, sandbox delay 0, ${e2e.offeredPerSecond} messages/s offered for ${E2E_SECONDS} s in bulk sends of 100)`,
      `Accepted ${e2e.acceptedPerSecond} messages/s; handed to the sandbox ${e2e.handedOverPerSecondDuringLoad}/s and **delivered ${e2e.deliveredPerSecondDuringLoad} messages/s during the load**; backlog at the end ${e2e.backlogAtEnd}, ${drainText(e2e)}; ${e2e.deliveredPerSecondOverall} delivered/s overall (${e2e.messages} messages). RSS peak ${e2e.rssPeakMb} MB. Failures ${e2e.failures}.`,
    );
    // The other layout: the API server and a `herald worker` process, one core each.
    const split = await endToEnd('sqlite', Number(values['e2e-rate']), { separateWorker: true });
    report.endToEndSqliteSeparateWorker = split;
    section(
      `End to end (SQLite, \`herald serve --no-worker\` + \`herald worker\`, otherwise the same)`,
      `Accepted ${split.acceptedPerSecond} messages/s; **delivered ${split.deliveredPerSecondDuringLoad} messages/s during the load**; backlog at the end ${split.backlogAtEnd}, ${drainText(split)}; ${split.deliveredPerSecondOverall} delivered/s overall (${split.messages} messages). RSS peak ${split.rssPeakMb} MB (server), ${split.workerRssPeakMb} MB (worker). Failures ${split.failures}.`,
    );
  }
  if (only.has('bulk')) {
    const b = await bulk();
    report.bulk = b;
    section(
      'Bulk (SQLite, 1,000 recipients a request, 4 connections)',
      `${b.requestsPerSecond} requests/s = **${b.messagesPerSecond} messages/s accepted**; p50 ${b.p50} ms, p99 ${b.p99} ms; failures ${b.failures}; RSS peak ${b.rssPeakMb} MB.`,
    );
  }
  if (only.has('webhooks')) {
    const w = await webhooks();
    report.webhooks = w;
    section(
      'Webhooks (SQLite, message.sent + message.delivered to one loopback receiver)',
      `${w.events} of ${w.expected} events in ${w.seconds} s: **${w.eventsPerSecond} events/s**; ${w.requests} requests, ${w.twice} events delivered more than once (delivery is at least once).`,
    );
  }
  if (only.has('postgres')) {
    const accept = await acceptVsNoop('postgres');
    report.acceptPostgres = accept;
    const e2e = await endToEnd('postgres', Number(values['e2e-rate']));
    report.endToEndPostgres = e2e;
    const sqliteAccept = (report.acceptSqlite as { acceptRps?: number } | undefined)?.acceptRps;
    section(
      'PostgreSQL (local server)',
      [
        `Accept ${accept.acceptRps} requests/s vs no-op ${accept.noopRps} (ratio ${accept.ratio}); p99 ${accept.acceptP99} ms; failures ${accept.failures}.`,
        ...(sqliteAccept ? [`**PostgreSQL accept ÷ SQLite accept = ${round(accept.acceptRps / sqliteAccept, 2)}**.`] : []),
        `End to end: accepted ${e2e.acceptedPerSecond}/s, delivered ${e2e.deliveredPerSecondDuringLoad}/s during the load, ${drainText(e2e)}; RSS peak ${e2e.rssPeakMb} MB.`,
      ].join('\n'),
    );
  }

  if (only.has('smsc')) {
    const results: SmscPipelineResult[] = [];
    const messages = QUICK ? 2_000 : Number(values['smsc-messages']);
    const env = Object.fromEntries(
      (values['smsc-env'] as string)
        .split(/\s+/)
        .filter(Boolean)
        .map((kv) => kv.split('=') as [string, string]),
    );
    for (const dialect of ['floor', 'sqlite', 'postgres'] as const) {
      for (const receipts of [false, true]) {
        if (!(values['smsc-runs'] as string).split(',').includes(`${dialect}-${receipts ? 'receipts' : 'plain'}`)) continue;
        const store = dialect === 'floor' ? undefined : await benchStore(dialect, values['postgres-url'] as string);
        try {
          results.push(
            await smscPipeline({
              dialect,
              store,
              receipts,
              messages,
              connections: CONNECTIONS,
              env,
              cli: CLI_PATH,
              workers: Number(values['smsc-workers']),
            }),
          );
        } finally {
          await store?.drop();
        }
      }
    }
    report.smsc = results;
    const rows = results.map(
      (r) =>
        `| ${r.dialect} | ${r.scenario} | ${r.httpPerSecond} | ${r.httpP50} / ${r.httpP99} | ${r.submitsPerSecond} | ${r.callbacksPerSecond ?? ''} | ${r.cpuMsPerMessage} | ${r.rssPeakMb} | ${r.bytesWrittenPerMessage} | ${r.commitsPerMessage ?? ''} | ${r.rowsWrittenPerMessage ?? ''} | ${r.non2xx}${r.complete ? '' : ' (incomplete)'} |`,
    );
    section(
      `HTTP send → SMPP → receipt → webhook (${messages} sends over ${CONNECTIONS} connections, closed loop)`,
      `\`herald serve\` with SMS_PROVIDER=smpp against an SMPP sink that answers every submit_sm (and, with receipts, reports each DELIVRD at once), a webhook for message.delivered to a loopback receiver. Rates from the first request to the last submit_sm / callback. Bytes: written to disk by the process (SQLite), WAL generated (PostgreSQL). \`floor\`: the same job done by the least a Node gateway can do (bench/lib/node-floor.mjs: no authentication, store or fsync), a ceiling for Herald on this machine. The side-by-side with Kannel is docs/performance.md, "Against Kannel".${Object.keys(env).length > 0 ? ` Settings: ${values['smsc-env']}.` : ''}`,
      [
        '| store | scenario | HTTP req/s | HTTP p50 / p99 ms | submit_sm/s | callbacks/s | CPU ms/msg | RSS peak MB | bytes/msg | commits/msg | rows/msg | non-2xx |',
        '|---|---|---|---|---|---|---|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
    );
  }

  if (only.has('overload')) {
    const sustained = values['overload-rate'] ? Number(values['overload-rate']) / 2 : await sustainedRate();
    const o = await overload(2 * sustained, Number(values['overload-connections']), (values['overload-variants'] as string).split(','));
    report.overload = o;
    const rows = o.rounds.map((r) => {
      const [, , during, after] = r.phases as PhaseFigures[];
      const recovery = r.recoverySeconds === null ? `> ${o.phases[3]?.durationSeconds} s` : `${r.recoverySeconds} s`;
      return `| ${r.variant} | ${r.round} | ${o.phases[2]?.ratePerSecond} | ${during?.acceptedPerSecond} | ${during?.shedPerSecond ? `${during.shedPerSecond} (p99 ${during.shedP99} ms, ${round(during.shedWithRetryAfter * 100)} % with Retry-After)` : 0} | ${during?.otherPerSecond} | ${during?.acceptedP50} | ${during?.acceptedP99} (${r.unloadedP99} unloaded, ×${r.p99Ratio}) | ${r.timeouts} | ${recovery} | ${after?.acceptedP99} | ${r.rssPeakMb} |`;
    });
    section(
      `Overload (SQLite, ${o.rate} sends/s offered for ${o.phases[2]?.durationSeconds} s over ${o.connections} connections)`,
      `Open loop: ${o.phases[1]?.ratePerSecond}/s for ${o.phases[1]?.durationSeconds} s after as long a warm-up at that rate (the unloaded latency), ${o.rate}/s for ${o.phases[2]?.durationSeconds} s (twice the sustained rate), ${o.phases[3]?.ratePerSecond}/s for ${o.phases[3]?.durationSeconds} s; latency from when each send was due; a timeout is a send not answered within ${o.clientTimeoutMs / 1000} s. Shedding \`off\`: every bound 0; \`on\`: the defaults. Recovery: from the end of the overload until every 1 s window has its accepted p99 within what the unloaded phase showed (twice its p99, or its worst 1 s window if higher) and nothing shed.`,
      [
        '| shedding | round | offered/s | accepted/s | 503/s | other/s | p50 ms | p99 ms | timeouts | recovery | p99 after ms | RSS peak MB |',
        '|---|---|---|---|---|---|---|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
    );
  }
  const out = values.out as string;
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'latest.md'), `${lines.join('\n')}\n`);
  writeFileSync(join(out, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\nReport: ${join(out, 'latest.md')} and latest.json\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
