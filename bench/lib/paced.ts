import { connect, type Socket } from 'node:net';

export interface PacedResult {
  sent: number;
  ok: number;
  failed: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /**
   * How late the load generator itself took up each request after its due time (to send it, or to
   * queue it while every connection was busy), p99: part of the latency above, and a sign of the
   * machine rather than the server when it is large.
   */
  sendLateP99: number;
  /** Keep-alive connections the load went over. */
  connections: number;
}

/** Connections a paced load keeps open: more than a round ever has requests in flight at once. */
const PACED_CONNECTIONS = 64;

export const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

/**
 * Where the first response in `received` (bytes as latin1 text) ends, or -1 while it is not whole:
 * after its content-length bytes, or after its last chunk (and trailers) when it is chunked.
 */
export function responseEnd(received: string): number {
  const headEnd = received.indexOf('\r\n\r\n');
  if (headEnd < 0) return -1;
  const head = received.slice(0, headEnd + 2);
  const length = /\r\ncontent-length: *(\d+)\r\n/i.exec(head);
  if (length) {
    const end = headEnd + 4 + Number(length[1]);
    return received.length < end ? -1 : end;
  }
  if (!/\r\ntransfer-encoding: *chunked\r\n/i.test(head)) return headEnd + 4; // no body (204, 304)
  for (let at = headEnd + 4; ; ) {
    const lineEnd = received.indexOf('\r\n', at);
    if (lineEnd < 0) return -1;
    const size = Number.parseInt(received.slice(at, lineEnd), 16);
    if (size === 0) {
      const trailersEnd = received.indexOf('\r\n\r\n', lineEnd);
      return trailersEnd < 0 ? -1 : trailersEnd + 4;
    }
    at = lineEnd + 2 + size + 2;
    if (received.length < at) return -1;
  }
}

/** One keep-alive connection: at most one request in flight on it, its bytes gathered until the response is whole. */
interface Lane {
  socket: Socket;
  /** When the request in flight was due (performance.now()), or undefined while the lane is free. */
  dueAt: number | undefined;
  received: string;
}

/**
 * An open-loop load at a fixed rate, in the manner of wrk2: request n is due at start + n / rate,
 * whatever became of the previous ones, and its latency is measured from when it was due, so a
 * stalled server shows up in the figures instead of slowing the load down. Requests are spread
 * evenly, not sent in bursts per connection as autocannon's rate limit does.
 *
 * The requests go over a fixed set of keep-alive connections opened before the round, as a
 * server-side client's connection pool does. A request due while every connection is busy waits
 * in the client, and that wait counts in its latency. The client writes each request's bytes
 * straight to its socket and reads no more of a response than its status and length: Node's HTTP
 * client cost about 27 % of a core at 4,300 requests/s, this one 10–12 %, and on a machine of two
 * cores the load generator's share is taken from the server's.
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
  connections?: number;
}): Promise<PacedResult> {
  const target = new URL(options.url);
  const connections = options.connections ?? PACED_CONNECTIONS;
  const fixedBody = options.body === undefined ? undefined : JSON.stringify(options.body);
  const bodyOf = (n: number): string | undefined => (options.bodyFor ? JSON.stringify(options.bodyFor(n)) : fixedBody);
  const head = `${options.method} ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\nauthorization: Bearer ${options.token}\r\n`;
  const requestOf = (n: number): string => {
    const body = bodyOf(n);
    if (body === undefined) return `${head}\r\n`;
    return `${head}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };

  const total = Math.round(options.ratePerSecond * options.durationSeconds);
  const latencies: number[] = [];
  const lateness: number[] = [];
  let ok = 0;
  let failed = 0;
  /** Requests due while every lane was busy: [due time, n]. */
  const waiting: Array<[number, number]> = [];
  let waitingFrom = 0;
  const free: Lane[] = [];
  let finished = 0;
  let allDone: () => void = () => {};
  const done = new Promise<void>((resolve) => (allDone = resolve));

  const send = (lane: Lane, dueAt: number, n: number) => {
    lane.dueAt = dueAt;
    lane.socket.write(requestOf(n));
  };
  let over = false;
  const settle = (lane: Lane, success: boolean) => {
    if (over) return;
    latencies.push(performance.now() - (lane.dueAt as number));
    if (success) ok++;
    else failed++;
    lane.dueAt = undefined;
    if (++finished === total) allDone();
    if (lane.socket.destroyed) return; // its waiting requests go to the other lanes
    const next = waitingFrom < waiting.length ? (waiting[waitingFrom++] as [number, number]) : undefined;
    if (next) send(lane, next[0], next[1]);
    else free.push(lane);
  };
  /** Reads whole responses off a lane: a status line, headers, a body of content-length bytes or of chunks. */
  const onData = (lane: Lane, chunk: string) => {
    lane.received += chunk;
    for (;;) {
      const end = responseEnd(lane.received);
      if (end < 0) return;
      const status = Number(lane.received.slice(9, 12));
      lane.received = lane.received.slice(end);
      if (lane.dueAt !== undefined) settle(lane, status >= 200 && status < 300);
    }
  };

  const lanes = await Promise.all(
    Array.from(
      { length: connections },
      () =>
        new Promise<Lane>((resolve, reject) => {
          const socket = connect({ host: target.hostname, port: Number(target.port), noDelay: true });
          const lane: Lane = { socket, dueAt: undefined, received: '' };
          socket.setEncoding('latin1');
          socket.once('connect', () => resolve(lane));
          socket.once('error', reject);
          socket.on('data', (chunk: string) => onData(lane, chunk));
          // A connection lost with a request in flight fails that request; the lane is not used again.
          socket.on('close', () => {
            if (lane.dueAt !== undefined) settle(lane, false);
          });
        }),
    ),
  );
  for (const lane of lanes) lane.socket.on('error', () => {});
  free.push(...lanes);

  const start = performance.now();
  const interval = 1000 / options.ratePerSecond;
  let next = 0;
  while (next < total) {
    const now = performance.now();
    // Everything due by now goes out now (or waits for a lane); then sleep until the next one is due.
    while (next < total && start + next * interval <= now) {
      const dueAt = start + next * interval;
      // The pacing's own delay; a wait for a free connection (the server's doing) is not part of it.
      lateness.push(performance.now() - dueAt);
      let lane = free.pop();
      while (lane?.socket.destroyed) lane = free.pop(); // closed by the server while idle
      if (lane) send(lane, dueAt, next);
      else waiting.push([dueAt, next]);
      next++;
    }
    const wait = start + next * interval - performance.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(wait, 5))));
  }
  // Bounded: a server that stops answering fails what it still owes after 30 s.
  const deadline = setTimeout(() => {
    failed += total - finished;
    allDone();
  }, 30_000);
  if (total > 0) await done;
  clearTimeout(deadline);
  over = true;
  for (const lane of lanes) lane.socket.destroy();
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
    connections,
  };
}
