import { Worker } from '../dispatch/worker.js';
import { listenForJobs } from '../storage/notifications.js';
import type { Services } from './services.js';

export interface RunningWorkers {
  worker: Worker;
  /** Stops claiming, finishes or gives back in-flight jobs within `deadlineMs`. */
  stop(deadlineMs: number): Promise<void>;
}

/**
 * Starts this process's dispatch worker. New work wakes it at once: commits in this process
 * through the store's callback, commits elsewhere through PostgreSQL LISTEN/NOTIFY; polling only
 * covers what both miss.
 */
export function startWorkers(services: Services): RunningWorkers {
  // Links to providers (an SMPP bind, which also brings its receipts) live where messages are dispatched.
  services.startProviders();
  const worker = new Worker(services.dispatch, services.config.worker);
  const wake = () => worker.wake();
  services.onJobsCommitted.add(wake);
  const listener = listenForJobs(services.database, wake, services.logger);
  worker.start();
  services.logger.info({ worker_id: worker.id, database: services.database.dialect }, 'dispatch worker started');
  // Once a minute, how the providers that carry traffic or keep a link are doing (a worker-only
  // process has no /readyz to show it).
  const healthLog = setInterval(() => {
    const providers = services.providerHealth().filter((p) => p.provider !== 'sandbox' || p.sent_last_minute > 0);
    if (providers.length > 0) services.logger.info({ providers }, 'provider health');
  }, 60_000);
  healthLog.unref();
  // Idempotency keys are kept 24 h; the workers clear the expired ones, a batch at a time.
  const purge = setInterval(() => {
    services.store.idempotency.deleteExpired(services.clock.now(), 1_000).catch((error: unknown) => {
      services.logger.warn({ err: error }, 'could not delete expired idempotency keys');
    });
  }, 10 * 60_000);
  purge.unref();
  return {
    worker,
    async stop(deadlineMs) {
      clearInterval(healthLog);
      clearInterval(purge);
      services.onJobsCommitted.delete(wake);
      await listener?.close();
      await worker.stop(deadlineMs);
      services.logger.info({ worker_id: worker.id }, 'dispatch worker stopped');
    },
  };
}
