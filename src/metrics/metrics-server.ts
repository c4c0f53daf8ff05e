import { createServer, type Server } from 'node:http';
import type { Scraper } from './scrape.js';

export interface MetricsListener {
  /** Where Prometheus scrapes, e.g. http://127.0.0.1:9464/metrics. */
  url: string;
  close(): Promise<void>;
}

/**
 * The metrics listener: `GET /metrics` and nothing else, on an address of its own (METRICS_HOST,
 * METRICS_PORT), off the API's public listener: what it shows (queue depths, provider names, rates)
 * is the operator's, not the API clients'. No authentication: bind it where only the scraper reaches.
 */
export async function listenForScrapes(
  scraper: Scraper,
  options: { host: string; port: number; onError: (error: unknown) => void },
): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    scraper.scrape().then(
      (text) =>
        res
          .writeHead(200, { 'content-type': scraper.contentType, 'cache-control': 'no-store' })
          .end(req.method === 'HEAD' ? undefined : text),
      (error: unknown) => {
        options.onError(error);
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be read (see the log).\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
