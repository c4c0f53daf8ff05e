import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';

/** This checkout's build; another build's `dist/main/cli.js` may be passed instead, to compare two. */
export const CLI = fileURLToPath(new URL('../../dist/main/cli.js', import.meta.url));

/** The Node.js flags after `node` in the CLI's #! line (none today; an older build's, compared, may have some): the bench runs Herald as `herald` runs. */
export function nodeFlags(cli: string): string[] {
  const words = (readFileSync(cli, 'utf8').split('\n', 1)[0] ?? '').trim().split(/\s+/);
  const node = words.indexOf('node');
  return node < 0 ? [] : words.slice(node + 1);
}

export type Dialect = 'sqlite' | 'postgres';

/** A store of its own for one bench case: a fresh SQLite file, or a fresh PostgreSQL schema. */
export interface BenchStore {
  dialect: Dialect;
  env: Record<string, string>;
  /** Counts of messages by status, read straight from the store (the bench's view, not the API's). */
  statusCounts(): Promise<Record<string, number>>;
  drop(): Promise<void>;
}

let schemas = 0;

export async function benchStore(dialect: Dialect, postgresUrl: string): Promise<BenchStore> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'herald-bench-'));
    const path = join(dir, 'herald.db');
    let reader: Database.Database | undefined;
    return {
      dialect,
      env: { DATABASE_URL: `sqlite:${path}` },
      async statusCounts() {
        reader ??= new Database(path, { readonly: true, timeout: 5_000 });
        const rows = reader.prepare('select status, count(*) as n from messages group by status').all() as Array<{
          status: string;
          n: number;
        }>;
        return Object.fromEntries(rows.map((r) => [r.status, r.n]));
      },
      async drop() {
        reader?.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `herald_bench_${process.pid}_${Date.now() % 100_000}_${++schemas}`;
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
  return {
    dialect,
    env: { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema },
    async statusCounts() {
      const { rows } = await pool.query(`select status, count(*)::int as n from ${schema}.messages group by status`);
      return Object.fromEntries(rows.map((r: { status: string; n: number }) => [r.status, r.n]));
    },
    async drop() {
      await pool.query(`drop schema if exists ${schema} cascade`);
      await pool.end();
    },
  };
}

/** The environment every bench server runs with: quiet logs, no demo account, limits out of the way. */
export function benchEnv(store: BenchStore, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'LANG']) if (process.env[key]) env[key] = process.env[key] as string;
  return {
    ...env,
    ...store.env,
    LOG_LEVEL: 'warn',
    DEMO_ACCOUNT: 'false',
    SANDBOX_DELAY_MS: '0',
    RATE_LIMIT_DEVELOPER: '100000:100000',
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
    ...extra,
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface BenchAccount {
  accountId: string;
  clientId: string;
  clientSecret: string;
}

/** `herald accounts create` on the bench store, with enough credits for any case. */
export function createAccount(store: BenchStore, cli = CLI): BenchAccount {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first (npm run bench does)`);
  const out = execFileSync(
    process.execPath,
    [cli, 'accounts', 'create', '--name', 'Bench', '--email', 'bench@example.com', '--credits', '1000000000', '--json'],
    { env: benchEnv(store, {}), encoding: 'utf8' },
  );
  const created = JSON.parse(out) as { account_id: string; client_id: string; client_secret: string };
  return { accountId: created.account_id, clientId: created.client_id, clientSecret: created.client_secret };
}

export interface RunningHerald {
  url: string;
  pid: number;
  /** Resident set size of the server process now, in bytes. */
  rss(): number;
  token(account: BenchAccount): Promise<string>;
  stop(): Promise<void>;
}

/** Servers started so far by this run (BENCH_SERVER_STDOUT names their files by it). */
let serversStarted = 0;

/** `herald serve` (or `serve --no-worker`) as a child process on a free loopback port. */
export async function startHerald(
  store: BenchStore,
  options: { worker: boolean; env?: Record<string, string>; cli?: string },
): Promise<RunningHerald> {
  const port = await freePort();
  const cli = options.cli ?? CLI;
  // BENCH_SERVER_NODE_FLAGS adds flags of one's own, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile.
  const extra = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const args = [...nodeFlags(cli), ...extra, cli, 'serve', ...(options.worker ? [] : ['--no-worker'])];
  // BENCH_SERVER_STDOUT=PREFIX: each server's standard output (where V8's --trace-* flags write)
  // goes to a file of its own, PREFIX.1, PREFIX.2, ... in the order the servers start.
  const stdoutPrefix = process.env.BENCH_SERVER_STDOUT;
  const stdout = stdoutPrefix ? openSync(`${stdoutPrefix}.${++serversStarted}`, 'w') : 'ignore';
  const child: ChildProcess = spawn(process.execPath, args, {
    env: benchEnv(store, { HOST: '127.0.0.1', PORT: String(port), ...options.env }),
    stdio: ['ignore', stdout, 'pipe'],
  });
  if (typeof stdout === 'number') closeSync(stdout); // the child has its own copy
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`herald exited at start: ${stderr}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`herald did not become ready in 30 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const pid = child.pid as number;
  return {
    url,
    pid,
    rss: () => rssOf(pid),
    async token(account) {
      for (let attempt = 1; ; attempt++) {
        const response = await fetch(`${url}/oauth/token`, {
          method: 'POST',
          body: new URLSearchParams({ grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret }),
        });
        const body = (await response.json()) as { access_token?: string };
        if (body.access_token) return body.access_token;
        // Shed while the server's start still weighs on its event loop: retried as a client should.
        if (response.status !== 503 || attempt === 5) throw new Error(`no token: ${JSON.stringify(body)}`);
        await new Promise((r) => setTimeout(r, Number(response.headers.get('retry-after') ?? 1) * 1000));
      }
    },
    async stop() {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Resident set size of a process, in bytes (0 once it is gone). */
export function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(match?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

export interface RunningWorker {
  pid: number;
  rss(): number;
  stop(): Promise<void>;
}

/** `herald worker` as a child process on the bench store: delivery in a process of its own. */
export async function startWorker(store: BenchStore, env: Record<string, string> = {}, cli = CLI): Promise<RunningWorker> {
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags(cli), cli, 'worker'], {
    env: benchEnv(store, env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  if (child.exitCode !== null) throw new Error(`herald worker exited at start: ${stderr}`);
  const pid = child.pid as number;
  return {
    pid,
    rss: () => rssOf(pid),
    async stop() {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
