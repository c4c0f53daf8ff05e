import type pg from 'pg';
import type { AccessCache } from './access-cache.js';
import { type HeraldDatabase, loadPg } from './database.js';

export interface Listener {
  close(): Promise<void>;
}

interface ListenerLogger {
  warn(obj: object, msg: string): void;
}

export interface ListenOptions {
  /** The first wait before reconnecting (doubling up to 30 s). */
  retryDelayMs?: number;
  /** How often the connection is asked `select 1`; an answer later than this counts as a lost connection. */
  heartbeatMs?: number;
}

interface ListenHandlers {
  /** A notification on the channel, with its payload. */
  notified(payload: string): void;
  /** The LISTEN is in place (at start and after each reconnect): anything before it may have been missed. */
  listening(): void;
  /** The connection is lost: notifications are missed until `listening` is called again. */
  lost(): void;
}

/**
 * Keeps a dedicated PostgreSQL connection LISTENing on `channel`. A lost connection is reported
 * at once and re-established with backoff. A connection that is silently gone (a crashed host, a
 * dropped NAT entry: no `end`, no error) is noticed by a heartbeat: `select 1` every `heartbeatMs`,
 * which must be answered within as long.
 */
function listenOn(
  url: string,
  channel: string,
  handlers: ListenHandlers,
  logger: ListenerLogger,
  what: string,
  options: ListenOptions = {},
): Listener {
  const firstDelay = options.retryDelayMs ?? 500;
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  let closed = false;
  let client: pg.Client | undefined;
  let retryDelay = firstDelay;
  let retryTimer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (closed) return;
    const next = new (loadPg().Client)({
      connectionString: url,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      query_timeout: heartbeatMs,
    });
    client = next;
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.notified(message.payload ?? '');
    });
    next.on('error', (error) => {
      logger.warn({ err: error }, `${what} connection failed; reconnecting`);
      scheduleReconnect(next);
    });
    next.on('end', () => scheduleReconnect(next));
    try {
      await next.connect();
      // The channel name is built from a validated schema identifier.
      await next.query(`LISTEN "${channel}"`);
      if (client !== next) return;
      retryDelay = firstDelay;
      heartbeat = setInterval(() => {
        next.query('select 1').catch((error: unknown) => {
          logger.warn({ err: error }, `${what} connection did not answer; reconnecting`);
          scheduleReconnect(next);
        });
      }, heartbeatMs);
      heartbeat.unref();
      handlers.listening();
    } catch (error) {
      logger.warn({ err: error }, `could not listen for ${what}; retrying`);
      scheduleReconnect(next);
    }
  };

  const scheduleReconnect = (failed: pg.Client) => {
    if (closed || client !== failed || retryTimer) return;
    client = undefined;
    clearInterval(heartbeat);
    handlers.lost();
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
      clearInterval(heartbeat);
      const current = client;
      client = undefined;
      handlers.lost();
      await current?.end().catch(() => {});
    },
  };
}

/**
 * Calls `onJobs` whenever another process commits new jobs, and on each (re)connect, in case a
 * notification was missed meanwhile (polling covers the time in between). Undefined for stores
 * without LISTEN/NOTIFY (SQLite: one process, woken in memory).
 */
export function listenForJobs(database: HeraldDatabase, onJobs: () => void, logger: ListenerLogger): Listener | undefined {
  const { connection, jobsChannel } = database;
  if (!database.capabilities.listenNotify || !connection || !jobsChannel) return undefined;
  return listenOn(connection.url, jobsChannel, { notified: onJobs, listening: onJobs, lost: () => {} }, logger, 'job notifications');
}

/**
 * Keeps `cache` told of access changes (allow-lists, suspensions, clients) made by any process (the store NOTIFYs with the
 * account id in the changing transaction): the cache serves only while it is listening, and starts
 * empty each time it (re)starts, so nothing missed while the connection was down is ever served.
 */
export function listenForAccessChanges(
  database: HeraldDatabase,
  cache: AccessCache,
  logger: ListenerLogger,
  options: ListenOptions = {},
): Listener | undefined {
  const { connection, accessChannel } = database;
  if (!database.capabilities.listenNotify || !connection || !accessChannel) return undefined;
  return listenOn(
    connection.url,
    accessChannel,
    { notified: (accountId) => cache.invalidate(accountId), listening: () => cache.setLive(true), lost: () => cache.setLive(false) },
    logger,
    'account access changes',
    options,
  );
}
