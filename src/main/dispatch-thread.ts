import { setFlagsFromString } from 'node:v8';
import { isMainThread, parentPort, Worker as Thread, workerData } from 'node:worker_threads';
import { systemClock } from '../core/clock.js';
import type { ProviderHealth } from '../core/delivery/provider.js';
import type { MetricsJson } from '../metrics/scrape.js';
import { loadConfig } from './config.js';
import { createLogger, prettyLogs } from './logger.js';
import { buildServices, type Services, type SharedStore } from './services.js';
import { type RunningWorkers, startWorkers } from './workers.js';

/**
 * `herald serve` runs its dispatch worker on a thread of its own (DISPATCH_THREAD, on by default),
 * so one process uses two cores: the main thread serves HTTP and stores what it accepts, the
 * dispatch thread hands messages over, applies receipts and sends webhooks, each with its own
 * event loop and its own store connection. On one loop, the worker's batches (hundreds of messages
 * recorded at a time) made the API's turns long: sends waited for them, and the node's load
 * shedding took a busy loop for an overloaded one.
 *
 * The thread is a whole Herald process's worker minus HTTP: it builds its services from the same
 * environment, opens the provider links (SMPP binds) and claims jobs as `herald worker` does. Both
 * sides wake each other's workers as before: the main thread posts a wake-up when it commits jobs
 * (SQLite has no NOTIFY between connections), and the thread answers /readyz's questions about its
 * providers. Messages between them are small and few: a wake-up per turn that committed sends at
 * most, and a question and answer per /readyz.
 */

/**
 * The thread's young generation (DISPATCH_SEMI_SPACE_MB), set before it starts, where it should
 * differ from the process's (V8's own 16 MiB semi-spaces, cli.ts): V8 takes a process's flag over a
 * worker's `resourceLimits`. What the thread allocates lives about a wave. When the process ran
 * with 32 MiB, 16 for this thread kept the rates on both stores for 30-35 MB less resident memory
 * under load; 8 cost PostgreSQL's dispatch a seventh of its rate (docs/performance-journal.md, "A
 * young generation per thread"). V8
 * reads the flag when an isolate is made, on the new thread, after `new Worker()` has returned: the
 * main thread keeps its own, the flag is not set back (restored before the thread's 'online' event,
 * the thread would get the old size), and threads started later get the same size as this one.
 * V8 rounds the size up to a power of two.
 */
function sizeYoungGeneration(semiSpaceMb: number): void {
  if (semiSpaceMb > 0) setFlagsFromString(`--max-semi-space-size=${semiSpaceMb}`);
}

/** How long /readyz (or a scrape) waits for the thread's answer before showing the last one it had (none, for metrics). */
const HEALTH_WAIT_MS = 1_000;

type ToThread =
  | { type: 'wake' }
  | { type: 'health'; ask: number }
  | { type: 'metrics'; ask: number }
  | { type: 'stop'; deadlineMs: number };
type FromThread =
  | { type: 'started' }
  | { type: 'health'; ask: number; providers: ProviderHealth[] }
  | { type: 'metrics'; ask: number; metrics: MetricsJson }
  | { type: 'stopped'; error?: string };

const THREAD_ROLE = 'herald-dispatch';

export interface DispatchThread extends Omit<RunningWorkers, 'worker'> {
  /** The providers' health, asked of the thread (the last answer, should it not answer in time). */
  providerHealth(): Promise<ProviderHealth[]>;
  /** The thread's counters (metrics/), asked of it; none should it not answer in time. */
  metrics(): Promise<MetricsJson[]>;
}

/**
 * Starts the dispatch thread of this process (the store is migrated already) and resolves once its
 * worker runs. Should the thread die, the process exits (its supervisor restarts it): a server
 * whose messages are no longer dispatched must not look healthy.
 */
export async function startDispatchThread(services: Services): Promise<DispatchThread> {
  const { logger } = services;
  const shared: SharedStore = { writeTurns: services.database.writeTurns };
  // The thread's standard output is not the terminal: told here whether the process writes pretty lines.
  const pretty = prettyLogs(services.config.logFormat);
  const color = process.stdout.isTTY === true;
  sizeYoungGeneration(services.config.dispatchSemiSpaceMb);
  const thread = new Thread(new URL(import.meta.url), { workerData: { role: THREAD_ROLE, shared, pretty, color } });
  let health: ProviderHealth[] = [];
  let asks = 0;
  const answers = new Map<number, (providers: ProviderHealth[]) => void>();
  const metricAnswers = new Map<number, (metrics: MetricsJson) => void>();
  // The thread's last counters: served again when it does not answer in time (busy, or stopping),
  // rather than leaving its series out of a scrape, which Prometheus would read as counter resets.
  let lastMetrics: MetricsJson | undefined;
  let stopping = false;
  let stopped: ((error?: string) => void) | undefined;

  // One wake-up per turn at most, however many commits the turn made.
  let wakePosted = false;
  const wake = () => {
    if (wakePosted) return;
    wakePosted = true;
    queueMicrotask(() => {
      wakePosted = false;
      thread.postMessage({ type: 'wake' } satisfies ToThread);
    });
  };

  const started = new Promise<void>((resolve, reject) => {
    thread.on('message', (message: FromThread) => {
      if (message.type === 'started') resolve();
      else if (message.type === 'health') {
        health = message.providers;
        answers.get(message.ask)?.(message.providers);
        answers.delete(message.ask);
      } else if (message.type === 'metrics') {
        lastMetrics = message.metrics;
        metricAnswers.get(message.ask)?.(message.metrics);
        metricAnswers.delete(message.ask);
      } else if (message.type === 'stopped') stopped?.(message.error);
    });
    thread.once('error', (error) => {
      logger.fatal({ err: error }, 'the dispatch thread failed; stopping');
      reject(error);
      if (!stopping) process.exit(1);
    });
    thread.once('exit', (code) => {
      stopped?.(code === 0 ? undefined : `the dispatch thread exited with code ${code}`);
      if (stopping) return;
      logger.fatal({ code }, 'the dispatch thread exited; stopping');
      reject(new Error(`the dispatch thread exited with code ${code}`));
      process.exit(1);
    });
  });
  await started;
  services.onJobsCommitted.add(wake);

  return {
    providerHealth: () =>
      new Promise((resolve) => {
        const ask = ++asks;
        const timer = setTimeout(() => {
          answers.delete(ask);
          resolve(health);
        }, HEALTH_WAIT_MS);
        answers.set(ask, (providers) => {
          clearTimeout(timer);
          resolve(providers);
        });
        thread.postMessage({ type: 'health', ask } satisfies ToThread);
      }),
    metrics: () =>
      new Promise((resolve) => {
        const ask = ++asks;
        const timer = setTimeout(() => {
          metricAnswers.delete(ask);
          resolve(lastMetrics ? [lastMetrics] : []);
        }, HEALTH_WAIT_MS);
        metricAnswers.set(ask, (metrics) => {
          clearTimeout(timer);
          resolve([metrics]);
        });
        thread.postMessage({ type: 'metrics', ask } satisfies ToThread);
      }),
    async stop(deadlineMs) {
      stopping = true;
      services.onJobsCommitted.delete(wake);
      const done = new Promise<string | undefined>((resolve) => {
        stopped = resolve;
      });
      thread.postMessage({ type: 'stop', deadlineMs } satisfies ToThread);
      // The worker's own deadline, and a little for its services to close.
      const timer = setTimeout(() => void thread.terminate(), deadlineMs + 2_000);
      const error = await done;
      clearTimeout(timer);
      await thread.terminate();
      // The process then ends with code 1 ('shutdown failed'), as a worker stopping in it would.
      if (error) throw new Error(`the dispatch worker did not stop cleanly: ${error}`);
    },
  };
}

/** The thread's side: a worker like `herald worker`'s, told by the main thread when to wake and stop. */
async function runThread(port: NonNullable<typeof parentPort>): Promise<void> {
  const config = loadConfig();
  const { shared, pretty, color } = workerData as { shared: SharedStore; pretty: boolean; color: boolean };
  const logger = createLogger(config.logLevel, undefined, { sync: true, pretty, color }).child({ thread: 'dispatch' });
  const services = buildServices(config, logger, systemClock, shared);
  const workers = startWorkers(services);
  let stopping = false;
  port.on('message', (message: ToThread) => {
    if (message.type === 'wake') workers.worker.wake();
    else if (message.type === 'health') {
      port.postMessage({ type: 'health', ask: message.ask, providers: services.providerHealth() } satisfies FromThread);
    } else if (message.type === 'metrics') {
      const ask = message.ask;
      // Unanswered on failure: the main thread serves the last counters it had.
      void (services.meter?.registry.getMetricsAsJSON() ?? Promise.resolve([])).then(
        (metrics) => port.postMessage({ type: 'metrics', ask, metrics } satisfies FromThread),
        (error: unknown) => logger.warn({ err: error }, 'could not read the dispatch thread metrics'),
      );
    } else if (message.type === 'stop' && !stopping) {
      stopping = true;
      void (async () => {
        let failure: string | undefined;
        await workers.stop(message.deadlineMs).catch((error: unknown) => {
          logger.error({ err: error }, 'the dispatch worker did not stop cleanly');
          failure = error instanceof Error ? error.message : String(error);
        });
        await services.close().catch((error: unknown) => logger.error({ err: error }, 'could not close the dispatch services'));
        port.postMessage((failure ? { type: 'stopped', error: failure } : { type: 'stopped' }) satisfies FromThread);
        port.close();
      })();
    }
  });
  port.postMessage({ type: 'started' } satisfies FromThread);
}

if (!isMainThread && parentPort && (workerData as { role?: unknown } | null)?.role === THREAD_ROLE) {
  void runThread(parentPort);
}
