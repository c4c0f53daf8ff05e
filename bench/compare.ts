/**
 * `npm run bench:compare -- --base DIR`: this checkout's build against another one (DIR is a
 * checkout of another commit, built with `npm run build`), in one run on one machine. Both servers
 * run side by side, each on a store of its own, and rounds alternate between them (base, this,
 * base, this...), so the drift of a shared machine hits both alike; the figures are medians.
 *
 *   npm run bench:compare -- --base ../herald-main [--case accept|latency|e2e] [--rounds 6] [--rate 2000]
 *     [--postgres [--postgres-url URL]]
 *
 * accept: durable sends as fast as 32 connections go, requests/s. latency: sends at a fixed rate
 * (open loop), p50/p99 in ms. e2e: bulk sends of 100 offered at --rate messages/s to a server
 * with its worker, messages delivered per second during the load (each round starts once the
 * previous one's backlog has drained). The store is SQLite, or with --postgres a schema of its own each on
 * the local PostgreSQL.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { benchStore, CLI, createAccount, startHerald } from './lib/herald.js';
import { load, median } from './lib/load.js';
import { pacedLoad } from './lib/paced.js';
import { bulkOf, sms, waitForDrain } from './lib/traffic.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    case: { type: 'string', default: 'accept' },
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '5' },
    rate: { type: 'string', default: '2000' },
    postgres: { type: 'boolean', default: false },
    'postgres-url': { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
if (!values.base) throw new Error('--base DIR (a built checkout of the commit to compare against) is required');
const builds = [
  { name: 'base', cli: join(resolve(values.base), 'dist/main/cli.js') },
  { name: 'this', cli: CLI },
];
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const bulk = bulkOf(100);

const running = await Promise.all(
  builds.map(async (build) => {
    const store = await benchStore(values.postgres ? 'postgres' : 'sqlite', values['postgres-url'] as string);
    const account = createAccount(store, build.cli);
    const herald = await startHerald(store, { worker: values.case === 'e2e', cli: build.cli });
    const token = await herald.token(account);
    const url = `${herald.url}/v1/sms/send`;
    // Warm-up, not counted: the server's code is optimized while it runs.
    await load({ url, method: 'POST', token, bodyFor: sms, connections: 8, durationSeconds: 2 });
    if (values.case === 'e2e') await waitForDrain(store, 60_000, 250);
    return { ...build, store, herald, token, url, figures: [] as number[][] };
  }),
);
try {
  for (let i = 0; i < rounds; i++) {
    for (const server of running) {
      if (values.case === 'e2e') {
        const before = (await server.store.statusCounts()).delivered ?? 0;
        const started = performance.now();
        const r = await load({
          url: `${server.herald.url}/v1/sms/bulk`,
          method: 'POST',
          token: server.token,
          bodyFor: bulk,
          connections: 8,
          durationSeconds: seconds,
          overallRate: Math.max(1, Math.round(Number(values.rate) / 100)),
        });
        const delivered = ((await server.store.statusCounts()).delivered ?? 0) - before;
        server.figures.push([delivered / ((performance.now() - started) / 1000), r.p99, r.non2xx + r.errors]);
        await waitForDrain(server.store, 60_000, 250);
      } else if (values.case === 'latency') {
        const r = await pacedLoad({
          url: server.url,
          method: 'POST',
          token: server.token,
          bodyFor: sms,
          ratePerSecond: Number(values.rate),
          durationSeconds: seconds,
        });
        server.figures.push([r.p50, r.p99, r.failed]);
      } else {
        const r = await load({
          url: server.url,
          method: 'POST',
          token: server.token,
          bodyFor: sms,
          connections: 32,
          durationSeconds: seconds,
        });
        server.figures.push([r.rps, r.p99, r.non2xx + r.errors]);
      }
      process.stdout.write(
        `round ${i + 1} ${server.name}: ${server.figures
          .at(-1)
          ?.map((n) => n.toFixed(1))
          .join(' ')}\n`,
      );
    }
  }
  const [first, second] =
    values.case === 'latency' ? ['p50 ms', 'p99 ms'] : values.case === 'e2e' ? ['delivered/s', 'bulk p99 ms'] : ['requests/s', 'p99 ms'];
  for (const server of running) {
    const column = (k: number) => server.figures.map((f) => f[k] as number);
    process.stdout.write(
      `${server.name}: ${first} ${median(column(0)).toFixed(1)} (${column(0)
        .map((n) => n.toFixed(0))
        .join(', ')}), ${second} ${median(column(1)).toFixed(1)}, failures ${column(2).reduce((a, b) => a + b, 0)}\n`,
    );
  }
  const [base, mine] = running.map((server) => median(server.figures.map((f) => f[0] as number))) as [number, number];
  process.stdout.write(`this ÷ base (${first}) = ${(mine / base).toFixed(2)}\n`);
} finally {
  for (const server of running) {
    await server.herald.stop();
    await server.store.drop();
  }
}
