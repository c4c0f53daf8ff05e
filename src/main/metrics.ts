import { listenForScrapes, type MetricsListener } from '../metrics/metrics-server.js';
import { type ScrapeSources, scraperOf } from '../metrics/scrape.js';
import type { Services } from './services.js';
import { StartError } from './start-error.js';

/**
 * Serves /metrics on METRICS_HOST:METRICS_PORT for this process (its counters, its dispatch
 * thread's, the queue and its providers); nothing when METRICS_PORT is unset. A port that cannot
 * be bound stops the start, in one line with the way out.
 */
export async function serveMetrics(
  services: Services,
  sources: Pick<ScrapeSources, 'others' | 'providers'>,
): Promise<MetricsListener | undefined> {
  const settings = services.config.metrics;
  if (!settings || !services.meter) return undefined;
  const { logger } = services;
  const scraper = scraperOf({ meter: services.meter, store: services.store, clock: services.clock, ...sources });
  try {
    const listener = await listenForScrapes(scraper, {
      host: settings.host,
      port: settings.port,
      onError: (error) => logger.error({ err: error }, 'a metrics scrape failed'),
    });
    logger.info({ url: listener.url }, 'metrics are served');
    return listener;
  } catch (error) {
    const code = (error as { code?: unknown } | undefined)?.code;
    if (code === 'EADDRINUSE') {
      throw new StartError(
        `METRICS_PORT ${settings.port} on ${settings.host} is already in use; choose another (METRICS_PORT=${settings.port + 1})`,
      );
    }
    if (code === 'EADDRNOTAVAIL') throw new StartError(`METRICS_HOST ${settings.host} is not an address of this machine`);
    if (code === 'EACCES') throw new StartError(`not allowed to listen on METRICS_PORT ${settings.port}; choose a port above 1023`);
    throw error;
  }
}
