import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration from the environment', () => {
  it('runs with no settings at all: SQLite under ./data on 127.0.0.1:3000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/herald.db',
      databaseSchema: undefined,
      logLevel: 'info',
      publicUrl: 'http://127.0.0.1:3000',
      bodyLimitBytes: 1_048_576,
      demoAccount: true,
      sandboxDelayMs: 1_000,
    });
    expect(config.prices.smsSegment).toBe(1_000_000);
    expect(config.webhooks.allowPrivateNetworks).toBe(false);
  });

  it('chooses SMTP for email when told to, and never repeats the SMTP password in an error', () => {
    expect(loadConfig({ EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtps://u:p@mail.example.com:465' }).emailProvider).toEqual({
      kind: 'smtp',
      smtp: { url: 'smtps://u:p@mail.example.com:465', poolSize: 5 },
    });
    expect(() => loadConfig({ EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtp://u:hunter2@[bad' })).toThrow(/^SMTP_URL: is not a valid URL$/);
  });

  it('reads prices as credits with up to 6 decimals', () => {
    expect(loadConfig({ PRICE_SMS_SEGMENT: '0.075' }).prices.smsSegment).toBe(75_000);
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
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://herald.example.com' }],
    ['DEMO_ACCOUNT', { DEMO_ACCOUNT: 'maybe' }],
    ['PRICE_EMAIL', { PRICE_EMAIL: '-1' }],
    ['PRICE_EMAIL', { PRICE_EMAIL: '0.0000001' }],
    ['SEND_TIMEOUT_MS', { SEND_TIMEOUT_MS: '60000', WORKER_LEASE_MS: '30000' }],
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
