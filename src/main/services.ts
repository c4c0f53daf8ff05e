import type { Logger } from 'pino';
import { AccessTokens } from '../auth/access-tokens.js';
import { KeyRing } from '../auth/key-ring.js';
import { buildProviders } from '../channels/providers.js';
import { type Clock, systemClock } from '../core/clock.js';
import type { ProviderHealth, ProviderRegistry } from '../core/delivery/provider.js';
import { RecordsUnderWay } from '../core/delivery/records-under-way.js';
import type { Store } from '../core/ports.js';
import type { RateLimitStore } from '../core/rate-limits.js';
import { NO_TRACING, type Tracing } from '../core/tracing.js';
import { createLimiterCache, type DispatchContext, ReceiverSlots } from '../dispatch/dispatch-context.js';
import type { RateLimiting } from '../http/rate-limits.js';
import { PrometheusMeter } from '../metrics/prometheus-meter.js';
import { AccessCache } from '../storage/access-cache.js';
import { createDatabase, type HeraldDatabase } from '../storage/database.js';
import { FallbackRateLimitStore, MemoryRateLimitStore, RedisRateLimitStore } from '../storage/rate-limit-stores.js';
import { storeOf } from '../storage/store.js';
import { loggedTrail } from '../tracing/message-trail.js';
import { OtelTracing, otlpExporter } from '../tracing/otel-tracing.js';
import { catalogueOf } from './channels.js';
import type { Config } from './config.js';

/** Everything a process of Herald runs on, built once here and handed to routes, jobs and commands. */
export interface Services {
  config: Config;
  logger: Logger;
  clock: Clock;
  database: HeraldDatabase;
  store: Store;
  keys: KeyRing;
  tokens: AccessTokens;
  providers: ProviderRegistry;
  /** Opens provider links (SMPP binds); called by processes that run a dispatch worker. */
  startProviders(): void;
  providerHealth(): ProviderHealth[];
  dispatch: DispatchContext;
  /** Rate-limit buckets (Redis with REDIS_URL, else this process) and their settings. */
  rateLimiting: RateLimiting;
  /** This thread's counters for /metrics (METRICS_PORT); undefined when metrics are off. */
  meter: PrometheusMeter | undefined;
  /** This thread's spans (OTEL_EXPORTER_OTLP_ENDPOINT); NO_TRACING when traces are off. */
  tracing: Tracing;
  /** Listeners told when this process commits new jobs (its own workers wake at once). */
  onJobsCommitted: Set<() => void>;
  /**
   * Accounts' access (allow-lists, clients, plans, suspensions) kept by this process, serving once
   * it is told of changes: on PostgreSQL by a listener (a server starts one: listenForAccessChanges),
   * on SQLite by the count of changes its store reads before each check (migration 0025).
   */
  accessCache: AccessCache;
  close(): Promise<void>;
}

/** How a dispatch thread's services share the SQLite store with the API thread of its process (main/dispatch-thread.ts). */
export interface SharedStore {
  /** The API thread's turns at the write lock (WriteTurns), taken in order by both. */
  writeTurns: SharedArrayBuffer | undefined;
}

export function buildServices(config: Config, logger: Logger, clock: Clock = systemClock, shared?: SharedStore): Services {
  const database = createDatabase({
    url: config.databaseUrl,
    schema: config.databaseSchema,
    poolSize: config.databasePoolSize,
    // Servers and workers run for long: WAL checkpoints on a thread of their own, off the event loop
    // (one per process: a dispatch thread leaves them to its API thread's).
    backgroundCheckpoints: shared === undefined,
    checkpointsElsewhere: shared !== undefined,
    writeTurns: shared?.writeTurns,
    onCheckpointError: (message) => logger.warn({ error: message }, 'sqlite background checkpoint failed; retrying'),
  });
  const onJobsCommitted = new Set<() => void>();
  // Accounts' access kept in memory: PostgreSQL hears of changes (NOTIFY), SQLite counts them (migration 0025).
  const accessCache = new AccessCache();
  // A dispatch thread counts on its own and its process's main thread serves the sum; only the
  // main thread reports the process's own metrics (CPU, memory).
  const meter = config.metrics
    ? new PrometheusMeter({ process: shared === undefined, thread: shared === undefined ? 'main' : 'dispatch' })
    : undefined;
  // Each thread exports its own spans; they meet in the collector by the trace ids messages keep.
  const tracing = config.traces
    ? new OtelTracing({
        exporter: otlpExporter(config.traces),
        serviceName: config.traces.serviceName,
        thread: shared === undefined ? 'main' : 'dispatch',
        sampleRatio: config.traces.sampleRatio,
      })
    : NO_TRACING;
  const store = storeOf(database, {
    channels: catalogueOf(config.channels),
    meter,
    // None when it would write nothing (LOG_LEVEL=warn, no traces): no closure per message is kept.
    trail: logger.isLevelEnabled('info') || tracing.enabled ? loggedTrail(logger, tracing) : undefined,
    onJobsCommitted: () => {
      for (const listener of onJobsCommitted) listener();
    },
    groupCommit: config.groupCommit,
    accessCache,
  });
  const keys = new KeyRing(store, clock, config.tokenTtlSeconds * 1000);
  const recordsUnderWay = new RecordsUnderWay();
  const built = buildProviders(config.channels, {
    store,
    recordsUnderWay,
    clock,
    prices: config.prices,
    sandboxReceiptDelayMs: config.sandboxDelayMs,
    logger: logger.child({ component: 'providers' }),
  });
  const providers = built.registry;
  const limits = config.rateLimits;
  const rateStore: RateLimitStore = limits.redisUrl
    ? new FallbackRateLimitStore(
        new RedisRateLimitStore(limits.redisUrl),
        new MemoryRateLimitStore(),
        logger.child({ component: 'rate-limits' }),
      )
    : new MemoryRateLimitStore();
  return {
    config,
    logger,
    clock,
    database,
    store,
    keys,
    tokens: new AccessTokens(keys, clock, config.publicUrl, `${config.publicUrl}/v1`, config.tokenCacheSize, config.tokenTtlSeconds),
    providers,
    startProviders: () => built.start(),
    providerHealth: () => built.health(),
    dispatch: {
      store,
      clock,
      providers,
      retry: config.retry,
      sendTimeoutMs: config.sendTimeoutMs,
      recovery: config.recovery,
      logger: logger.child({ component: 'dispatch' }),
      tracing,
      random: Math.random,
      limiterFor: createLimiterCache(),
      webhooks: config.webhooks,
      receiverSlots: new ReceiverSlots(),
      prices: config.prices,
      recordsUnderWay,
    },
    meter,
    tracing,
    onJobsCommitted,
    accessCache,
    rateLimiting: { store: rateStore, settings: limits },
    close: async () => {
      try {
        await rateStore.close();
        await built.close();
        await database.close();
      } finally {
        // Last: the spans of the work that stopped above are exported too (within 2 s).
        if (tracing instanceof OtelTracing) await tracing.shutdown();
      }
    },
  };
}
