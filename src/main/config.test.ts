import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { smsModule } from '../channels/sms/sms.module.js';
import { CHANNEL_MODULES } from './channels.js';
import { type Config, ConfigError, loadConfig } from './config.js';

/** A channel's settings as its module read them. */
const settingsOf = (config: Config, channel: string): unknown => config.channels.find(({ module }) => module.name === channel)?.settings;
const smsProviderOf = (config: Config) => settingsOf(config, 'sms');
const emailProviderOf = (config: Config) => (settingsOf(config, 'email') as { provider: unknown }).provider;

describe('configuration from the environment', () => {
  it('runs with no settings at all: SQLite under ./data on 127.0.0.1:3000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/herald.db',
      databaseSchema: undefined,
      logLevel: 'info',
      logFormat: 'auto',
      publicUrl: 'http://127.0.0.1:3000',
      bodyLimitBytes: 1_048_576,
      demoAccount: true,
      sandboxDelayMs: 1_000,
    });
    expect(config.prices.smsSegment).toBe(1_000_000);
    expect(config.webhooks.allowPrivateNetworks).toBe(false);
  });

  it('chooses SMTP for email when told to, and never repeats the SMTP password in an error', () => {
    expect(emailProviderOf(loadConfig({ EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtps://u:p@mail.example.com:465' }))).toEqual({
      kind: 'smtp',
      smtp: { url: 'smtps://u:p@mail.example.com:465', poolSize: 5 },
    });
    expect(() => loadConfig({ EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtp://u:hunter2@[bad' })).toThrow(/^SMTP_URL: is not a valid URL$/);
  });

  it('sends SMS through the sandbox unless SMS_PROVIDER says smpp', () => {
    expect(smsProviderOf(loadConfig({}))).toEqual({ kind: 'sandbox' });
    expect(smsProviderOf(loadConfig({ SMS_PROVIDER: 'sandbox', SMPP_URL: 'smpp://ignored:x@smsc.example.com' }))).toEqual({
      kind: 'sandbox',
    });
  });

  it('reads SMPP_URL into host, port, system_id and the decoded password, with every SMPP_* default', () => {
    const env = { SMS_PROVIDER: 'smpp', SMPP_URL: 'smpp://herald%2Dsys:p%40ss%3Aw%2Frd@smsc.example.com:2776' };
    expect(smsProviderOf(loadConfig(env))).toEqual({
      kind: 'smpp',
      smpp: {
        host: 'smsc.example.com',
        port: 2776,
        systemId: 'herald-sys',
        password: 'p@ss:w/rd',
        systemType: '',
        windowSize: 100,
        enquireLinkMs: 30_000,
        responseTimeoutMs: 10_000,
        reconnectMinMs: 1_000,
        reconnectMaxMs: 30_000,
        sourceTon: undefined,
        sourceNpi: undefined,
        destTon: 1,
        destNpi: 1,
        defaultSender: undefined,
        throttledRetryMs: 5_000,
        binds: 1,
      },
    });
    const smpp = (
      smsProviderOf(loadConfig({ SMS_PROVIDER: 'SMPP', SMPP_URL: 'smpp://herald:secret@smsc.example.com' })) as { smpp: object }
    ).smpp;
    expect(smpp).toMatchObject({ host: 'smsc.example.com', port: 2775, systemId: 'herald', password: 'secret' });
    expect(smpp).not.toHaveProperty('maxPerSecond');
  });

  it('reads every optional SMPP_* setting', () => {
    const config = loadConfig({
      SMS_PROVIDER: 'smpp',
      SMPP_URL: 'smpp://herald:secret@[2001:db8::1]:3000',
      SMPP_SYSTEM_TYPE: 'OTP',
      SMPP_WINDOW: '50',
      SMPP_ENQUIRE_LINK_MS: '15000',
      SMPP_RESPONSE_TIMEOUT_MS: '5000',
      SMPP_RECONNECT_MIN_MS: '2000',
      SMPP_RECONNECT_MAX_MS: '60000',
      SMPP_SOURCE_TON: '5',
      SMPP_SOURCE_NPI: '0',
      SMPP_DEST_TON: '0',
      SMPP_DEST_NPI: '0',
      SMPP_DEFAULT_SENDER: 'Herald',
      SMPP_THROTTLED_RETRY_MS: '1000',
      SMPP_THROUGHPUT: '100',
      SMPP_BINDS: '4',
    });
    expect(smsProviderOf(config)).toEqual({
      kind: 'smpp',
      smpp: {
        host: '2001:db8::1',
        port: 3000,
        systemId: 'herald',
        password: 'secret',
        systemType: 'OTP',
        windowSize: 50,
        enquireLinkMs: 15_000,
        responseTimeoutMs: 5_000,
        reconnectMinMs: 2_000,
        reconnectMaxMs: 60_000,
        sourceTon: 5,
        sourceNpi: 0,
        destTon: 0,
        destNpi: 0,
        defaultSender: 'Herald',
        throttledRetryMs: 1_000,
        binds: 4,
        maxPerSecond: 100,
      },
    });
    // A maximum below the minimum is raised to it; a +number is a valid default sender.
    const raised = smsProviderOf(
      loadConfig({
        SMS_PROVIDER: 'smpp',
        SMPP_URL: 'smpp://herald:secret@smsc.example.com',
        SMPP_RECONNECT_MIN_MS: '5000',
        SMPP_RECONNECT_MAX_MS: '100',
        SMPP_DEFAULT_SENDER: '+14155552671',
      }),
    );
    expect(raised).toMatchObject({ smpp: { reconnectMinMs: 5_000, reconnectMaxMs: 5_000, defaultSender: '+14155552671' } });
  });

  it.each([
    ['not a URL', 'smpp://herald:hunter2@[bad', /^SMPP_URL: is not a valid URL$/],
    ['another scheme', 'http://herald:hunter2@smsc.example.com', /^SMPP_URL: must start with smpp:\/\/$/],
    ['no system_id', 'smpp://:hunter2@smsc.example.com:2775', /^SMPP_URL: must name the system_id and the host/],
  ])('never repeats the SMPP password in an error about SMPP_URL (%s)', (_case, smppUrl, expected) => {
    let message = '';
    try {
      loadConfig({ SMS_PROVIDER: 'smpp', SMPP_URL: smppUrl });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(expected);
    expect(message).not.toContain('hunter2');
  });

  it('leaves recovery to each provider by default, and reads <CHANNEL>_RECOVERY per channel', () => {
    expect(loadConfig({}).recovery).toEqual({});
    expect(loadConfig({ SMS_RECOVERY: 'Resend', TELEGRAM_RECOVERY: 'hold', EMAIL_RECOVERY: 'ask' }).recovery).toEqual({
      sms: 'resend',
      telegram: 'hold',
      email: 'ask',
    });
    expect(loadConfig({ SMS_PROVIDER: 'smpp', SMPP_URL: 'smpp://herald:pw@127.0.0.1:2775', SMS_RECOVERY: 'resend' }).recovery).toEqual({
      sms: 'resend',
    });
  });

  it('lets a send time out later than the lease, which the worker renews while it runs', () => {
    expect(loadConfig({ SEND_TIMEOUT_MS: '60000', WORKER_LEASE_MS: '15000' })).toMatchObject({
      sendTimeoutMs: 60_000,
      worker: { leaseMs: 15_000 },
    });
  });

  it('reads prices as credits with up to 6 decimals', () => {
    expect(loadConfig({ PRICE_SMS_SEGMENT: '0.075' }).prices.smsSegment).toBe(75_000);
  });

  it("reads each channel module's prices, and refuses a list where two modules declare one price", () => {
    expect(loadConfig({}).prices).toEqual({
      smsSegment: 1_000_000,
      whatsappTemplate: 800_000,
      whatsappSession: 300_000,
      email: 100_000,
      telegramMessage: 50_000,
      telegramPhoto: 100_000,
    });
    const twin = Object.assign({}, smsModule, { name: 'twin' });
    expect(() => loadConfig({}, [...CHANNEL_MODULES, twin])).toThrow(/price 'smsSegment'/);
  });

  it('serves no metrics unless METRICS_PORT is set, then on loopback unless METRICS_HOST says otherwise', () => {
    expect(loadConfig({}).metrics).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ METRICS_PORT: '0', METRICS_HOST: '::1' }).metrics).toEqual({ host: '::1', port: 0 });
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/^METRICS_PORT: /);
    expect(() => loadConfig({ METRICS_PORT: '9464', METRICS_HOST: 'metrics.internal' })).toThrow(/^METRICS_HOST: must be an IP address/);
  });

  it('traces nothing unless an OTLP endpoint is set, then reads the variables OpenTelemetry SDKs read', () => {
    expect(loadConfig({}).traces).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).traces).toEqual({
      url: 'http://collector:4318/v1/traces',
      headers: {},
      serviceName: 'herald',
      sampleRatio: 1,
    });
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://vendor.example/otlp/traces',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D%3D, x-team = ops',
        OTEL_SERVICE_NAME: 'herald-eu',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
      }).traces,
    ).toEqual({
      url: 'https://vendor.example/otlp/traces',
      headers: { 'x-api-key': 'abc==', 'x-team': 'ops' },
      serviceName: 'herald-eu',
      sampleRatio: 0.25,
    });
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/^OTEL_EXPORTER_OTLP_ENDPOINT: must be an http/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://collector:4317' })).toThrow(
      /^OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: /,
    );
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'novalue' })).toThrow(
      /^OTEL_EXPORTER_OTLP_HEADERS: /,
    );
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(
      /^OTEL_TRACES_SAMPLER_ARG: /,
    );
  });

  it('derives the public URL from host and port, and trims a trailing slash from PUBLIC_URL', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://herald.example.com/' }).publicUrl).toBe('https://herald.example.com');
  });

  it.each([
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: 'eighty' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/herald' }],
    ['DATABASE_SCHEMA', { DATABASE_URL: 'postgres://localhost/h', DATABASE_SCHEMA: 'Bad-Name' }],
    ['DATABASE_SCHEMA', { DATABASE_SCHEMA: 'herald' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['LOG_FORMAT', { LOG_FORMAT: 'xml' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://herald.example.com' }],
    ['DEMO_ACCOUNT', { DEMO_ACCOUNT: 'maybe' }],
    ['PRICE_EMAIL', { PRICE_EMAIL: '-1' }],
    ['PRICE_EMAIL', { PRICE_EMAIL: '0.0000001' }],
    ['SMS_RECOVERY', { SMS_RECOVERY: 'twice' }],
    ['SMS_RECOVERY', { SMS_PROVIDER: 'smpp', SMPP_URL: 'smpp://herald:pw@127.0.0.1:2775', SMS_RECOVERY: 'ask' }],
    ['EMAIL_RECOVERY', { EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtp://127.0.0.1:25', EMAIL_RECOVERY: 'ask' }],
    ['WEBHOOKS_ALLOW_PRIVATE_NETWORKS', { WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'sometimes' }],
    ['EMAIL_PROVIDER', { EMAIL_PROVIDER: 'sendgrid' }],
    ['TELEGRAM_PROVIDER', { TELEGRAM_PROVIDER: 'mtproto' }],
    ['WHATSAPP_PROVIDER', { WHATSAPP_PROVIDER: 'twilio' }],
    ['WHATSAPP_PHONE_NUMBER_ID', { WHATSAPP_PROVIDER: 'cloud-api' }],
    ['WHATSAPP_PHONE_NUMBER_ID', { WHATSAPP_PROVIDER: 'cloud-api', WHATSAPP_PHONE_NUMBER_ID: '+1 415' }],
    ['WHATSAPP_ACCESS_TOKEN', { WHATSAPP_PROVIDER: 'cloud-api', WHATSAPP_PHONE_NUMBER_ID: '106540352242922' }],
    [
      'WHATSAPP_API_VERSION',
      { WHATSAPP_PROVIDER: 'cloud-api', WHATSAPP_PHONE_NUMBER_ID: '106540352242922', WHATSAPP_API_VERSION: 'latest' },
    ],
    [
      'WHATSAPP_VERIFY_TOKEN',
      { WHATSAPP_PROVIDER: 'cloud-api', WHATSAPP_PHONE_NUMBER_ID: '106540352242922', WHATSAPP_ACCESS_TOKEN: 't', WHATSAPP_APP_SECRET: 's' },
    ],
    ['TELEGRAM_BOT_TOKEN', { TELEGRAM_PROVIDER: 'bot-api' }],
    ['TELEGRAM_BOT_TOKEN', { TELEGRAM_PROVIDER: 'bot-api', TELEGRAM_BOT_TOKEN: 'not-a-token' }],
    [
      'TELEGRAM_API_BASE_URL',
      { TELEGRAM_PROVIDER: 'bot-api', TELEGRAM_BOT_TOKEN: '123456789:AAHfakeFAKEfake_fake-fakeFAKEfake123', TELEGRAM_API_BASE_URL: 'nope' },
    ],
    ['SMTP_URL', { EMAIL_PROVIDER: 'smtp' }],
    ['SMTP_URL', { EMAIL_PROVIDER: 'smtp', SMTP_URL: 'http://mail.example.com' }],
    ['SMTP_POOL_SIZE', { EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtp://mail.example.com', SMTP_POOL_SIZE: '0' }],
    ['SMTP_LIST_UNSUBSCRIBE', { EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtp://mail.example.com', SMTP_LIST_UNSUBSCRIBE: 'http://x' }],
    ['SMS_PROVIDER', { SMS_PROVIDER: 'carrier-pigeon' }],
    ['SMPP_URL', { SMS_PROVIDER: 'smpp' }],
    ['SMPP_URL', { SMS_PROVIDER: 'smpp', SMPP_URL: 'not a url' }],
    ['SMPP_URL', { SMS_PROVIDER: 'smpp', SMPP_URL: 'http://herald:secret@smsc.example.com:2775' }],
    ['SMPP_URL', { SMS_PROVIDER: 'smpp', SMPP_URL: 'smpp://smsc.example.com:2775' }],
    ['SMPP_WINDOW', { SMS_PROVIDER: 'smpp', SMPP_URL: 'smpp://herald:secret@smsc.example.com', SMPP_WINDOW: '0' }],
    ['SMPP_BINDS', { SMS_PROVIDER: 'smpp', SMPP_URL: 'smpp://herald:secret@smsc.example.com', SMPP_BINDS: '33' }],
    ['SMPP_SOURCE_TON', { SMS_PROVIDER: 'smpp', SMPP_URL: 'smpp://herald:secret@smsc.example.com', SMPP_SOURCE_TON: '300' }],
    [
      'SMPP_DEFAULT_SENDER',
      { SMS_PROVIDER: 'smpp', SMPP_URL: 'smpp://herald:secret@smsc.example.com', SMPP_DEFAULT_SENDER: 'HeraldAlerts' },
    ],
  ])('refuses a bad %s, naming the key', (key, env) => {
    let thrown: unknown;
    try {
      loadConfig(env);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).key).toBe(key);
    expect((thrown as ConfigError).message.startsWith(`${key}:`)).toBe(true);
  });
});

describe('configuration from a file (HERALD_CONFIG_FILE)', () => {
  const file = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'herald-config-')), 'herald.env');
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  };

  it('reads KEY=value lines, comments and quotes included, and the environment wins over the file', () => {
    const path = file(
      [
        '# Herald settings',
        'SMS_PROVIDER=smpp',
        "SMPP_URL='smpp://herald:s3cr3t@smsc.example.com:2776'",
        'SMPP_WINDOW="20"',
        'PORT=4000',
        '',
      ].join('\n'),
    );
    const config = loadConfig({ HERALD_CONFIG_FILE: path, PORT: '5000' });
    expect(config.port).toBe(5000);
    expect(smsProviderOf(config)).toMatchObject({
      kind: 'smpp',
      smpp: { host: 'smsc.example.com', port: 2776, password: 's3cr3t', windowSize: 20 },
    });
  });

  it('stops, naming HERALD_CONFIG_FILE, when the file cannot be read', () => {
    expect(() => loadConfig({ HERALD_CONFIG_FILE: '/nonexistent/herald.env' })).toThrow(ConfigError);
    expect(() => loadConfig({ HERALD_CONFIG_FILE: '/nonexistent/herald.env' })).toThrow(/^HERALD_CONFIG_FILE: could not be read \(ENOENT/);
  });

  it('checks settings from the file like any other, naming the key', () => {
    const path = file('SMS_PROVIDER=smpp\nSMPP_URL=http://wrong.example.com\n');
    expect(() => loadConfig({ HERALD_CONFIG_FILE: path })).toThrow(/^SMPP_URL: must start with smpp:\/\//);
  });
});

describe('rate-limit settings', () => {
  it('defaults per plan, per-process buckets without REDIS_URL, and token failure budgets a minute', () => {
    const { rateLimits } = loadConfig({});
    expect(rateLimits.redisUrl).toBeUndefined();
    expect(rateLimits.plans).toEqual({
      developer: { perSecond: 10, burst: 20 },
      business: { perSecond: 50, burst: 100 },
      enterprise: { perSecond: 200, burst: 400 },
    });
    expect(rateLimits.tokenFailures).toEqual({ perClient: { perSecond: 10 / 60, burst: 10 }, perIp: { perSecond: 50 / 60, burst: 50 } });
  });

  it('reads <rate>:<burst> per plan and REDIS_URL', () => {
    const { rateLimits } = loadConfig({ RATE_LIMIT_BUSINESS: '2.5:5', REDIS_URL: 'redis://127.0.0.1:6379/2', TOKEN_FAILURES_PER_IP: '7' });
    expect(rateLimits.plans.business).toEqual({ perSecond: 2.5, burst: 5 });
    expect(rateLimits.redisUrl).toBe('redis://127.0.0.1:6379/2');
    expect(rateLimits.tokenFailures.perIp.burst).toBe(7);
  });

  it.each([
    [{ RATE_LIMIT_DEVELOPER: '10' }, /^RATE_LIMIT_DEVELOPER: must be <requests per second>:<burst>/],
    [{ RATE_LIMIT_ENTERPRISE: '0:5' }, /^RATE_LIMIT_ENTERPRISE: must be/],
    [{ RATE_LIMIT_BUSINESS: '5:0' }, /^RATE_LIMIT_BUSINESS: must be/],
    [{ REDIS_URL: 'http://127.0.0.1:6379' }, /^REDIS_URL: must start with redis:\/\/ or rediss:\/\//],
    [{ TOKEN_FAILURES_PER_CLIENT: '0' }, /^TOKEN_FAILURES_PER_CLIENT: must be a whole number/],
  ])('refuses %o, naming the key', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('performance settings', () => {
  it('groups commits and caches 10,000 verified tokens by default; both can be turned off', () => {
    expect(loadConfig({})).toMatchObject({ groupCommit: true, tokenCacheSize: 10_000 });
    expect(loadConfig({ GROUP_COMMIT: 'false', TOKEN_CACHE_SIZE: '0' })).toMatchObject({ groupCommit: false, tokenCacheSize: 0 });
    expect(() => loadConfig({ TOKEN_CACHE_SIZE: '-1' })).toThrow(/^TOKEN_CACHE_SIZE: must be a whole number/);
  });

  it('lets the heap of a long-running process grow 30% past its live size by default; 0 leaves it to V8', () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(30);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: '-5' })).toThrow(/^HEAP_GROWTH_PERCENT: must be a whole number/);
  });
});

describe('connection limits', () => {
  it('defaults to 16 KiB of headers, 10 s for them, 120 s for the whole request, 72 s keep-alive', () => {
    expect(loadConfig({}).connectionLimits).toEqual({
      maxHeaderBytes: 16_384,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 72_000,
    });
  });

  it('sheds load past 200 ms of queued sends, 20,000 queued messages, a 50 ms stall or a busy event loop by default, memory unbounded, with 64 requests in hand', () => {
    expect(loadConfig({}).admission).toEqual({
      maxQueueWaitMs: 200,
      maxQueuedMessages: 20_000,
      maxEventLoopDelayMs: 50,
      maxEventLoopBusyPercent: 98,
      maxHeapUsedBytes: 0,
      maxRssBytes: 0,
      retryAfterSeconds: 1,
      minRequestsInFlight: 64,
    });
  });

  it('reads the OVERLOAD_* bounds, 0 turning one off, and refuses a Retry-After under a second', () => {
    const env = {
      OVERLOAD_MAX_QUEUE_WAIT_MS: '0',
      OVERLOAD_MAX_QUEUED_MESSAGES: '5000',
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '500',
      OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT: '95',
      OVERLOAD_MAX_HEAP_USED_BYTES: '1073741824',
      OVERLOAD_MAX_RSS_BYTES: '2147483648',
      OVERLOAD_RETRY_AFTER_SECONDS: '5',
      OVERLOAD_MIN_REQUESTS_IN_FLIGHT: '0',
    };
    expect(loadConfig(env).admission).toEqual({
      maxQueueWaitMs: 0,
      maxQueuedMessages: 5_000,
      maxEventLoopDelayMs: 500,
      maxEventLoopBusyPercent: 95,
      maxHeapUsedBytes: 1_073_741_824,
      maxRssBytes: 2_147_483_648,
      retryAfterSeconds: 5,
      minRequestsInFlight: 0,
    });
    expect(() => loadConfig({ OVERLOAD_RETRY_AFTER_SECONDS: '0' })).toThrow(/^OVERLOAD_RETRY_AFTER_SECONDS: must be a whole number from 1/);
    expect(() => loadConfig({ OVERLOAD_MAX_QUEUE_WAIT_MS: '-1' })).toThrow(/^OVERLOAD_MAX_QUEUE_WAIT_MS: must be a whole number/);
    expect(() => loadConfig({ OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT: '101' })).toThrow(
      /^OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT: must be a whole number from 0 to 100/,
    );
  });

  it('reads MAX_HEADER_BYTES, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS and KEEP_ALIVE_TIMEOUT_MS', () => {
    const env = { MAX_HEADER_BYTES: '8192', HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '30000', KEEP_ALIVE_TIMEOUT_MS: '65000' };
    expect(loadConfig(env).connectionLimits).toEqual({
      maxHeaderBytes: 8_192,
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
    });
  });

  it.each([
    [{ MAX_HEADER_BYTES: '512' }, /^MAX_HEADER_BYTES: must be a whole number from 1024/],
    [{ HEADERS_TIMEOUT_MS: '0' }, /^HEADERS_TIMEOUT_MS: must be a whole number/],
    [{ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '10000' }, /^HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS \(10000\)/],
  ])('refuses %o, naming the key', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
