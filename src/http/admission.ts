import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Never shed under load: health checks, which must answer however busy the node is. */
    alwaysAdmitted?: boolean;
  }
}

/**
 * Bounds past which requests are refused with 503 SERVICE_UNAVAILABLE and Retry-After before any
 * work is done for them (no body read, no token checked, nothing stored or charged), instead of
 * being queued until they are served too late. 0 turns a bound off.
 */
export interface AdmissionSettings {
  /** OVERLOAD_MAX_QUEUE_WAIT_MS: sends are refused while the oldest send waiting to be stored has waited longer (ms). */
  maxQueueWaitMs: number;
  /** OVERLOAD_MAX_QUEUED_MESSAGES: sends are refused while more messages than this wait to be stored. */
  maxQueuedMessages: number;
  /** OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: every request but the health checks is refused while the event loop's mean delay over the last sample is above this (ms). */
  maxEventLoopDelayMs: number;
  /** OVERLOAD_MAX_HEAP_USED_BYTES: the same while the JavaScript heap in use is above this. */
  maxHeapUsedBytes: number;
  /** OVERLOAD_MAX_RSS_BYTES: the same while the process's resident memory is above this. */
  maxRssBytes: number;
  /** OVERLOAD_RETRY_AFTER_SECONDS: the refusals' Retry-After. */
  retryAfterSeconds: number;
}

/**
 * Measured on a machine of 2 cores (docs/performance.md, "Overload"): at 6,000 sends/s offered,
 * 100 ms on the queue and 200 ms on the event loop gave no client timeout, every 503 with
 * Retry-After, and accepted sends' p99 of 460-1,900 ms; 50 ms on both kept that p99 at 150-330 ms,
 * but a node that is not overloaded trips them too: one pause of about 220 ms (a 5,000-message bulk
 * commit, a major collection) lifts the mean delay over a 250 ms sample past 50 ms and sheds every
 * request of the next sample, and a commit in progress holds the queue's oldest send past 50 ms. So
 * the defaults keep a healthy node serving and leave the tighter bounds to operators who prefer the
 * tail (OVERLOAD_*). Memory is left unbounded: overload does not grow it here (the queue is bounded
 * by the wait), and its right bound is the container's, not ours to guess.
 */
export const DEFAULT_ADMISSION_SETTINGS: AdmissionSettings = {
  maxQueueWaitMs: 100,
  maxQueuedMessages: 20_000,
  maxEventLoopDelayMs: 200,
  maxHeapUsedBytes: 0,
  maxRssBytes: 0,
  retryAfterSeconds: 1,
};

/** What waits in the accept path now (AcceptQueue.waiting): requests, their messages, the `now` of the oldest. */
export interface AcceptBacklog {
  units: number;
  messages: number;
  oldestNow: number | undefined;
}

export interface AdmissionDeps {
  settings: AdmissionSettings;
  /** Read on every send; cheap (counters). */
  backlog: () => AcceptBacklog;
  /** The clock the backlog's `now` values come from. */
  clock: Clock;
  /** How often event-loop delay, heap and RSS are sampled (ms). */
  sampleIntervalMs?: number;
}

/** Where admission stands, for /readyz. */
export interface AdmissionState {
  /** "ok", or why requests are being shed now. */
  describe(): string;
}

const SAMPLE_INTERVAL_MS = 250;
/** Shed requests are logged as a count at most this often, not one line each. */
const LOG_EVERY_MS = 1_000;

/** A request that feeds the accept queue: those needing a `<channel>:send` scope, and only they. */
const isSend = (request: FastifyRequest): boolean => request.routeOptions.config.scope?.endsWith(':send') === true;

/**
 * Registers load shedding on the whole app, as onRequest hooks that run before any route's own
 * (authentication, the IP allow-list, rate limits, idempotency): a refused request costs only its
 * parsing. Two signals:
 * - the process (event-loop delay, heap, RSS), sampled by @fastify/under-pressure: every route but
 *   the health checks is shed, since whatever is asked of a process that is behind is answered late;
 * - the accept queue (its oldest waiting send's age, its waiting messages), read per request: only
 *   sends are shed, since reads are not served through it and can still be served in time.
 */
export async function registerAdmission(app: FastifyInstance, deps: AdmissionDeps): Promise<AdmissionState> {
  const { settings } = deps;
  const retryAfter = { 'retry-after': String(settings.retryAfterSeconds) };
  let shedSinceLog = 0;
  let loggedAt = 0;
  const refuse = (reason: string): ApiError => {
    shedSinceLog++;
    const now = deps.clock.now();
    if (now - loggedAt >= LOG_EVERY_MS) {
      app.log.warn({ shed: shedSinceLog, reason }, 'shedding load: requests refused with 503');
      shedSinceLog = 0;
      loggedAt = now;
    }
    return new ApiError('SERVICE_UNAVAILABLE', `This node is overloaded (${reason}); retry after ${settings.retryAfterSeconds} s.`, {
      headers: retryAfter,
    });
  };

  const sampleInterval = deps.sampleIntervalMs ?? SAMPLE_INTERVAL_MS;
  // The first sample after the app is ready still holds the start's own work (migrations, keys,
  // schemas): the process is judged from the one after, not shed for having just started.
  let judgedFrom = Number.POSITIVE_INFINITY;
  app.addHook('onReady', async () => {
    judgedFrom = performance.now() + 2 * sampleInterval;
  });
  const processBehind = () => app.isUnderPressure() && performance.now() >= judgedFrom;
  await app.register(underPressure, {
    maxEventLoopDelay: settings.maxEventLoopDelayMs,
    maxHeapUsedBytes: settings.maxHeapUsedBytes,
    maxRssBytes: settings.maxRssBytes,
    sampleInterval,
    // Called only while a bound is passed; a rejection becomes the request's error (our envelope).
    pressureHandler: async (request, _reply, type, value) => {
      if (request.routeOptions.config.alwaysAdmitted || performance.now() < judgedFrom) return;
      throw refuse(processReason(type, value));
    },
  });

  const sendBacklogReason = (): string | undefined => {
    const waiting = deps.backlog();
    if (settings.maxQueuedMessages > 0 && waiting.messages > settings.maxQueuedMessages) {
      return `${waiting.messages} messages are waiting to be stored`;
    }
    const waited = waiting.oldestNow === undefined ? 0 : deps.clock.now() - waiting.oldestNow;
    if (settings.maxQueueWaitMs > 0 && waited > settings.maxQueueWaitMs) return `sends are waiting ${waited} ms to be stored`;
    return undefined;
  };
  if (settings.maxQueueWaitMs > 0 || settings.maxQueuedMessages > 0) {
    app.addHook('onRequest', async (request) => {
      if (!isSend(request)) return;
      const reason = sendBacklogReason();
      if (reason) throw refuse(reason);
    });
  }

  return {
    describe() {
      if (processBehind()) {
        const usage = app.memoryUsage();
        return `shedding every request but health checks (event loop delay ${Math.round(usage.eventLoopDelay)} ms, heap ${mib(usage.heapUsed)}, RSS ${mib(usage.rssBytes)})`;
      }
      const reason = sendBacklogReason();
      return reason ? `shedding sends (${reason})` : 'ok';
    },
  };
}

const mib = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MiB`;

function processReason(type: string, value: number | undefined): string {
  switch (type) {
    case underPressure.TYPE_EVENT_LOOP_DELAY:
      return `its event loop is ${Math.round(value ?? 0)} ms behind`;
    case underPressure.TYPE_HEAP_USED_BYTES:
      return `its heap holds ${mib(value ?? 0)}`;
    case underPressure.TYPE_RSS_BYTES:
      return `it holds ${mib(value ?? 0)} of memory`;
    default:
      return 'it is under pressure';
  }
}
