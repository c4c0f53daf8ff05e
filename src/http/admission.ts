import type { IncomingMessage, ServerResponse } from 'node:http';
import { type EventLoopUtilization, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyServerFactory } from 'fastify';
import type { Clock } from '../core/clock.js';
import { AdmissionControl } from './admission-control.js';
import { gatedServerFactory, RouteKinds, writeRefusal } from './front-door.js';

/**
 * Bounds past which a node is behind, and sheds load instead of queueing it until it is served too
 * late: 503 SERVICE_UNAVAILABLE with Retry-After, before any work is done for the request (no
 * routing, no body read, no token checked, nothing stored or charged). 0 turns a bound off.
 */
export interface AdmissionSettings {
  /** OVERLOAD_MAX_QUEUE_WAIT_MS: sends are shed while the oldest send waiting to be stored has waited longer (ms). */
  maxQueueWaitMs: number;
  /** OVERLOAD_MAX_QUEUED_MESSAGES: sends are shed while more messages than this wait to be stored. */
  maxQueuedMessages: number;
  /** OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: every request but the health checks is shed while the event loop stalls longer than this (ms). */
  maxEventLoopDelayMs: number;
  /**
   * OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT: the same while the event loop is saturated: busy more
   * than this share of the time, in long turns (SATURATED_TURN_MS): requests wait to be read.
   */
  maxEventLoopBusyPercent: number;
  /** OVERLOAD_MAX_HEAP_USED_BYTES: the same while the JavaScript heap in use is above this. */
  maxHeapUsedBytes: number;
  /** OVERLOAD_MAX_RSS_BYTES: the same while the process's resident memory is above this. */
  maxRssBytes: number;
  /** OVERLOAD_RETRY_AFTER_SECONDS: the refusals' Retry-After. */
  retryAfterSeconds: number;
  /**
   * OVERLOAD_MIN_REQUESTS_IN_FLIGHT: nothing is shed while fewer requests than this are in hand
   * (received, not yet answered). So few clients cannot overload a node whatever its signals say:
   * each waits for its answer before it sends again, and a refusal only makes it send sooner.
   */
  minRequestsInFlight: number;
}

/**
 * Measured on a machine of 2 cores (docs/performance.md, "Overload"). A single pause of a healthy
 * node (a 5,000-message bulk commit, a major collection: about 220 ms) sheds nothing (a stall
 * counts once it lasts: LASTING_STALL_TICKS), and a bound passed for one tick only lowers the share
 * admitted by a quarter (admission-control.ts), so the bounds can be tight enough to keep accepted
 * sends' latency low under a lasting overload.
 * The queue wait was 50 ms until the dispatch worker got a thread of its own: sharing SQLite's
 * write lock with it, sends of 32 clients sending as fast as they were answered (no overload)
 * waited 50-130 ms at the peaks, and 2-17 % of them were refused. At 200 ms such clients still
 * saw tens to hundreds of 20,000 sends refused (a long commit, a collection); with fewer than 64
 * requests in hand nothing is refused (the overload bench keeps hundreds in hand).
 * Memory is left unbounded: overload does not grow it here (the queue is bounded by the wait), and
 * its right bound is the container's, not ours to guess.
 */
export const DEFAULT_ADMISSION_SETTINGS: AdmissionSettings = {
  maxQueueWaitMs: 200,
  maxQueuedMessages: 20_000,
  maxEventLoopDelayMs: 50,
  maxEventLoopBusyPercent: 98,
  maxHeapUsedBytes: 0,
  maxRssBytes: 0,
  retryAfterSeconds: 1,
  minRequestsInFlight: 64,
};

/** What a refused request asked for, as counted: a send, a token, or anything else. */
export type ShedKind = 'send' | 'token' | 'other';

/** What waits in the accept path now (AcceptQueue.waiting): requests, their messages, the `now` of the oldest. */
export interface AcceptBacklog {
  units: number;
  messages: number;
  oldestNow: number | undefined;
}

export interface AdmissionDeps {
  settings: AdmissionSettings;
  /** Read every tick; cheap (counters). */
  backlog: () => AcceptBacklog;
  /** The clock the backlog's `now` values come from. */
  clock: Clock;
  /** True once shutdown has begun: requests then go to the app, whose drain answer closes the connection. */
  isDraining: () => boolean;
  /** How often the node judges whether it is behind (ms). */
  tickMs?: number;
  /** Told of each refusal (metrics). */
  onShed?: ((kind: ShedKind) => void) | undefined;
  /**
   * True while the node does its one-off start-up work between requests (the route schemas built
   * after it listens): its loop is busy then, in long turns, yet it is not behind. Not judged.
   */
  starting?: () => boolean;
}

/** Load shedding for one app: its server's front door, and what it says for /readyz. */
export interface Admission {
  /** Fastify's `serverFactory`: the HTTP(S) server, whose requests pass the front door first. */
  serverFactory: FastifyServerFactory;
  /** Learns the app's routes (which are sends, which are never shed) and runs while the app does. Call before routes are added. */
  attach(app: FastifyInstance): void;
  /** "ok", or what is being shed now and why (/readyz). */
  describe(): string;
}

const TICK_MS = 10;
/** The event loop's stalls are measured at this resolution (ms). */
const LOOP_RESOLUTION_MS = 5;
/** Heap and resident memory are read this often (ms): process.memoryUsage() walks the heap's spaces. */
const MEMORY_EVERY_MS = 250;
/** Weight of the latest tick in the smoothed busy time and turn length of the event loop. */
const SMOOTHING = 0.5;
/**
 * A busy event loop whose turns take longer than this on average (ms) is saturated: requests wait
 * about a turn to be read. 32 clients sending as fast as they are answered keep a node busy in
 * short turns (10 ms refused a few thousand of their requests in the accept bench, 15 none); an
 * overload spread over 1,200 clients, in turns of 30-60 ms.
 */
const SATURATED_TURN_MS = 15;
/**
 * A stall is a sign of overload only once the loop has stalled past its bound in this many ticks in
 * a row. One long turn (the route schemas built after start, a major collection, a bulk commit)
 * is seen by at most two ticks (see readLoop) and costs the requests that waited for it nothing
 * more by being refused: counted alone, it refused a new node's first token request. A loop that
 * keeps stalling is seen by every tick.
 */
const LASTING_STALL_TICKS = 3;

/**
 * How long after its start-up work a node's process is not judged: a fresh node compiles its hot
 * paths and fills its pools in long, busy turns, yet is not behind (a node under the peer bench
 * refused its very first token request).
 */
const SETTLE_AFTER_START_MS = 2_000;
/** Shed requests are logged as a count at most this often, not one line each. */
const LOG_EVERY_MS = 1_000;

/**
 * Load shedding at the front door. Two controls (admission-control.ts), each steered every tick:
 * - the process: every request but the health checks, while the event loop is busy nearly all the
 *   time (performance.eventLoopUtilization, smoothed), or stalls past its bound
 *   (monitorEventLoopDelay: the longest stall in the tick), or heap or RSS are past theirs;
 *   whatever is asked of a process that is behind is answered late. Busy time is the signal that
 *   matters under overload: clients each wait for their answer before they send again, so the
 *   backlog of a saturated node grows at the clients, not in its loop (its turns stay short and
 *   its queue empty) and only a loop that never idles shows it;
 * - the accept queue: sends only, while its oldest waiting send has waited past the bound or more
 *   messages than the bound wait; reads are not served through it and can still be served in time.
 *
 * The refusal is written by the HTTP server's own request handler, before Fastify routes the
 * request or builds its request and reply: under overload the refusals are most of the requests,
 * and a refusal that costs most of a request (as a hook's does) leaves the node as far behind as
 * serving it would.
 */
export function createAdmission(deps: AdmissionDeps): Admission {
  const { settings } = deps;
  const tickMs = deps.tickMs ?? TICK_MS;
  const processControl = new AdmissionControl();
  const sendControl = new AdmissionControl();
  const routes = new RouteKinds();
  let log: FastifyInstance['log'] | undefined;
  let processReason: string | undefined;
  let sendReason: string | undefined;

  // Refusals a second, logged as a count (and once more when shedding stops).
  let shed = 0;
  let shedReason = '';
  let loggedAt = 0;
  const flushLog = (now: number) => {
    if (shed > 0) log?.warn({ shed, reason: shedReason }, 'shedding load: requests refused with 503');
    shed = 0;
    loggedAt = now;
  };

  const refuse = (req: IncomingMessage, res: ServerResponse, kind: ReturnType<RouteKinds['kindOf']>, reason: string) => {
    shed++;
    deps.onShed?.(kind === 'send' ? 'send' : kind === 'oauth' ? 'token' : 'other');
    shedReason = reason;
    writeRefusal(
      req,
      res,
      kind,
      `This node is overloaded (${reason}); retry after ${settings.retryAfterSeconds} s.`,
      settings.retryAfterSeconds,
    );
  };

  /** Requests received and not yet answered (those refused here are not counted). */
  let inFlight = 0;
  const answered = () => {
    inFlight--;
  };

  /** True when the request was refused (and answered). */
  const refused = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (shouldRefuse(req, res)) return true;
    inFlight++;
    res.once('close', answered);
    return false;
  };
  const shouldRefuse = (req: IncomingMessage, res: ServerResponse): boolean => {
    if ((processControl.open && sendControl.open) || deps.isDraining() || inFlight < settings.minRequestsInFlight) return false;
    const kind = routes.kindOf(req.method ?? 'GET', req.url ?? '/');
    if (kind === 'always') return false;
    if (!processControl.admit()) {
      refuse(req, res, kind, processReason ?? 'it is behind');
      return true;
    }
    if (kind === 'send' && !sendControl.admit()) {
      refuse(req, res, kind, sendReason ?? 'sends are waiting to be stored');
      return true;
    }
    return false;
  };

  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  // Busy time and turn length are smoothed over about four ticks: one busy tick is a burst, four
  // are a load.
  let utilizationFrom: EventLoopUtilization | undefined;
  let utilization = 0;
  let turnMs = 0;
  let tickedAt = performance.now();
  let heapUsed = 0;
  let rss = 0;
  let memoryReadAt = Number.NEGATIVE_INFINITY;
  /** Ticks in a row that saw a stall past the bound. */
  let stalledTicks = 0;

  /**
   * Reads the event loop's signals of the last tick: its longest stall, and (smoothed) its busy
   * time and mean turn. The histogram's samples are the intervals between its timer's runs, one
   * per turn when turns are longer than its resolution: the longest, less the resolution, is the
   * longest stall; their mean, the mean turn. This tick's own lateness is a stall too, and the
   * only measure in a tick the histogram's timer did not run in. (So one stall can be counted by
   * two ticks, this one's lateness and the next one's samples: measured, that judged behind more
   * often under overload, and kept accepted sends' p99 lower, than counting each stall once.)
   */
  const readLoop = (now: number): number => {
    const late = Math.max(0, now - tickedAt - tickMs);
    tickedAt = now;
    const sampled = loopDelay.count > 0;
    const stall = sampled ? Math.max(late, loopDelay.max / 1e6 - LOOP_RESOLUTION_MS) : late;
    const meanTurn = sampled ? loopDelay.mean / 1e6 : late + LOOP_RESOLUTION_MS;
    loopDelay.reset();
    const current = performance.eventLoopUtilization();
    if (utilizationFrom) {
      const recent = performance.eventLoopUtilization(current, utilizationFrom).utilization;
      utilization += SMOOTHING * (recent - utilization);
      turnMs += SMOOTHING * (meanTurn - turnMs);
    }
    utilizationFrom = current;
    return stall;
  };

  const judgeProcess = (now: number): string | undefined | null => {
    const stall = readLoop(now);
    if (settings.maxHeapUsedBytes > 0 || settings.maxRssBytes > 0) {
      if (now - memoryReadAt >= MEMORY_EVERY_MS) {
        const memory = process.memoryUsage();
        heapUsed = memory.heapUsed;
        rss = memory.rss;
        memoryReadAt = now;
      }
      if (settings.maxHeapUsedBytes > 0 && heapUsed > settings.maxHeapUsedBytes) return `its heap holds ${mib(heapUsed)}`;
      if (settings.maxRssBytes > 0 && rss > settings.maxRssBytes) return `it holds ${mib(rss)} of memory`;
    }
    stalledTicks = settings.maxEventLoopDelayMs > 0 && stall > settings.maxEventLoopDelayMs ? stalledTicks + 1 : 0;
    if (stalledTicks >= LASTING_STALL_TICKS) return `its event loop stalled ${Math.round(stall)} ms`;
    // Saturated: busy nearly all the time, and in long turns. A loop that is as busy in short turns
    // serves a few clients as fast as it can (each sends again once answered) and keeps none waiting.
    if (settings.maxEventLoopBusyPercent > 0 && utilization * 100 > settings.maxEventLoopBusyPercent && turnMs > SATURATED_TURN_MS) {
      return `its event loop is busy ${Math.round(utilization * 100)} % of the time, in turns of ${Math.round(turnMs)} ms`;
    }
    return undefined;
  };

  const judgeSends = (): string | undefined => {
    const waiting = deps.backlog();
    if (settings.maxQueuedMessages > 0 && waiting.messages > settings.maxQueuedMessages) {
      return `${waiting.messages} messages are waiting to be stored`;
    }
    const waited = waiting.oldestNow === undefined ? 0 : deps.clock.now() - waiting.oldestNow;
    if (settings.maxQueueWaitMs > 0 && waited > settings.maxQueueWaitMs) return `sends are waiting ${waited} ms to be stored`;
    return undefined;
  };

  /** Until when the process is not judged after its start-up work (none: judged from the first tick). */
  let settledAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = performance.now();
    // Starting: the loop is read, so the start-up's turns are not judged once it is over, and the
    // process is not judged meanwhile (the sends' queue still is).
    const starting = deps.starting?.() === true;
    if (starting) {
      readLoop(now);
      utilization = 0;
      turnMs = 0;
      stalledTicks = 0;
      settledAt = now + SETTLE_AFTER_START_MS;
    }
    // Just started: its loop is read (its code still being compiled, its pools filling) but the
    // process is not judged yet; a first request refused for that would fail a client at start.
    const settling = now < settledAt;
    if (settling && !starting) readLoop(now);
    const behind = starting || settling ? undefined : judgeProcess(now);
    if (behind) processReason = behind;
    processControl.observe(behind !== undefined);
    const queued = judgeSends();
    if (queued) sendReason = queued;
    sendControl.observe(queued !== undefined);
    const open = processControl.open && sendControl.open;
    if (now - loggedAt >= LOG_EVERY_MS || (open && shed > 0)) flushLog(now);
  };

  return {
    serverFactory: gatedServerFactory(refused),
    attach(app) {
      log = app.log;
      app.addHook('onRoute', (route) => routes.learn(route));
      // Judged from the tick after the app is ready: its start (migrations, keys, schemas) is not a stall.
      // Every bound off (OVERLOAD_*=0): nothing to judge, so no sampling and no ticks; the front
      // door then always lets requests through (its controls stay open).
      const judging =
        settings.maxQueueWaitMs > 0 ||
        settings.maxQueuedMessages > 0 ||
        settings.maxEventLoopDelayMs > 0 ||
        settings.maxEventLoopBusyPercent > 0 ||
        settings.maxHeapUsedBytes > 0 ||
        settings.maxRssBytes > 0;
      app.addHook('onReady', async () => {
        if (!judging) return;
        loopDelay.enable();
        tickedAt = performance.now();
        timer = setInterval(tick, tickMs);
        timer.unref();
      });
      app.addHook('onClose', async () => {
        clearInterval(timer);
        loopDelay.disable();
        flushLog(performance.now());
      });
    },
    describe() {
      const parts: string[] = [];
      if (!processControl.open) {
        parts.push(`shedding ${percent(1 - processControl.share)} of requests but health checks (${processReason})`);
      }
      if (!sendControl.open) parts.push(`shedding ${percent(1 - sendControl.share)} of sends (${sendReason})`);
      return parts.length > 0 ? parts.join('; ') : 'ok';
    },
  };
}

const mib = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MiB`;
/** A share shed, never read as 0 % while some is shed. */
const percent = (share: number): string => `${Math.max(1, Math.round(share * 100))} %`;
