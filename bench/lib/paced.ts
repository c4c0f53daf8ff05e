import { Agent, request } from 'node:http';

export interface PacedResult {
  sent: number;
  ok: number;
  failed: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /**
   * How late the load generator itself sent the request (after its due time), p99: part of the
   * latency above, and a sign of the machine rather than the server when it is large.
   */
  sendLateP99: number;
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

/**
 * An open-loop load at a fixed rate: request n is due at start + n / rate, whatever became of the
 * previous ones, and its latency is measured from when it was due (so a stalled server shows up
 * in the figures instead of slowing the load down). Requests are spread evenly, not sent in bursts
 * per connection as autocannon's rate limit does, which would measure the burst, not the server.
 */
export async function pacedLoad(options: {
  url: string;
  method: 'GET' | 'POST';
  token: string;
  body?: unknown;
  /** The body of the n-th request, instead of one `body` for all. */
  bodyFor?: (n: number) => unknown;
  ratePerSecond: number;
  durationSeconds: number;
}): Promise<PacedResult> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const fixed = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  const payloadOf = (n: number): Buffer | undefined => (options.bodyFor ? Buffer.from(JSON.stringify(options.bodyFor(n))) : fixed);
  const total = Math.round(options.ratePerSecond * options.durationSeconds);
  const latencies: number[] = [];
  const lateness: number[] = [];
  let ok = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();

  const send = (dueAt: number, n: number) => {
    lateness.push(performance.now() - dueAt);
    const payload = payloadOf(n);
    const headers: Record<string, string | number> = { authorization: `Bearer ${options.token}` };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    const done = new Promise<void>((resolve) => {
      const req = request(
        { host: target.hostname, port: target.port, path: target.pathname, method: options.method, agent, headers },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - dueAt);
            if (res.statusCode !== undefined && res.statusCode < 300) ok++;
            else failed++;
            resolve();
          });
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end(payload);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };

  const start = performance.now();
  const interval = 1000 / options.ratePerSecond;
  let next = 0;
  while (next < total) {
    const now = performance.now();
    // Everything due by now goes out now; then sleep until the next one is due.
    while (next < total && start + next * interval <= now) {
      send(start + next * interval, next);
      next++;
    }
    const wait = start + next * interval - performance.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(wait, 5))));
  }
  await Promise.all([...inFlight]);
  agent.destroy();
  const sorted = [...latencies].sort((a, b) => a - b);
  const ms = (v: number) => Number(v.toFixed(1));
  return {
    sent: total,
    ok,
    failed,
    p50: ms(percentile(sorted, 50)),
    p90: ms(percentile(sorted, 90)),
    p99: ms(percentile(sorted, 99)),
    max: ms(sorted.at(-1) ?? 0),
    sendLateP99: ms(
      percentile(
        [...lateness].sort((a, b) => a - b),
        99,
      ),
    ),
  };
}
