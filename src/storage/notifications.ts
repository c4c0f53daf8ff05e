import pg from 'pg';
import type { HeraldDatabase } from './database.js';

export interface JobListener {
  close(): Promise<void>;
}

interface ListenerLogger {
  warn(obj: object, msg: string): void;
}

/**
 * Keeps a dedicated PostgreSQL connection LISTENing on the store's jobs channel and calls `onJobs`
 * whenever another process commits new jobs. A lost connection is re-established with backoff;
 * on each (re)connect `onJobs` is called too, in case a notification was missed meanwhile.
 * Returns undefined for stores without LISTEN/NOTIFY (SQLite: one process, woken in memory).
 */
export function listenForJobs(database: HeraldDatabase, onJobs: () => void, logger: ListenerLogger): JobListener | undefined {
  const { connection, jobsChannel } = database;
  if (!database.capabilities.listenNotify || !connection || !jobsChannel) return undefined;
  let closed = false;
  let client: pg.Client | undefined;
  let retryDelay = 500;
  let retryTimer: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: connection.url });
    client = next;
    next.on('notification', () => onJobs());
    next.on('error', (error) => {
      logger.warn({ err: error }, 'job notification connection failed; reconnecting');
      scheduleReconnect(next);
    });
    next.on('end', () => scheduleReconnect(next));
    try {
      await next.connect();
      // The channel name is built from a validated schema identifier.
      await next.query(`LISTEN "${jobsChannel}"`);
      retryDelay = 500;
      onJobs();
    } catch (error) {
      logger.warn({ err: error }, 'could not listen for job notifications; polling until reconnected');
      scheduleReconnect(next);
    }
  };

  const scheduleReconnect = (failed: pg.Client) => {
    if (closed || client !== failed || retryTimer) return;
    client = undefined;
    failed.end().catch(() => {});
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, retryDelay);
    retryTimer.unref();
    retryDelay = Math.min(retryDelay * 2, 30_000);
  };

  void connect();
  return {
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
