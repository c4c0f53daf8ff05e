import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseEnv } from 'node:util';
import { DEFAULT_TOKEN_CACHE_SIZE, TOKEN_TTL_SECONDS } from '../auth/access-tokens.js';
import type { AnyChannelModule, ConfiguredChannel, SettingsReader } from '../channels/channel-module.js';
import { parseCredits } from '../core/credits.js';
import { RECOVERY_POLICIES, type RecoveryPolicy } from '../core/delivery/provider.js';
import type { Channel } from '../core/ids.js';
import type { Plan } from '../core/plans.js';
import type { PriceList } from '../core/pricing.js';
import type { RateRule } from '../core/rate-limits.js';
import type { SessionSettings } from '../core/users/sign-in.js';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../dispatch/dispatch-context.js';
import type { RetryPolicy } from '../dispatch/retry-policy.js';
import { DEFAULT_RETRY_POLICY } from '../dispatch/retry-policy.js';
import { DEFAULT_WORKER_OPTIONS, type WorkerOptions } from '../dispatch/worker.js';
import { type AdmissionSettings, DEFAULT_ADMISSION_SETTINGS } from '../http/admission.js';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from '../http/connection-limits.js';
import type { RateLimitSettings } from '../http/rate-limits.js';
import { parseDialect } from '../storage/database.js';
import { CHANNEL_MODULES } from './channels.js';

/** Every setting Herald reads, with its default. The only module that reads the environment. */
export interface Config {
  port: number;
  host: string;
  /** METRICS_PORT (and METRICS_HOST, 127.0.0.1 by default): where /metrics is served; none when unset. */
  metrics: { host: string; port: number } | undefined;
  /** OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT): where spans go, OTLP over HTTP; traces are off when unset. */
  traces: TraceSettings | undefined;
  databaseUrl: string;
  databaseSchema: string | undefined;
  databasePoolSize: number;
  logLevel: string;
  /** LOG_FORMAT: JSON lines, pretty lines, or (auto) pretty when standard output is a terminal. */
  logFormat: 'json' | 'pretty' | 'auto';
  publicUrl: string;
  bodyLimitBytes: number;
  /** GROUP_COMMIT: concurrent sends share a commit (each in its own savepoint); on by default. */
  groupCommit: boolean;
  /** TOKEN_CACHE_SIZE: verified access tokens remembered per process (0: verify every request). */
  tokenCacheSize: number;
  /** ACCESS_TOKEN_TTL_SECONDS: how long an access token lives (1 h by default). */
  tokenTtlSeconds: number;
  /** HEAP_GROWTH_PERCENT: how far the heap of `serve`/`worker` may grow past its live size between full collections (0: V8's own rule). */
  heapGrowthPercent: number;
  /** Header size and slow-client deadlines per connection. */
  connectionLimits: ConnectionLimits;
  /** OVERLOAD_*: bounds past which requests are shed with 503 before any work (0 turns one off). */
  admission: AdmissionSettings;
  /** DASHBOARD_SESSION_HOURS / DASHBOARD_IDLE_MINUTES: how long a dashboard session lives, and may sit unused. */
  dashboardSessions: SessionSettings;
  /** Create a demo account (and print its credentials) when the store has no account yet. */
  demoAccount: boolean;
  shutdownTimeoutMs: number;
  /** On SIGTERM, how long the node goes on serving with `/readyz` at 503 before it stops listening. */
  shutdownDelayMs: number;
  /** PRICE_*: each channel's prices, in micro-credits, by key (each module declares its own). */
  prices: PriceList;
  /** Time from a sandbox acceptance to its delivery receipt. */
  sandboxDelayMs: number;
  worker: WorkerOptions;
  /** DISPATCH_THREAD: `herald serve` runs its dispatch worker on a thread of its own (main/dispatch-thread.ts). */
  dispatchThread: boolean;
  /** DISPATCH_SEMI_SPACE_MB: the dispatch thread's V8 semi-space, in MiB (0: the process's own). */
  dispatchSemiSpaceMb: number;
  sendTimeoutMs: number;
  retry: RetryPolicy;
  webhooks: WebhookSettings;
  /** TLS_CERT_FILE / TLS_KEY_FILE: serve HTTPS directly with this certificate and key (PEM). */
  tls: { cert: string; key: string } | undefined;
  /** HERALD_ENV=production: the API and the token endpoint refuse plain HTTP. */
  production: boolean;
  /** TRUSTED_PROXIES: addresses and CIDR ranges whose X-Forwarded-For / -Proto are believed. */
  trustedProxies: string[];
  /** Request rate limits (per client, by plan) and token-endpoint failure limits; REDIS_URL shares them. */
  rateLimits: RateLimitSettings;
  /** The channels served (main/channels.ts), each with its settings: SMS_PROVIDER, SMPP_*, EMAIL_*, SMTP_*, ... */
  channels: readonly ConfiguredChannel[];
  /** SMS_RECOVERY, EMAIL_RECOVERY, ...: what becomes of a hand-over in doubt; unset, the provider's default. */
  recovery: Partial<Record<Channel, RecoveryPolicy>>;
}

export class ConfigError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`${key}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: Env, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(key, `must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function boolean(env: Env, key: string, fallback: boolean): boolean {
  const raw = env[key]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(key, `must be true or false (got "${env[key]}")`);
}

function price(env: Env, key: string, fallback: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const micros = parseCredits(raw);
  if (micros === undefined) throw new ConfigError(key, `must be a number of credits with at most 6 decimals (got "${raw}")`);
  return micros;
}

function url(env: Env, key: string, fallback: string): string {
  const raw = env[key] || fallback;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new ConfigError(key, `must be an absolute http(s) URL (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
}

function readPem(env: Env, key: string): string {
  const path = env[key] as string;
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(key, `could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}: ${path})`);
  }
}

/** The defaults, per plan: requests per second and burst. */
export const DEFAULT_PLAN_LIMITS: Record<Plan, RateRule> = {
  developer: { perSecond: 10, burst: 20 },
  business: { perSecond: 50, burst: 100 },
  enterprise: { perSecond: 200, burst: 400 },
};

function rateRule(env: Env, key: string, fallback: RateRule): RateRule {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const match = /^(\d+(?:\.\d+)?):(\d+)$/.exec(raw.trim());
  const perSecond = Number(match?.[1]);
  const burst = Number(match?.[2]);
  if (!match || !(perSecond > 0) || !(burst >= 1) || perSecond > 1_000_000 || burst > 1_000_000) {
    throw new ConfigError(key, `must be <requests per second>:<burst>, e.g. 10:20 (got "${raw}")`);
  }
  return { perSecond, burst };
}

function rateLimits(env: Env): RateLimitSettings {
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  const perMinute = (key: string, fallback: number): RateRule => {
    const count = integer(env, key, fallback, 1, 1_000_000);
    return { perSecond: count / 60, burst: count };
  };
  return {
    redisUrl,
    plans: {
      developer: rateRule(env, 'RATE_LIMIT_DEVELOPER', DEFAULT_PLAN_LIMITS.developer),
      business: rateRule(env, 'RATE_LIMIT_BUSINESS', DEFAULT_PLAN_LIMITS.business),
      enterprise: rateRule(env, 'RATE_LIMIT_ENTERPRISE', DEFAULT_PLAN_LIMITS.enterprise),
    },
    tokenFailures: { perClient: perMinute('TOKEN_FAILURES_PER_CLIENT', 10), perIp: perMinute('TOKEN_FAILURES_PER_IP', 50) },
  };
}

function tlsFiles(env: Env): Config['tls'] {
  const certFile = env.TLS_CERT_FILE;
  const keyFile = env.TLS_KEY_FILE;
  if (!certFile && !keyFile) return undefined;
  if (!certFile) throw new ConfigError('TLS_CERT_FILE', 'is required with TLS_KEY_FILE (both, or neither)');
  if (!keyFile) throw new ConfigError('TLS_KEY_FILE', 'is required with TLS_CERT_FILE (both, or neither)');
  const cert = readPem(env, 'TLS_CERT_FILE');
  const key = readPem(env, 'TLS_KEY_FILE');
  if (!cert.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError('TLS_CERT_FILE', 'must hold a PEM certificate');
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) throw new ConfigError('TLS_KEY_FILE', 'must hold a PEM private key');
  return { cert, key };
}

function herald(env: Env): boolean {
  const value = (env.HERALD_ENV || 'development').toLowerCase();
  if (value !== 'development' && value !== 'production') {
    throw new ConfigError('HERALD_ENV', `must be development or production (got "${env.HERALD_ENV}")`);
  }
  return value === 'production';
}

function trustedProxies(env: Env): string[] {
  const list = (env.TRUSTED_PROXIES ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of list) {
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || rest.length > 0) {
      throw new ConfigError('TRUSTED_PROXIES', `must be IP addresses or CIDR ranges separated by commas (got "${entry}")`);
    }
  }
  return list;
}

function required(env: Env, key: string, why: string): string {
  const value = env[key];
  if (!value) throw new ConfigError(key, `is required ${why}`);
  return value;
}

/**
 * The settings of a config file named by HERALD_CONFIG_FILE (KEY=value lines, `#` comments, values
 * optionally quoted: the dotenv format), under the environment: a variable set in the environment
 * wins over the file. Lets secrets (SMPP_URL, SMTP_URL, tokens) live in a file readable by Herald alone.
 */
export function withConfigFile(env: Env): Env {
  const path = env.HERALD_CONFIG_FILE;
  if (!path) return env;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError('HERALD_CONFIG_FILE', `could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}: ${path})`);
  }
  const fromFile = parseEnv(text) as Env;
  const merged: Env = { ...fromFile };
  for (const [key, value] of Object.entries(env)) if (value !== undefined) merged[key] = value;
  return merged;
}

function connectionLimits(env: Env): ConnectionLimits {
  const d = DEFAULT_CONNECTION_LIMITS;
  const limits: ConnectionLimits = {
    maxHeaderBytes: integer(env, 'MAX_HEADER_BYTES', d.maxHeaderBytes, 1024, 1024 * 1024),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', d.headersTimeoutMs, 100, 600_000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', d.requestTimeoutMs, 100, 3_600_000),
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs, 100, 3_600_000),
  };
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new ConfigError(
      'HEADERS_TIMEOUT_MS',
      `must not exceed REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs}): the headers are part of the request`,
    );
  }
  return limits;
}

/**
 * The metrics listener: off unless METRICS_PORT is set, and then on 127.0.0.1 unless METRICS_HOST
 * says otherwise, never on the API's listener (metrics/metrics-server.ts says why).
 */
function metricsListener(env: Env): Config['metrics'] {
  if (env.METRICS_PORT === undefined || env.METRICS_PORT === '') return undefined;
  const host = env.METRICS_HOST || '127.0.0.1';
  if (isIP(host) === 0 && host !== 'localhost')
    throw new ConfigError('METRICS_HOST', `must be an IP address of this machine (got "${host}")`);
  return { host, port: integer(env, 'METRICS_PORT', 9464, 0, 65535) };
}

export interface TraceSettings {
  /** The OTLP/HTTP traces URL (`.../v1/traces`). */
  url: string;
  /** OTEL_EXPORTER_OTLP_HEADERS (`key=value,...`): sent with each export (a collector's credentials; never logged). */
  headers: Record<string, string>;
  /** OTEL_SERVICE_NAME, `herald` by default. */
  serviceName: string;
  /** OTEL_TRACES_SAMPLER_ARG: the share of new traces kept, 0 to 1 (1 by default). */
  sampleRatio: number;
}

/**
 * Traces: off unless an OTLP endpoint is set, with the variables OpenTelemetry's own SDKs read
 * (docs/operations.md, "Traces"). OTEL_EXPORTER_OTLP_ENDPOINT is the collector's base URL (traces
 * go to its `/v1/traces`); OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, the full URL, wins over it.
 */
function traceSettings(env: Env): TraceSettings | undefined {
  const full = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const [variable, url] = full
    ? ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', full]
    : base
      ? ['OTEL_EXPORTER_OTLP_ENDPOINT', `${base.replace(/\/+$/, '')}/v1/traces`]
      : [];
  if (!variable || !url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(variable, 'must be an http:// or https:// URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(variable, 'must be an http:// or https:// URL');
  const headers: Record<string, string> = {};
  for (const pair of (env.OTEL_EXPORTER_OTLP_HEADERS ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    if (at <= 0) throw new ConfigError('OTEL_EXPORTER_OTLP_HEADERS', 'must be key=value pairs separated by commas');
    try {
      headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new ConfigError('OTEL_EXPORTER_OTLP_HEADERS', 'holds a malformed %-escape');
    }
  }
  const ratioText = env.OTEL_TRACES_SAMPLER_ARG;
  const sampleRatio = ratioText === undefined || ratioText === '' ? 1 : Number(ratioText);
  if (!Number.isFinite(sampleRatio) || sampleRatio < 0 || sampleRatio > 1)
    throw new ConfigError('OTEL_TRACES_SAMPLER_ARG', 'must be a number from 0 to 1');
  return { url, headers, serviceName: env.OTEL_SERVICE_NAME || 'herald', sampleRatio };
}

function admission(env: Env): AdmissionSettings {
  const d = DEFAULT_ADMISSION_SETTINGS;
  return {
    maxQueueWaitMs: integer(env, 'OVERLOAD_MAX_QUEUE_WAIT_MS', d.maxQueueWaitMs, 0, 600_000),
    maxQueuedMessages: integer(env, 'OVERLOAD_MAX_QUEUED_MESSAGES', d.maxQueuedMessages, 0, 10_000_000),
    maxEventLoopDelayMs: integer(env, 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', d.maxEventLoopDelayMs, 0, 600_000),
    maxEventLoopBusyPercent: integer(env, 'OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT', d.maxEventLoopBusyPercent, 0, 100),
    maxHeapUsedBytes: integer(env, 'OVERLOAD_MAX_HEAP_USED_BYTES', d.maxHeapUsedBytes, 0, Number.MAX_SAFE_INTEGER),
    maxRssBytes: integer(env, 'OVERLOAD_MAX_RSS_BYTES', d.maxRssBytes, 0, Number.MAX_SAFE_INTEGER),
    retryAfterSeconds: integer(env, 'OVERLOAD_RETRY_AFTER_SECONDS', d.retryAfterSeconds, 1, 3_600),
    minRequestsInFlight: integer(env, 'OVERLOAD_MIN_REQUESTS_IN_FLIGHT', d.minRequestsInFlight, 0, 1_000_000),
  };
}

export function loadConfig(environment: Env = process.env, modules: readonly AnyChannelModule[] = CHANNEL_MODULES): Config {
  const env = withConfigFile(environment);
  const reader = settingsReader(env);
  const channels = modules.map((module): ConfiguredChannel => ({ module, settings: module.settings(reader) }));
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const databaseUrl = env.DATABASE_URL || 'sqlite:./data/herald.db';
  try {
    parseDialect(databaseUrl);
  } catch (error) {
    throw new ConfigError('DATABASE_URL', (error as Error).message);
  }
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = (env.LOG_FORMAT || 'auto').toLowerCase();
  if (logFormat !== 'json' && logFormat !== 'pretty' && logFormat !== 'auto') {
    throw new ConfigError('LOG_FORMAT', 'must be json, pretty or auto');
  }
  const schema = env.DATABASE_SCHEMA || undefined;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new ConfigError('DATABASE_SCHEMA', 'must be a lower-case SQL identifier');
  }
  if (schema !== undefined && parseDialect(databaseUrl) === 'sqlite') {
    throw new ConfigError('DATABASE_SCHEMA', 'applies to PostgreSQL only; unset it for a sqlite: DATABASE_URL');
  }
  const publicHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;

  // A worker renews its leases while it runs (every third of the lease), so a send may outlast one.
  const leaseMs = integer(env, 'WORKER_LEASE_MS', DEFAULT_WORKER_OPTIONS.leaseMs, 1_000, 3_600_000);
  const sendTimeoutMs = integer(env, 'SEND_TIMEOUT_MS', 30_000, 100, 600_000);

  return {
    port,
    host,
    databaseUrl,
    databaseSchema: schema,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    logLevel,
    logFormat,
    publicUrl: url(env, 'PUBLIC_URL', `${env.TLS_CERT_FILE ? 'https' : 'http'}://${publicHost}:${port}`),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    connectionLimits: connectionLimits(env),
    admission: admission(env),
    metrics: metricsListener(env),
    traces: traceSettings(env),
    groupCommit: boolean(env, 'GROUP_COMMIT', true),
    tokenCacheSize: integer(env, 'TOKEN_CACHE_SIZE', DEFAULT_TOKEN_CACHE_SIZE, 0, 1_000_000),
    tokenTtlSeconds: integer(env, 'ACCESS_TOKEN_TTL_SECONDS', TOKEN_TTL_SECONDS, 5, 86_400),
    heapGrowthPercent: integer(env, 'HEAP_GROWTH_PERCENT', 30, 0, 1_000),
    demoAccount: boolean(env, 'DEMO_ACCOUNT', true),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    shutdownDelayMs: integer(env, 'SHUTDOWN_DELAY_MS', 0, 0, 600_000),
    prices: prices(env, modules),
    sandboxDelayMs: integer(env, 'SANDBOX_DELAY_MS', 1_000, 0, 3_600_000),
    worker: {
      batchSize: integer(env, 'WORKER_BATCH_SIZE', DEFAULT_WORKER_OPTIONS.batchSize, 1, 10_000),
      concurrency: integer(env, 'WORKER_CONCURRENCY', DEFAULT_WORKER_OPTIONS.concurrency, 1, 1_000),
      leaseMs,
      pollIntervalMs: integer(env, 'WORKER_POLL_INTERVAL_MS', DEFAULT_WORKER_OPTIONS.pollIntervalMs, 10, 60_000),
      lingerMs: integer(env, 'WORKER_LINGER_MS', DEFAULT_WORKER_OPTIONS.lingerMs ?? 0, 0, 1_000),
    },
    // An in-memory SQLite store is the process's own connection's: a thread would open another, empty one.
    dispatchThread: boolean(env, 'DISPATCH_THREAD', true) && !databaseUrl.endsWith(':memory:'),
    dispatchSemiSpaceMb: integer(env, 'DISPATCH_SEMI_SPACE_MB', 16, 0, 64),
    sendTimeoutMs,
    retry: {
      baseDelayMs: integer(env, 'RETRY_BASE_DELAY_MS', DEFAULT_RETRY_POLICY.baseDelayMs, 0, 3_600_000),
      maxDelayMs: integer(env, 'RETRY_MAX_DELAY_MS', DEFAULT_RETRY_POLICY.maxDelayMs, 0, 86_400_000),
      maxAttempts: integer(env, 'RETRY_MAX_ATTEMPTS', DEFAULT_RETRY_POLICY.maxAttempts, 1, 1_000),
      maxAgeMs: integer(env, 'MESSAGE_MAX_AGE_MS', DEFAULT_RETRY_POLICY.maxAgeMs, 1_000, 30 * 86_400_000),
    },
    webhooks: {
      allowPrivateNetworks: boolean(env, 'WEBHOOKS_ALLOW_PRIVATE_NETWORKS', DEFAULT_WEBHOOK_SETTINGS.allowPrivateNetworks),
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', DEFAULT_WEBHOOK_SETTINGS.timeoutMs, 100, 60_000),
      perReceiverConcurrency: integer(env, 'WEBHOOK_CONCURRENCY_PER_RECEIVER', DEFAULT_WEBHOOK_SETTINGS.perReceiverConcurrency, 1, 100),
    },
    tls: tlsFiles(env),
    production: herald(env),
    trustedProxies: trustedProxies(env),
    rateLimits: rateLimits(env),
    dashboardSessions: {
      lifetimeMs: integer(env, 'DASHBOARD_SESSION_HOURS', 12, 1, 720) * 3600_000,
      idleMs: integer(env, 'DASHBOARD_IDLE_MINUTES', 60, 1, 1440) * 60_000,
    },
    channels,
    recovery: recoveryPolicies(env, channels),
  };
}

/**
 * `<CHANNEL>_RECOVERY`: `resend`, `hold` or `ask`, per channel. `ask` needs a provider that can say
 * whether it holds a message: of Herald's providers only the sandbox can.
 */
function recoveryPolicies(env: Env, channels: readonly ConfiguredChannel[]): Partial<Record<Channel, RecoveryPolicy>> {
  const policies: Partial<Record<Channel, RecoveryPolicy>> = {};
  for (const { module, settings } of channels) {
    const key = `${module.name.toUpperCase()}_RECOVERY`;
    const raw = env[key]?.toLowerCase();
    if (!raw) continue;
    const policy = RECOVERY_POLICIES.find((name) => name === raw);
    if (!policy) throw new ConfigError(key, `must be one of ${RECOVERY_POLICIES.join(', ')} (got "${env[key]}")`);
    if (policy === 'ask' && !module.canBeAsked(settings)) {
      const provider = (env[`${module.name.toUpperCase()}_PROVIDER`] || 'sandbox').toLowerCase();
      throw new ConfigError(
        key,
        `ask needs a provider that can be asked whether it holds a message, and ${provider} cannot; use hold or resend`,
      );
    }
    policies[module.name] = policy;
  }
  return policies;
}

/** PRICE_*: each channel module's prices, by key; two modules naming one key or variable is a defect of the list. */
function prices(env: Env, modules: readonly AnyChannelModule[]): PriceList {
  const list: Record<string, number> = {};
  const variables = new Set<string>();
  for (const setting of modules.flatMap((module) => module.prices)) {
    if (setting.key in list || variables.has(setting.variable)) {
      throw new Error(`two channel modules declare the price '${setting.key}' or its variable ${setting.variable}`);
    }
    variables.add(setting.variable);
    list[setting.key] = price(env, setting.variable, setting.defaultMicros);
  }
  return list;
}

/** The channels' view of the environment: the same readers, the same errors naming the variable. */
function settingsReader(env: Env): SettingsReader {
  return {
    text: (key) => env[key] || undefined,
    required: (key, why) => required(env, key, why),
    integer: (key, fallback, min, max) => integer(env, key, fallback, min, max),
    boolean: (key, fallback) => boolean(env, key, fallback),
    url: (key, fallback) => url(env, key, fallback),
    pemFile: (key) => readPem(env, key),
    fail: (key, problem) => {
      throw new ConfigError(key, problem);
    },
  };
}

/**
 * Says, once a process that registers or sends webhooks has started, that WEBHOOKS_ALLOW_PRIVATE_NETWORKS
 * lets them reach private and loopback addresses (the server's registration check, a worker's sends).
 */
export function warnOfPrivateWebhooks(config: Pick<Config, 'webhooks'>, logger: { warn(obj: object, msg: string): void }): void {
  if (!config.webhooks.allowPrivateNetworks) return;
  logger.warn(
    { setting: 'WEBHOOKS_ALLOW_PRIVATE_NETWORKS' },
    'webhooks may be sent to private and loopback addresses: for development only, never in production (docs/webhooks.md)',
  );
}
