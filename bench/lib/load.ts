import autocannon from 'autocannon';

export interface LoadResult {
  /** Successful (2xx) requests per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  token: string;
  body?: unknown;
  /** The body of the n-th request, instead of one `body` for all (e.g. a recipient of its own each). */
  bodyFor?: (n: number) => unknown;
  connections: number;
  durationSeconds: number;
  /** Requests per second across all connections (a fixed-rate run), or as fast as possible. */
  overallRate?: number;
}

/** One autocannon run on loopback: bounded by its duration. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    connections: options.connections,
    duration: options.durationSeconds,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    headers: {
      authorization: `Bearer ${options.token}`,
      ...(options.body === undefined && !options.bodyFor ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.bodyFor ? { requests: [{ setupRequest: withBody(options.bodyFor) }] } : {}),
    timeout: 30,
  });
  const ok = result['2xx'];
  return {
    rps: ok / options.durationSeconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** autocannon's per-request hook, giving each request its own body. */
function withBody(bodyFor: (n: number) => unknown) {
  let n = 0;
  return (request: autocannon.Request): autocannon.Request => ({ ...request, body: JSON.stringify(bodyFor(n++)) });
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
