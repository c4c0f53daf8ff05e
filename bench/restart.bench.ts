/**
 * How long `herald serve` on SQLite takes to be ready again after a crash: the server is loaded
 * with sends, killed with SIGKILL in the middle of them (its WAL and shared-memory index left
 * behind), and started again on the same file; the figure is the time from the new process's
 * spawn to the first 200 from /readyz, polled every 5 ms. Figures, never pass/fail.
 *
 *   npx tsx bench/restart.bench.ts [--rounds 5] [--load-seconds 6] [--cli path/to/dist/main/cli.js]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchEnv, benchStore, CLI, createAccount, freePort, nodeFlags, startHerald } from './lib/herald.js';
import { load, median } from './lib/load.js';
import { sms } from './lib/traffic.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    'load-seconds': { type: 'string', default: '6' },
    cli: { type: 'string', default: CLI },
  },
});
const rounds = Number(values.rounds);
const loadSeconds = Number(values['load-seconds']);
const cli = values.cli as string;

const sizeOf = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

interface Restart {
  walBytes: number;
  queued: number;
  listeningMs: number;
  readyMs: number;
}

/** Starts the server again on the crashed store; the log's "herald is listening" marks when it listens. */
async function restart(env: Record<string, string>): Promise<{ figures: Omit<Restart, 'walBytes' | 'queued'>; child: ChildProcess }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags(cli), cli, 'serve'], {
    env: { ...env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let listeningMs = Number.NaN;
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    if (Number.isNaN(listeningMs) && output.includes('"herald is listening"')) listeningMs = performance.now() - started;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const deadline = started + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`herald exited at restart: ${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) break;
    } catch {}
    if (performance.now() > deadline) throw new Error(`not ready in 60 s: ${output.slice(-2_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { figures: { listeningMs, readyMs: performance.now() - started }, child };
}

const results: Restart[] = [];
for (let round = 1; round <= rounds; round++) {
  const store = await benchStore('sqlite', '');
  try {
    const account = createAccount(store, cli);
    const first = await startHerald(store, { worker: true, cli });
    const token = await first.token(account);
    const path = (store.env.DATABASE_URL as string).slice('sqlite:'.length);
    // Sends at full speed; the process is killed a second before the load would end.
    const running = load({
      url: `${first.url}/v1/sms/send`,
      method: 'POST',
      token,
      bodyFor: sms,
      connections: 32,
      durationSeconds: loadSeconds,
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, (loadSeconds - 1) * 1_000));
    process.kill(first.pid, 'SIGKILL');
    await running;
    await first.stop(); // reaps the child (already dead)
    const walBytes = sizeOf(`${path}-wal`);
    const counts = await store.statusCounts();
    const { figures, child } = await restart(benchEnv(store, {}));
    results.push({ walBytes, queued: counts.queued ?? 0, ...figures });
    console.log(
      `round ${round}: WAL ${(walBytes / 2 ** 20).toFixed(1)} MiB, ${counts.queued ?? 0} queued of ${Object.values(counts).reduce((a, b) => a + b, 0)} messages; ` +
        `listening after ${figures.listeningMs.toFixed(0)} ms, /readyz 200 after ${figures.readyMs.toFixed(0)} ms`,
    );
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  } finally {
    await store.drop();
  }
}

console.log('\n| | median | min | max |\n|---|---|---|---|');
for (const [label, pick] of [
  ['WAL left by the crash (MiB)', (r: Restart) => r.walBytes / 2 ** 20],
  ['spawn → listening (ms)', (r: Restart) => r.listeningMs],
  ['spawn → first /readyz 200 (ms)', (r: Restart) => r.readyMs],
] as const) {
  const values = results.map(pick);
  console.log(`| ${label} | ${median(values).toFixed(1)} | ${Math.min(...values).toFixed(1)} | ${Math.max(...values).toFixed(1)} |`);
}
