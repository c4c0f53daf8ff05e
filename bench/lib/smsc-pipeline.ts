import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import pg from 'pg';
import smpp, { type Pdu } from 'smpp';
import { type BenchStore, createAccount, type Dialect, type RunningWorker, rssOf, startHerald, startWorker } from './herald.js';

/**
 * The job a gateway exists for, Herald alone: HTTP sends (autocannon, exactly N, closed loop) ->
 * Herald -> an SMPP sink (the smpp package) that answers every submit_sm and, with receipts,
 * sends DELIVRD at once -> Herald -> a webhook receiver counting callbacks. The same shape as the
 * side-by-side harness with Kannel (docs/performance.md, "Against Kannel"), so its figures can be
 * read next to that table; the ratio to Kannel comes only from that harness.
 */
export interface SmscPipelineOptions {
  /** Herald on a store, or the Node floor (node-floor.mjs) in its place. */
  dialect: Dialect | 'floor';
  /** Herald's store (none for the floor). */
  store: BenchStore | undefined;
  receipts: boolean;
  messages: number;
  connections: number;
  /** Herald settings on top of the bench's (e.g. DISPATCH_THREAD=false). */
  env?: Record<string, string>;
  /** Longest wait for the last submit_sm or callback after the load (s). */
  drainSeconds?: number;
  /** Another build's `dist/main/cli.js` (`--cli`), this checkout's when absent. */
  cli?: string | undefined;
  /** `herald worker` processes beside `herald serve --no-worker`; 0 (default): the server's own worker. */
  workers?: number | undefined;
}

export interface SmscPipelineResult {
  scenario: 'plain' | 'receipts';
  dialect: Dialect | 'floor';
  messages: number;
  httpPerSecond: number;
  httpP50: number;
  httpP99: number;
  non2xx: number;
  /** First request to the N-th submit_sm at the sink. */
  submitsPerSecond: number;
  /** First request to the N-th callback (receipts only). */
  callbacksPerSecond: number | null;
  /** Herald's CPU (user + system, all threads) per message, ms. */
  cpuMsPerMessage: number;
  rssPeakMb: number;
  /** SQLite: bytes the process wrote to disk per message; PostgreSQL: WAL bytes per message. */
  bytesWrittenPerMessage: number;
  /** PostgreSQL: commits and rows written (inserted + updated + deleted) per message. */
  commitsPerMessage: number | null;
  rowsWrittenPerMessage: number | null;
  /** Sends answered 2xx, submit_sm the sink took, callbacks the receiver got. */
  accepted: number;
  submitted: number;
  callbacks: number;
  /** Receipts Herald answered with an error (the sink does not send them again). */
  receiptsRefused: number;
  complete: boolean;
}

const TICKS_PER_SECOND = 100;

function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

function bytesWrittenBy(pid: number): number {
  const match = /write_bytes:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
  return Number(match?.[1] ?? 0);
}

async function postgresCounters(url: string): Promise<{ commits: number; rows: number; walBytes: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const db = await client.query(
      'select xact_commit::bigint as commits, (tup_inserted + tup_updated + tup_deleted)::bigint as rows from pg_stat_database where datname = current_database()',
    );
    const wal = await client.query('select pg_current_wal_lsn() - $1::pg_lsn as bytes', ['0/0']);
    return { commits: Number(db.rows[0].commits), rows: Number(db.rows[0].rows), walBytes: Number(wal.rows[0].bytes) };
  } finally {
    await client.end();
  }
}

/** An SMSC that takes every submit_sm at once and, with `receipts`, reports each delivered at once. */
async function startSink(receipts: boolean) {
  let submits = 0;
  let binds = 0;
  let refusedReceipts = 0;
  let lastSubmitAt = 0;
  const server = smpp.createServer({}, (session) => {
    session.on('error', () => {});
    session.on('bind_transceiver', (pdu: Pdu) => {
      binds++;
      session.send(pdu.response({ system_id: 'BENCHSINK' }));
    });
    session.on('enquire_link', (pdu: Pdu) => session.send(pdu.response()));
    session.on('unbind', (pdu: Pdu) => session.send(pdu.response()));
    session.on('deliver_sm_resp', (pdu: Pdu) => {
      if (pdu.command_status !== 0) refusedReceipts++;
    });
    session.on('submit_sm', (pdu: Pdu) => {
      const id = (++submits).toString(16).toUpperCase();
      lastSubmitAt = performance.now();
      session.send(pdu.response({ message_id: id }));
      if (!receipts) return;
      const text = `id:${id} sub:001 dlvrd:001 submit date:2611211200 done date:2611211201 stat:DELIVRD err:000 text:`;
      session.deliver_sm({
        source_addr: String(pdu.destination_addr),
        destination_addr: String(pdu.source_addr),
        esm_class: 0x04,
        short_message: Buffer.from(text, 'latin1'),
        receipted_message_id: id,
        message_state: 2,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    submits: () => submits,
    binds: () => binds,
    refusedReceipts: () => refusedReceipts,
    lastSubmitAt: () => lastSubmitAt,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A webhook receiver that answers 204 and counts the message.delivered events it gets. */
async function startReceiver() {
  let callbacks = 0;
  let lastAt = 0;
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      callbacks++;
      lastAt = performance.now();
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    callbacks: () => callbacks,
    lastAt: () => lastAt,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the load is sent to: Herald (with its worker processes, if any), or the Node floor. */
interface Gateway {
  url: string;
  token: string;
  /** Its processes: CPU, bytes and RSS are their sums. */
  pids(): number[];
  stop(): Promise<void>;
}

/** The Node floor (node-floor.mjs) as a child process, bound to the sink, posting receipts to `receiverUrl`. */
async function startFloor(sinkPort: number, receiverUrl: string | undefined): Promise<Gateway> {
  const script = new URL('./node-floor.mjs', import.meta.url).pathname;
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH, SMPP_PORT: String(sinkPort), ...(receiverUrl ? { RECEIVER_URL: receiverUrl } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the Node floor exited at start (${code})`)));
    setTimeout(() => reject(new Error('the Node floor did not listen within 10 s')), 10_000).unref();
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  const pid = child.pid as number;
  return {
    url: `http://127.0.0.1:${port}`,
    token: 'none',
    pids: () => [pid],
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Herald on `store` (`serve`, or `serve --no-worker` beside worker processes), with a webhook to the receiver, once its SMPP link is bound. */
async function startHeraldGateway(
  options: SmscPipelineOptions,
  store: BenchStore,
  sink: Awaited<ReturnType<typeof startSink>>,
  receiverUrl: string,
): Promise<Gateway> {
  const account = createAccount(store, options.cli);
  const env = {
    SMS_PROVIDER: 'smpp',
    SMPP_URL: `smpp://bench:bench@127.0.0.1:${sink.port}`,
    SMPP_DEFAULT_SENDER: '12345',
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
    RATE_LIMIT_DEVELOPER: '1000000:1000000',
    ...options.env,
  };
  const workerCount = options.workers ?? 0;
  const herald = await startHerald(store, { worker: workerCount === 0, cli: options.cli, env });
  const workers: RunningWorker[] = [];
  const stop = async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await herald.stop();
  };
  try {
    for (let i = 0; i < workerCount; i++) workers.push(await startWorker(store, env, options.cli));
    const token = await herald.token(account);
    if (options.receipts) {
      const created = await fetch(`${herald.url}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiverUrl, events: ['message.delivered'] }),
      });
      if (created.status !== 201) throw new Error(`webhook registration answered ${created.status}`);
    }
    // The SMPP link is bound once /readyz says so (the workers' binds, once the sink has them all).
    for (let i = 0; i < 100; i++) {
      if (
        workerCount > 0
          ? sink.binds() >= workerCount
          : (await (await fetch(`${herald.url}/readyz`)).text()).includes('"provider":"smpp","connected":true')
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { url: herald.url, token, pids: () => [herald.pid, ...workers.map((worker) => worker.pid)], stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export async function smscPipeline(options: SmscPipelineOptions): Promise<SmscPipelineResult> {
  const { store } = options;
  const sink = await startSink(options.receipts);
  const receiver = await startReceiver();
  try {
    const gateway =
      options.dialect === 'floor' || !store
        ? await startFloor(sink.port, options.receipts ? receiver.url : undefined)
        : await startHeraldGateway(options, store, sink, receiver.url);
    try {
      return await measure(options, gateway, sink, receiver);
    } finally {
      await gateway.stop();
    }
  } finally {
    await receiver.close();
    await sink.close();
  }
}

async function measure(
  options: SmscPipelineOptions,
  gateway: Gateway,
  sink: Awaited<ReturnType<typeof startSink>>,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
): Promise<SmscPipelineResult> {
  const { store, messages } = options;
  const { url, token, pids } = gateway;
  const rss = () => pids().reduce((sum, pid) => sum + rssOf(pid), 0);
  const pgBefore = options.dialect === 'postgres' && store ? await postgresCounters(store.env.DATABASE_URL as string) : undefined;
  const sum = (of: (pid: number) => number) => pids().reduce((total, pid) => total + of(pid), 0);
  const cpuBefore = sum(cpuSecondsOf);
  const bytesBefore = sum(bytesWrittenBy);
  const submitsBefore = sink.submits();
  let rssPeak = rss();
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rss());
  }, 200);
  const started = performance.now();
  let n = 0;
  const result = await autocannon({
    url: `${url}/v1/sms/send`,
    method: 'POST',
    connections: options.connections,
    amount: messages,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) =>
          Object.assign({}, request, {
            body: JSON.stringify({ to: `+1415${String(5_000_000 + (n++ % 4_000_000))}`, message: 'Your code is 123456' }),
          }),
      },
    ],
    timeout: 30,
  });
  const httpSeconds = (performance.now() - started) / 1000;
  const deadline = performance.now() + (options.drainSeconds ?? 120) * 1000;
  const want = submitsBefore + result['2xx'];
  while (performance.now() < deadline && (sink.submits() < want || (options.receipts && receiver.callbacks() < result['2xx']))) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  clearInterval(sampler);
  const cpu = sum(cpuSecondsOf) - cpuBefore;
  const bytes = sum(bytesWrittenBy) - bytesBefore;
  const pgAfter = pgBefore && store ? await postgresCounters(store.env.DATABASE_URL as string) : undefined;
  const submitsSeconds = (sink.lastSubmitAt() - started) / 1000;
  const callbacksSeconds = (receiver.lastAt() - started) / 1000;
  const ok = result['2xx'];
  return {
    scenario: options.receipts ? 'receipts' : 'plain',
    dialect: options.dialect,
    messages,
    httpPerSecond: Math.round(ok / httpSeconds),
    httpP50: result.latency.p50,
    httpP99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
    submitsPerSecond: Math.round((sink.submits() - submitsBefore) / submitsSeconds),
    callbacksPerSecond: options.receipts ? Math.round(receiver.callbacks() / callbacksSeconds) : null,
    cpuMsPerMessage: Math.round((cpu * 1000 * 100) / ok) / 100,
    rssPeakMb: Math.round(rssPeak / 1024 / 1024),
    bytesWrittenPerMessage: Math.round((pgBefore && pgAfter ? pgAfter.walBytes - pgBefore.walBytes : bytes) / Math.max(1, ok)),
    commitsPerMessage: pgBefore && pgAfter ? Math.round(((pgAfter.commits - pgBefore.commits) / ok) * 10) / 10 : null,
    rowsWrittenPerMessage: pgBefore && pgAfter ? Math.round(((pgAfter.rows - pgBefore.rows) / ok) * 10) / 10 : null,
    accepted: ok,
    submitted: sink.submits() - submitsBefore,
    callbacks: receiver.callbacks(),
    receiptsRefused: sink.refusedReceipts(),
    complete: ok === messages && sink.submits() >= want && (!options.receipts || receiver.callbacks() >= ok),
  };
}
