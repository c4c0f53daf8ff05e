import { connect, type Socket } from 'node:net';
import { percentile, responseEnd } from './paced.js';

/** A stretch of the load at one rate. */
export interface Phase {
  name: string;
  ratePerSecond: number;
  durationSeconds: number;
}

/** What became of one request. */
export interface Outcome {
  /** Index of its phase. */
  phase: number;
  /** When it was due, in ms from the start of the load. */
  dueMs: number;
  /** From when it was due to its answer, in ms; undefined when it was never answered. */
  latencyMs: number | undefined;
  /** The answer's status; 0 when there was none (the connection was lost, or the load gave up on it). */
  status: number;
  /** The answer carried a Retry-After header. */
  retryAfter: boolean;
}

export interface PhasedResult {
  outcomes: Outcome[];
  connections: number;
  /** The load generator's own lateness in taking up requests, p99 (ms): a sign of the machine, not the server. */
  sendLateP99: number;
}

/** Connections opened at once: the server's listen backlog (511) is not overrun while the pool is made. */
const CONNECT_CHUNK = 100;

/** A keep-alive connection with at most one request in flight. */
interface Lane {
  socket: Socket;
  /** The request in flight (index into the outcomes), or -1. */
  inFlight: number;
  received: string;
}

/**
 * An open-loop load in phases (e.g. normal, twice what the server sustains, normal again), as many
 * independent clients make it: request n is due at its time whatever became of the others, goes
 * out on a free keep-alive connection of a large pool (or waits in the client for one, which
 * counts in its latency), and its latency is taken from when it was due. A server that queues
 * without bound shows it as latencies that grow for as long as the overload lasts; one that sheds
 * shows quick 503s. Requests are written as raw bytes over the sockets (see paced.ts: a lighter
 * client than Node's HTTP one, on a machine whose cores the server shares).
 *
 * Requests not answered `drainSeconds` after the last one was due are given up (status 0).
 */
export async function phasedLoad(options: {
  url: string;
  token: string;
  bodyFor: (n: number) => unknown;
  phases: readonly Phase[];
  connections: number;
  drainSeconds?: number;
}): Promise<PhasedResult> {
  const target = new URL(options.url);
  const head = `POST ${target.pathname} HTTP/1.1\r\nhost: ${target.host}\r\nauthorization: Bearer ${options.token}\r\ncontent-type: application/json\r\n`;
  const requestOf = (n: number): string => {
    const body = JSON.stringify(options.bodyFor(n));
    return `${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };

  // Every request's due time, phase by phase, evenly spaced within each phase.
  const due: Array<{ phase: number; at: number }> = [];
  let phaseStart = 0;
  for (const [index, phase] of options.phases.entries()) {
    const count = Math.round(phase.ratePerSecond * phase.durationSeconds);
    for (let i = 0; i < count; i++) due.push({ phase: index, at: phaseStart + (i * 1000) / phase.ratePerSecond });
    phaseStart += phase.durationSeconds * 1000;
  }
  const outcomes: Outcome[] = due.map((d) => ({ phase: d.phase, dueMs: d.at, latencyMs: undefined, status: 0, retryAfter: false }));
  const lateness: number[] = [];
  let start = 0;
  let settled = 0;
  let allDone: () => void = () => {};
  const done = new Promise<void>((resolve) => (allDone = resolve));
  const waiting: number[] = [];
  let waitingFrom = 0;
  const free: Lane[] = [];

  const send = (lane: Lane, n: number) => {
    lane.inFlight = n;
    lane.socket.write(requestOf(n));
  };
  const settle = (lane: Lane, status: number, retryAfter: boolean) => {
    const n = lane.inFlight;
    lane.inFlight = -1;
    const outcome = outcomes[n] as Outcome;
    outcome.status = status;
    outcome.retryAfter = retryAfter;
    if (status > 0) outcome.latencyMs = performance.now() - start - outcome.dueMs;
    if (++settled === outcomes.length) allDone();
    if (lane.socket.destroyed) return;
    if (waitingFrom < waiting.length) send(lane, waiting[waitingFrom++] as number);
    else free.push(lane);
  };
  const onData = (lane: Lane, chunk: string) => {
    lane.received += chunk;
    for (;;) {
      const end = responseEnd(lane.received);
      if (end < 0) return;
      const response = lane.received.slice(0, end);
      lane.received = lane.received.slice(end);
      const headEnd = response.indexOf('\r\n\r\n');
      if (lane.inFlight >= 0) settle(lane, Number(response.slice(9, 12)), /\r\nretry-after: *\d+/i.test(response.slice(0, headEnd + 2)));
    }
  };
  const open = () =>
    new Promise<Lane>((resolve, reject) => {
      const socket = connect({ host: target.hostname, port: Number(target.port), noDelay: true });
      const lane: Lane = { socket, inFlight: -1, received: '' };
      socket.setEncoding('latin1');
      socket.once('connect', () => resolve(lane));
      socket.once('error', reject);
      socket.on('data', (chunk: string) => onData(lane, chunk));
      // A connection lost with a request in flight leaves that request unanswered.
      socket.on('close', () => {
        if (lane.inFlight >= 0) settle(lane, 0, false);
      });
    });
  const lanes: Lane[] = [];
  for (let opened = 0; opened < options.connections; opened += CONNECT_CHUNK) {
    const chunk = Math.min(CONNECT_CHUNK, options.connections - opened);
    try {
      lanes.push(...(await Promise.all(Array.from({ length: chunk }, open))));
    } catch (error) {
      for (const lane of lanes) lane.socket.destroy();
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(code === 'EMFILE' ? `too many open files at ${opened} connections: raise the limit (ulimit -n 8192)` : String(error));
    }
  }
  for (const lane of lanes) lane.socket.on('error', () => {});
  free.push(...lanes);

  start = performance.now();
  let next = 0;
  while (next < due.length) {
    const now = performance.now() - start;
    while (next < due.length && (due[next] as { at: number }).at <= now) {
      lateness.push(performance.now() - start - (due[next] as { at: number }).at);
      // The free lane that has waited longest: every connection is used in turn, none left idle
      // until the server's headers deadline closes it.
      let lane = free.shift();
      while (lane?.socket.destroyed) lane = free.shift();
      if (lane) send(lane, next);
      else waiting.push(next);
      next++;
    }
    const wait = next < due.length ? (due[next] as { at: number }).at - (performance.now() - start) : 0;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(wait, 5))));
  }
  const deadline = setTimeout(allDone, (options.drainSeconds ?? 60) * 1000);
  if (outcomes.length > 0) await done;
  clearTimeout(deadline);
  for (const lane of lanes) {
    lane.inFlight = -1;
    lane.socket.destroy();
  }
  return {
    outcomes,
    connections: lanes.length,
    sendLateP99: Number(
      percentile(
        lateness.sort((a, b) => a - b),
        99,
      ).toFixed(1),
    ),
  };
}

export interface PhaseFigures {
  name: string;
  offeredPerSecond: number;
  acceptedPerSecond: number;
  shedPerSecond: number;
  /** Answers other than 2xx and 503 (e.g. 500), and requests never answered. */
  otherPerSecond: number;
  acceptedP50: number;
  acceptedP99: number;
  shedP99: number;
  /** Share of the 503s that carried Retry-After. */
  shedWithRetryAfter: number;
  /** Requests answered later than the client timeout, or never. */
  timeouts: number;
}

const ms = (v: number) => Number(v.toFixed(1));
const sortedLatencies = (outcomes: Outcome[]) => outcomes.map((o) => o.latencyMs as number).sort((a, b) => a - b);

/** Figures of each phase, by when requests were due. */
export function phaseFigures(result: PhasedResult, phases: readonly Phase[], timeoutMs: number): PhaseFigures[] {
  return phases.map((phase, index) => {
    const mine = result.outcomes.filter((o) => o.phase === index);
    const accepted = mine.filter((o) => o.status >= 200 && o.status < 300);
    const shed = mine.filter((o) => o.status === 503);
    const perSecond = (n: number) => Math.round(n / phase.durationSeconds);
    const acceptedLatencies = sortedLatencies(accepted);
    return {
      name: phase.name,
      offeredPerSecond: phase.ratePerSecond,
      acceptedPerSecond: perSecond(accepted.length),
      shedPerSecond: perSecond(shed.length),
      otherPerSecond: perSecond(mine.length - accepted.length - shed.length),
      acceptedP50: ms(percentile(acceptedLatencies, 50)),
      acceptedP99: ms(percentile(acceptedLatencies, 99)),
      shedP99: ms(percentile(sortedLatencies(shed), 99)),
      shedWithRetryAfter: shed.length === 0 ? 1 : shed.filter((o) => o.retryAfter).length / shed.length,
      timeouts: mine.filter((o) => o.status === 0 || (o.latencyMs as number) > timeoutMs).length,
    };
  });
}

/**
 * Seconds from the end of phase `overloadIndex` until latency is back to normal for good: the start
 * of the first window (of `windowMs`, by due time) in the phases after it from which on every
 * window's accepted p99 is within `normalP99Ms` and nothing is shed. Undefined when that never
 * happens before the load ends.
 */
export function recoverySeconds(
  result: PhasedResult,
  phases: readonly Phase[],
  overloadIndex: number,
  normalP99Ms: number,
  windowMs = 1_000,
): number | undefined {
  const overloadEnd = phases.slice(0, overloadIndex + 1).reduce((sum, p) => sum + p.durationSeconds * 1000, 0);
  const end = phases.reduce((sum, p) => sum + p.durationSeconds * 1000, 0);
  const windows = windowsBetween(result, overloadEnd, end, windowMs).map((w) => w.shed === 0 && w.p99 <= normalP99Ms);
  let firstOfGood = windows.length;
  while (firstOfGood > 0 && windows[firstOfGood - 1]) firstOfGood--;
  // The last window is often short of requests; at least two good windows in a row count.
  if (windows.length - firstOfGood < 2) return undefined;
  return (firstOfGood * windowMs) / 1000;
}

/** Each `windowMs` window (by due time) of phase `index`: its accepted p99 and its refusals (what recovery is read from). */
export function windowsOf(result: PhasedResult, phases: readonly Phase[], index: number, windowMs = 1_000): Window[] {
  const from = phases.slice(0, index).reduce((sum, p) => sum + p.durationSeconds * 1000, 0);
  return windowsBetween(result, from, from + (phases[index]?.durationSeconds ?? 0) * 1000, windowMs);
}

/** One window of requests by due time: the p99 of those accepted (ms), and how many were not (refused, or never answered). */
export interface Window {
  p99: number;
  shed: number;
}

function windowsBetween(result: PhasedResult, from: number, end: number, windowMs: number): Window[] {
  const windows: Window[] = [];
  for (let start = from; start < end; start += windowMs) {
    const mine = result.outcomes.filter((o) => o.dueMs >= start && o.dueMs < start + windowMs);
    const accepted = mine.filter((o) => o.status >= 200 && o.status < 300);
    windows.push({ p99: ms(percentile(sortedLatencies(accepted), 99)), shed: mine.length - accepted.length });
  }
  return windows;
}
