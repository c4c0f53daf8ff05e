import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { keepProcessOutput } from './logs.js';

/**
 * Runs the built CLI (`node dist/main/cli.js ...`) as a real child process, the way an operator
 * does: for end-to-end tests of `serve` and the management commands. Every wait is bounded, and
 * every child started here is tracked so `killLeftoverProcesses()` (call it in afterAll) can make
 * sure none outlives its test file.
 */

export const CLI_PATH = fileURLToPath(new URL('../dist/main/cli.js', import.meta.url));

/** Settings Herald reads from the environment; never inherited from the shell running the tests. */
const HERALD_SETTING =
  /^(PORT|HOST|DATABASE_[A-Z_]+|LOG_LEVEL|PUBLIC_URL|DEMO_ACCOUNT|BODY_LIMIT_BYTES|SHUTDOWN_TIMEOUT_MS|PRICE_[A-Z_]+|SANDBOX_[A-Z_]+|WORKER_[A-Z_]+|SEND_TIMEOUT_MS|RETRY_[A-Z_]+|MESSAGE_MAX_AGE_MS|REDIS_URL|RATE_LIMIT_[A-Z_]+|TOKEN_FAILURES_[A-Z_]+|HERALD_[A-Z_]+|TLS_[A-Z_]+|TRUSTED_PROXIES|METRICS_[A-Z]+|DISPATCH_[A-Z_]+|SMS_PROVIDER|SMPP_[A-Z_]+|[A-Z]+_RECOVERY)$/;

export type ProcessEnv = Record<string, string>;

/**
 * The environment for a Herald process on a test database: the parent's environment without any
 * Herald setting (and without NODE_OPTIONS), plus DATABASE_URL / DATABASE_SCHEMA and `extra`.
 */
export function heraldEnv(location: { url: string; schema: string | undefined }, extra: ProcessEnv = {}): ProcessEnv {
  const env: ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !HERALD_SETTING.test(key) && key !== 'NODE_OPTIONS') env[key] = value;
  }
  env.DATABASE_URL = location.url;
  if (location.schema) env.DATABASE_SCHEMA = location.schema;
  env.LOG_LEVEL = 'info';
  // Load tests send thousands of requests from one client: per-client limits far above them,
  // except where a test sets its own.
  env.RATE_LIMIT_DEVELOPER = '100000:100000';
  env.RATE_LIMIT_BUSINESS = '100000:100000';
  env.RATE_LIMIT_ENTERPRISE = '100000:100000';
  env.TOKEN_FAILURES_PER_CLIENT = '100000';
  env.TOKEN_FAILURES_PER_IP = '100000';
  Object.assign(env, RELAXED_OVERLOAD_BOUNDS);
  return { ...env, ...extra };
}

/**
 * The suite's machine is shared and loaded: sends wait to be stored, and the event loop lags and
 * is busy, longer than on a machine serving only Herald, without the node being overloaded (a
 * server in a test runner's process shares its loop with the tests). Shedding has tests of its
 * own (src/http/admission.test.ts) and the overload bench; elsewhere a 503 would only be noise.
 */
export const RELAXED_OVERLOAD_BOUNDS = {
  OVERLOAD_MAX_QUEUE_WAIT_MS: '5000',
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '2000',
  OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT: '0',
} as const;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface CliResult extends Exit {
  stdout: string;
  stderr: string;
}

/** Children started here and not yet exited, each with a promise of its exit (output drained). */
const children = new Map<ChildProcess, Promise<Exit>>();
let exitHookInstalled = false;

function assertBuilt(): void {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} does not exist: run \`npm run build\` before the end-to-end tests`);
}

/** What a spawned process wrote so far (appended as it arrives). */
interface Output {
  stdout: string;
  stderr: string;
}

function spawnHerald(args: string[], env: ProcessEnv): { child: ChildProcess; closed: Promise<Exit>; output: Output } {
  assertBuilt();
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Last resort if a test file dies without its afterAll: no orphan servers.
    process.once('exit', () => {
      for (const child of children.keys()) child.kill('SIGKILL');
    });
  }
  const child = spawn(process.execPath, [CLI_PATH, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Collected once, here: for the caller, and kept for the suite's log scan (test/logs.ts).
  const output: Output = { stdout: '', stderr: '' };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  child.once('close', () => keepProcessOutput(args[0] ?? 'herald', child.pid, output.stdout, output.stderr));
  // 'close' comes after 'exit' once stdout and stderr are drained, so no output is lost.
  const closed = new Promise<Exit>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal }));
    child.once('error', () => {
      children.delete(child);
      resolve({ code: null, signal: null });
    });
  });
  children.set(child, closed);
  child.once('exit', () => children.delete(child));
  return { child, closed, output };
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs `herald <args>` to completion and captures its output; kills it after `timeoutMs`. */
export async function runCli(args: string[], env: ProcessEnv, options: { timeoutMs?: number } = {}): Promise<CliResult> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const { child, closed, output } = spawnHerald(args, env);
  const exit = await withTimeout(closed, timeoutMs, () => {
    child.kill('SIGKILL');
    return new Error(
      `herald ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout:\n${output.stdout}\nstderr:\n${output.stderr}`,
    );
  });
  return { ...exit, stdout: output.stdout, stderr: output.stderr };
}

/** Like runCli, but fails (with the output in the message) unless the command exits with 0. */
export async function runCliOk(args: string[], env: ProcessEnv, options: { timeoutMs?: number } = {}): Promise<CliResult> {
  const result = await runCli(args, env, options);
  if (result.code !== 0) {
    throw new Error(
      `herald ${args.join(' ')} exited with ${result.code ?? result.signal}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`,
    );
  }
  return result;
}

/** A long-running Herald process (`serve` or `worker`) started by a test. */
export interface HeraldProcess {
  readonly pid: number;
  /** Everything written to stdout so far (the JSON log, and the demo banner on a first start). */
  stdout(): string;
  stderr(): string;
  /** The stdout lines that are JSON log records, parsed. */
  logRecords(): Array<Record<string, unknown>>;
  /**
   * Waits until stdout satisfies `predicate` (output reaches the test asynchronously, through a
   * pipe); fails with the output after `timeoutMs`.
   */
  waitForStdout(predicate: (stdout: string) => boolean, options?: { timeoutMs?: number; what?: string }): Promise<void>;
  /** Settles when the process has exited (for whatever reason) and its output is drained. */
  readonly exited: Promise<Exit>;
  /** SIGTERM, then waits (bounded) for the exit; SIGKILL and an error if it does not come. Idempotent. */
  stop(options?: { timeoutMs?: number }): Promise<Exit>;
  /** SIGKILL (a crash: no shutdown code runs), then waits (bounded) for the exit. */
  kill(options?: { timeoutMs?: number }): Promise<Exit>;
}

export interface HeraldServer extends HeraldProcess {
  /** Base URL of the running server, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
}

export type HeraldWorker = HeraldProcess;

const LISTENING = 'herald is listening';
const WORKER_STARTED = 'dispatch worker started';

/** Parses the JSON log records out of a process's stdout, skipping anything else (the demo banner). */
/** Where a process started with METRICS_PORT serves its metrics (its 'metrics are served' log line). */
export function metricsUrlOf(node: HeraldProcess): string {
  const record = node.logRecords().find((r) => r.msg === 'metrics are served');
  if (!record) throw new Error('the process serves no metrics (METRICS_PORT unset?)');
  return String(record.url);
}

export function logRecordsOf(stdout: string): Array<Record<string, unknown>> {
  const records: Array<Record<string, unknown>> = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      records.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a line cut short by a crash; not a record
    }
  }
  return records;
}

/** A spawned long-running process with its output collected, plus `onRecord` for each complete log record. */
function launch(name: string, args: string[], env: ProcessEnv, onRecord: (record: Record<string, unknown>) => void) {
  const { child, closed: exited, output } = spawnHerald(args, env);
  let scanned = 0;
  // Runs after spawnHerald's own listener, so output.stdout already holds the chunk.
  child.stdout?.on('data', () => {
    // Hand over complete lines only.
    const end = output.stdout.lastIndexOf('\n') + 1;
    if (end > scanned) {
      for (const record of logRecordsOf(output.stdout.slice(scanned, end))) onRecord(record);
      scanned = end;
    }
  });

  const state = { exited: false };
  void exited.then(() => (state.exited = true));
  const describe = () => `\nstdout:\n${output.stdout}\nstderr:\n${output.stderr}`;

  let stopping: Promise<Exit> | undefined;
  const stop = (stopOptions: { timeoutMs?: number } = {}): Promise<Exit> => {
    stopping ??= (async () => {
      if (!state.exited) child.kill('SIGTERM');
      const ms = stopOptions.timeoutMs ?? 15_000;
      return withTimeout(exited, ms, () => {
        child.kill('SIGKILL');
        return new Error(`${name} (pid ${child.pid}) did not exit within ${ms} ms of SIGTERM${describe()}`);
      });
    })();
    return stopping;
  };
  const kill = (killOptions: { timeoutMs?: number } = {}): Promise<Exit> => {
    if (!state.exited) child.kill('SIGKILL');
    const ms = killOptions.timeoutMs ?? 5_000;
    return withTimeout(exited, ms, () => new Error(`${name} (pid ${child.pid}) survived SIGKILL for ${ms} ms`));
  };

  const handle: HeraldProcess = {
    pid: child.pid ?? -1,
    stdout: () => output.stdout,
    stderr: () => output.stderr,
    logRecords: () => logRecordsOf(output.stdout),
    async waitForStdout(predicate, waitOptions = {}) {
      const ms = waitOptions.timeoutMs ?? 10_000;
      const until = Date.now() + ms;
      while (!predicate(output.stdout)) {
        if (Date.now() > until) throw new Error(`${name}: waited ${ms} ms for ${waitOptions.what ?? 'some output'}${describe()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    exited,
    stop,
    kill,
  };
  const abandon = async () => {
    child.kill('SIGKILL');
    await withTimeout(exited, 5_000, () => new Error(`${name} did not die after SIGKILL`)).catch(() => {});
  };
  return { handle, state, describe, abandon };
}

/**
 * Starts `herald serve` (or `herald serve --no-worker` with `worker: false`) on a port the OS
 * picks (PORT=0), learns the address from the 'herald is listening' log record, and waits until
 * /readyz answers 200.
 */
export async function startServer(
  env: ProcessEnv,
  /** `port`: a fixed one (a restart a client must find again); any free one by default. */
  options: { timeoutMs?: number; worker?: boolean; port?: number } = {},
): Promise<HeraldServer> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let address: string | undefined;
  const args = options.worker === false ? ['serve', '--no-worker'] : ['serve'];
  const { handle, state, describe, abandon } = launch(
    `herald ${args.join(' ')}`,
    args,
    { HOST: '127.0.0.1', ...env, PORT: String(options.port ?? 0) },
    (record) => {
      if (address === undefined && record.msg === LISTENING && typeof record.address === 'string') address = record.address;
    },
  );

  try {
    // 1. The address, from the log.
    while (address === undefined) {
      if (state.exited) throw new Error(`herald serve exited before listening${describe()}`);
      if (Date.now() > deadline) throw new Error(`herald serve did not log '${LISTENING}' within ${timeoutMs} ms${describe()}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const url = address.replace(/\/+$/, '');
    // 2. Readiness.
    for (;;) {
      if (state.exited) throw new Error(`herald serve exited before it was ready${describe()}`);
      try {
        const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
        await response.arrayBuffer();
        if (response.status === 200) break;
      } catch {
        // not accepting connections yet
      }
      if (Date.now() > deadline) throw new Error(`herald serve at ${url} was not ready within ${timeoutMs} ms${describe()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { ...handle, url };
  } catch (error) {
    await abandon();
    throw error;
  }
}

/**
 * Starts `herald worker` (no HTTP) and waits until it logs 'dispatch worker started', i.e. it has
 * migrated the store and its claim loop runs.
 */
export async function startWorker(env: ProcessEnv, options: { timeoutMs?: number } = {}): Promise<HeraldWorker> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let started = false;
  const { handle, state, describe, abandon } = launch('herald worker', ['worker'], env, (record) => {
    if (record.msg === WORKER_STARTED) started = true;
  });
  try {
    while (!started) {
      if (state.exited) throw new Error(`herald worker exited before it started${describe()}`);
      if (Date.now() > deadline) throw new Error(`herald worker did not log '${WORKER_STARTED}' within ${timeoutMs} ms${describe()}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return handle;
  } catch (error) {
    await abandon();
    throw error;
  }
}

/** SIGKILLs every process started here that is still running, and waits (bounded) for each to exit. */
export async function killLeftoverProcesses(): Promise<void> {
  const leftovers = [...children];
  for (const [child] of leftovers) child.kill('SIGKILL');
  await Promise.all(
    leftovers.map(([child, closed]) => withTimeout(closed, 5_000, () => new Error(`pid ${child.pid} survived SIGKILL`)).catch(() => {})),
  );
}
