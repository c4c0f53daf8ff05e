import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { AccessTokens, TOKEN_TTL_SECONDS } from '../src/auth/access-tokens.js';
import { KeyRing } from '../src/auth/key-ring.js';
import type { AnyChannelModule } from '../src/channels/channel-module.js';
import { buildProviders } from '../src/channels/providers.js';
import { type CreateAccountInput, type CreatedAccount, createAccount } from '../src/core/accounts/manage-accounts.js';
import { ManualClock } from '../src/core/clock.js';
import { MICROS_PER_CREDIT } from '../src/core/credits.js';
import type { Provider } from '../src/core/delivery/provider.js';
import { RecordsUnderWay } from '../src/core/delivery/records-under-way.js';
import type { ReceivedMessage } from '../src/core/inbound/inbound-message.js';
import { type Reception, receiveMessage } from '../src/core/inbound/receive-messages.js';
import type { Store } from '../src/core/ports.js';
import { NO_TRACING, type Tracing } from '../src/core/tracing.js';
import { dashboard } from '../src/dashboard/dashboard.plugin.js';
import { createLimiterCache, type DispatchContext, ReceiverSlots } from '../src/dispatch/dispatch-context.js';
import { DEFAULT_RETRY_POLICY } from '../src/dispatch/retry-policy.js';
import { Worker } from '../src/dispatch/worker.js';
import { type AppDeps, buildApp } from '../src/http/app.js';
import type { ConnectionLimits } from '../src/http/connection-limits.js';
import type { RateLimiting } from '../src/http/rate-limits.js';
import type { SecuritySettings } from '../src/http/transport-security.js';
import { receiverUrlCheck } from '../src/http/webhooks/webhooks.routes.js';
import { CHANNEL_MODULES, catalogueOf, channelReference, channelRoutes, testMessageChannels } from '../src/main/channels.js';
import { loadConfig } from '../src/main/config.js';
import type { PrometheusMeter } from '../src/metrics/prometheus-meter.js';
import { AccessCache } from '../src/storage/access-cache.js';
import type { Dialect, HeraldDatabase } from '../src/storage/database.js';
import { MemoryRateLimitStore } from '../src/storage/rate-limit-stores.js';
import { storeOf } from '../src/storage/store.js';
import { loggedTrail } from '../src/tracing/message-trail.js';
import type { Lookup } from '../src/webhooks/ssrf-guard.js';
import { allocateDatabase, openDatabase, type TestDatabaseLocation } from './databases.js';
import { testLogger } from './logs.js';

export const TEST_PUBLIC_URL = 'http://herald.test';

/** The provider of each channel served: those Herald ships, by name, and any a test adds. */
export type ShippedProviders = Record<'sms' | 'whatsapp' | 'email' | 'telegram', Provider> & Record<string, Provider>;

/** The whole HTTP application on a database of its own, driven through `app.inject()`. */
export interface TestApp {
  app: FastifyInstance;
  database: HeraldDatabase;
  location: TestDatabaseLocation;
  store: Store;
  clock: ManualClock;
  keys: KeyRing;
  tokens: AccessTokens;
  /** The sandbox carriers (receipt delay 0), replaceable per channel in a test. */
  providers: ShippedProviders;
  dispatch: DispatchContext;
  /** A worker that runs only when told to (`runOnce`, `drain`), on the manual clock. */
  worker: Worker;
  /** Runs the worker until no job is due at the clock's current time; returns the jobs run. */
  drain(): Promise<number>;
  /** Hands a message a recipient sent to core, as a provider would (core/inbound/receive-messages.ts). */
  receive(received: ReceivedMessage, known?: { accountId?: string }): Promise<Reception>;
  /** An account with `credits` whole credits (default 100) and all scopes unless given. */
  createAccount(input?: Partial<Omit<CreateAccountInput, 'creditsMicros'>> & { credits?: number }): Promise<CreatedAccount>;
  /** An access token for the account's client, through the real token endpoint. */
  tokenFor(account: CreatedAccount, scope?: string): Promise<string>;
  /** A token request with these credentials (client_secret_post), answered as it is (200 or an OAuth error). */
  tokenRequest(clientId: string, clientSecret: string, scope?: string): Promise<LightMyRequestResponse>;
  /** A JSON request with a bearer token. */
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, body?: unknown): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** Resolves every name to one public address: tests never wait on, or reach, real DNS. */
const publicLookup: Lookup = async () => [{ address: '93.184.216.34', family: 4 }];

export interface TestAppOptions {
  bodyLimitBytes?: number;
  emailMaxBytes?: number;
  /** Header size and slow-client deadlines; the defaults unless given. */
  connections?: ConnectionLimits;
  /** Rate limits; none by default. */
  rateLimiting?: RateLimiting;
  /** Transport security (production mode, trusted proxies); none by default. */
  security?: SecuritySettings;
  /** The SSRF guard at webhook registration; by default loopback receivers are allowed, as in dispatch. */
  webhooks?: { allowPrivateNetworks?: boolean; lookup?: Lookup };
  /** Load shedding; none by default (a test on a busy machine is never shed). */
  admission?: AppDeps['admission'];
  /**
   * The channels served; main/channels.ts's list unless given. Their settings are read as a
   * server reads them, from `env` (empty by default: every channel on the sandbox).
   */
  channels?: readonly AnyChannelModule[];
  env?: Record<string, string>;
  /** Whether the node is shutting down (draining); never by default. */
  isDraining?: () => boolean;
  /** Counts for /metrics (the app's requests, the store's and the worker's moves); nothing by default. */
  meter?: PrometheusMeter;
  /** Spans of requests, accepts, jobs, hand-overs, receipts and webhook deliveries; none by default. */
  tracing?: Tracing;
  /** Wraps the store the app runs on (to make one of its writes fail, say); the worker's is unwrapped. */
  wrapStore?: (store: Store) => Store;
}

/**
 * The HTTP server real processes run, whose requests pass admission's front door first
 * (src/http/admission.ts), with every bound off: nothing is shed. For tests of the server itself
 * (connection limits, TLS), which must hold through the same server.
 */
export const FRONT_DOOR_NEVER_SHEDDING: AppDeps['admission'] = {
  settings: {
    maxQueueWaitMs: 0,
    maxQueuedMessages: 0,
    maxEventLoopDelayMs: 0,
    maxEventLoopBusyPercent: 0,
    maxHeapUsedBytes: 0,
    maxRssBytes: 0,
    retryAfterSeconds: 1,
    minRequestsInFlight: 0,
  },
};

export async function createTestApp(dialect: Dialect, options: TestAppOptions = {}): Promise<TestApp> {
  const location = allocateDatabase(dialect);
  const database = await openDatabase(location);
  const clock = new ManualClock(Date.now());
  const config = loadConfig(
    Object.assign({}, options.env, options.emailMaxBytes !== undefined ? { EMAIL_MAX_BYTES: String(options.emailMaxBytes) } : {}),
    options.channels ?? CHANNEL_MODULES,
  );
  // Every request and job is logged (at trace level) for the suite's secret scan, and every step of each message's life.
  const logger = testLogger('app');
  const tracing = options.tracing ?? NO_TRACING;
  // Accounts' access kept as a server keeps it: on SQLite served from memory while the count of changes holds.
  const store = storeOf(database, {
    channels: catalogueOf(config.channels),
    meter: options.meter,
    trail: loggedTrail(logger, tracing),
    accessCache: new AccessCache(),
  });
  const keys = new KeyRing(store, clock, TOKEN_TTL_SECONDS * 1000);
  const tokens = new AccessTokens(keys, clock, TEST_PUBLIC_URL, `${TEST_PUBLIC_URL}/v1`);
  const app = await buildApp({
    // As main/server.ts says it: the channels whose provider is the sandbox (every one a test configures no provider for).
    sandboxChannels: config.channels
      .filter(({ settings }) => {
        const { kind, provider } = settings as { kind?: string; provider?: { kind?: string } };
        return (kind ?? provider?.kind) === 'sandbox';
      })
      .map(({ module }) => module.name),
    store: options.wrapStore ? options.wrapStore(store) : store,
    clock,
    prices: config.prices,
    tokens,
    database,
    isDraining: options.isDraining ?? (() => false),
    security: options.security,
    rateLimiting: options.rateLimiting,
    admission: options.admission,
    metrics: options.meter,
    tracing,
    http: {
      bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024,
      publicUrl: TEST_PUBLIC_URL,
      connections: options.connections,
    },
    channels: channelRoutes(config.channels),
    channelReference: channelReference(config.channels),
    // Names in tests (hooks.example.com) resolve to a public documentation-free address without DNS.
    webhooks: { allowPrivateNetworks: options.webhooks?.allowPrivateNetworks ?? true, lookup: options.webhooks?.lookup ?? publicLookup },
    // Sign-in throttling on the manual clock, sessions as configured (12 h, 60 min idle by default).
    dashboard: (pages) =>
      dashboard(pages, {
        store,
        clock,
        throttle: new MemoryRateLimitStore(() => clock.now()),
        sessions: config.dashboardSessions,
        publicUrl: TEST_PUBLIC_URL,
        prices: config.prices,
        testMessages: testMessageChannels(config.channels),
        checkWebhookUrl: receiverUrlCheck({
          allowPrivateNetworks: options.webhooks?.allowPrivateNetworks ?? true,
          lookup: options.webhooks?.lookup ?? publicLookup,
        }),
      }),
    logger,
  });
  await app.ready();
  const recordsUnderWay = new RecordsUnderWay();
  const providers = Object.assign(
    {},
    buildProviders(config.channels, {
      store,
      recordsUnderWay,
      clock,
      prices: config.prices,
      sandboxReceiptDelayMs: 0,
      logger: logger.child({ component: 'providers' }),
    }).registry,
  ) as ShippedProviders;
  const dispatch: DispatchContext = {
    store,
    clock,
    providers,
    retry: DEFAULT_RETRY_POLICY,
    sendTimeoutMs: 5_000,
    logger: logger.child({ component: 'dispatch' }),
    tracing,
    random: () => 0.5,
    limiterFor: createLimiterCache(),
    // Test receivers listen on loopback.
    webhooks: { allowPrivateNetworks: true, timeoutMs: 2_000, perReceiverConcurrency: 4 },
    receiverSlots: new ReceiverSlots(),
    prices: config.prices,
    recordsUnderWay,
  };
  const worker = new Worker(dispatch, { batchSize: 50, concurrency: 8, leaseMs: 60_000, pollIntervalMs: 1_000 });

  let accounts = 0;
  /** A token request as a server's client makes it (client_secret_post). */
  const tokenRequest = (clientId: string, clientSecret: string, scope?: string) =>
    app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        ...(scope !== undefined ? { scope } : {}),
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const testApp: TestApp = {
    app,
    database,
    location,
    store,
    clock,
    keys,
    tokens,
    providers,
    dispatch,
    worker,
    receive: (received, known) => receiveMessage({ store, clock, prices: config.prices }, received, known),
    async drain() {
      let total = 0;
      for (let round = 0; round < 1_000; round++) {
        const ran = await worker.runOnce();
        if (ran === 0) return total;
        total += ran;
      }
      throw new Error('the queue did not drain in 1000 rounds');
    },
    async createAccount(input = {}) {
      accounts++;
      return createAccount(store, clock, {
        name: input.name ?? `Test account ${accounts}`,
        email: input.email ?? `owner${accounts}@example.com`,
        plan: input.plan,
        scopes: input.scopes,
        creditsMicros: (input.credits ?? 100) * MICROS_PER_CREDIT,
      });
    },
    tokenRequest,
    async tokenFor(account, scope) {
      const response = await tokenRequest(account.clientId, account.clientSecret, scope);
      if (response.statusCode !== 200) throw new Error(`token request failed: ${response.statusCode} ${response.body}`);
      return response.json<{ access_token: string }>().access_token;
    },
    call(method, url, token, body) {
      return app.inject({
        method,
        url,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
    },
    async close() {
      await app.close();
      await database.close();
      await location.drop();
    },
  };
  return testApp;
}
