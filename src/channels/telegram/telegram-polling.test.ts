import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { type FakeBotApi, myChatMember, privateMessage, startFakeBotApi } from '../../../test/fake-bot-api.js';
import { TEST_PROVIDER_SECRETS } from '../../../test/logs.js';
import { until } from '../../../test/wait.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import type { HealthLogger } from '../../core/delivery/provider-health.js';
import { assignAddress } from '../../core/inbound/addresses.js';
import type { ReceivedMessage } from '../../core/inbound/inbound-message.js';
import type { SettingsReader } from '../channel-module.js';
import { createBotApiClient } from './bot-api.client.js';
import { telegramSettings } from './telegram.module.js';
import { createUpdatePoller, type UpdatePoller } from './telegram-polling.js';
import { setWebhook } from './telegram-receiving.js';

const TOKEN = TEST_PROVIDER_SECRETS.telegramBotToken;
const SECRET = TEST_PROVIDER_SECRETS.telegramWebhookSecret;

/** A logger that keeps what it is told, to check what an operator would read. */
function capturingLogger() {
  const lines: Array<{ level: 'info' | 'warn'; fields: object; message: string }> = [];
  const logger: HealthLogger = {
    info: (fields, message) => lines.push({ level: 'info', fields, message }),
    warn: (fields, message) => lines.push({ level: 'warn', fields, message }),
  };
  return { logger, lines, text: () => JSON.stringify(lines) };
}

/**
 * Long polling through a stand-in that keeps Telegram's rules (Bot API getUpdates): an update is
 * confirmed, and forgotten, only when a later getUpdates names an offset above its update_id; the
 * webhook must be deleted first (409 otherwise); a second poller ends the first's poll with 409.
 */
describeEachDialect('Telegram updates by long polling', (dialect) => {
  let api: FakeBotApi;
  let t: TestApp;
  let account: CreatedAccount;
  let token: string;
  const pollers: UpdatePoller[] = [];
  beforeAll(async () => {
    api = await startFakeBotApi();
    t = await createTestApp(dialect, {
      env: {
        TELEGRAM_PROVIDER: 'bot-api',
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_API_BASE_URL: api.url,
        TELEGRAM_UPDATES: 'polling',
        TELEGRAM_POLL_TIMEOUT_SECONDS: '1',
      },
    });
    account = await t.createAccount();
    token = await t.tokenFor(account);
    await assignAddress(t.store, { accountId: account.account.id, channel: 'telegram', address: '@herald_test_bot', at: t.clock.now() });
  });
  afterAll(async () => {
    await Promise.all(pollers.map((poller) => poller.stop()));
    await t.providers.telegram.close?.();
    await t.close();
    await api.close();
  });

  const texts = async (): Promise<string[]> =>
    ((await t.call('GET', '/v1/messages?direction=inbound&limit=100', token)).json().data.messages as Array<{ text: string }>).map(
      (m) => m.text,
    );
  const stored = (count: number, what: string) => until(async () => (await texts()).length >= count, what);
  const getUpdatesOffsets = () => api.calls.filter((call) => call.method === 'getUpdates').map((call) => call.body.offset);

  /** A poller on the stand-in, handing messages to `receive` (the app's by default). */
  function poller(receive: (received: ReceivedMessage) => ReturnType<TestApp['receive']> = t.receive, logger = capturingLogger().logger) {
    const created = createUpdatePoller(
      createBotApiClient({ token: TOKEN, apiBaseUrl: api.url }),
      { store: t.store, clock: t.clock, receive, logger },
      { timeoutSeconds: 1, backoffMs: 10, maxBackoffMs: 50 },
    );
    pollers.push(created);
    return created;
  }

  it('the provider started deletes the webhook, then stores each message and confirms it by the next offset', async () => {
    api.setWebhookElsewhere('https://old.example/hook');
    const first = api.push({ message: privateMessage(1001, 'first') });
    const second = api.push({ message: privateMessage(1002, 'second') });
    t.providers.telegram.start?.();
    try {
      await stored(2, 'two messages stored');
      expect((await texts()).sort()).toEqual(['first', 'second']);
      const methods = api.calls.map((call) => call.method);
      expect(methods.indexOf('deleteWebhook')).toBeLessThan(methods.indexOf('getUpdates'));
      expect(api.webhook()).toBeUndefined();
      await until(async () => api.pending().length === 0, 'the updates confirmed');
      // Both came in one answer: the next poll names the offset past the second, and no other.
      expect(getUpdatesOffsets().slice(0, 2)).toEqual([undefined, second + 1]);
      expect(first).toBe(second - 1);
      const asked = api.calls.find((call) => call.method === 'getUpdates')?.body;
      expect(asked).toMatchObject({ timeout: 1, allowed_updates: ['message', 'my_chat_member'] });
    } finally {
      await t.providers.telegram.close?.();
    }
  });

  it('moves the offset past an update only once it is stored: a failed store polls it again, and it is stored once', async () => {
    const before = (await texts()).length;
    let failed = false;
    const flaky = poller(async (received) => {
      if (received.text === 'flaky' && !failed) {
        failed = true;
        throw new Error('database unavailable');
      }
      return t.receive(received);
    });
    const id = api.push({ message: privateMessage(2001, 'flaky') });
    const callsBefore = api.calls.length;
    flaky.start();
    await stored(before + 1, 'the flaky message stored after a retry');
    const offsets = () =>
      api.calls
        .slice(callsBefore)
        .filter((call) => call.method === 'getUpdates')
        .map((call) => call.body.offset);
    await until(async () => offsets().includes(id + 1), 'a poll past the stored update');
    await flaky.stop();
    // Polled from the start (no offset) until the update was stored, and past it only then.
    expect(offsets().slice(0, 2)).toEqual([undefined, undefined]);
    expect(offsets().indexOf(id + 1)).toBe(2);
    expect(failed).toBe(true);
    expect((await texts()).filter((text) => text === 'flaky')).toEqual(['flaky']);
  });

  it('a restart after a crash resumes without loss or duplicates: unconfirmed updates come again and add nothing', async () => {
    const before = (await texts()).length;
    let crashed: UpdatePoller | undefined;
    // Stops right after storing its second update, before any getUpdates confirms it: as a crash would.
    const a = poller(async (received) => {
      const reception = await t.receive(received);
      if (received.text === 'r2') void crashed?.stop();
      return reception;
    });
    crashed = a;
    const r1 = api.push({ message: privateMessage(3001, 'r1') });
    const r2 = api.push({ message: privateMessage(3002, 'r2') });
    a.start();
    await stored(before + 2, 'r1 and r2 stored');
    await a.stop();
    expect(api.pending()).toEqual(expect.arrayContaining([r1, r2]));
    api.push({ message: privateMessage(3003, 'r3') });

    const b = poller();
    b.start();
    await stored(before + 3, 'r3 stored after the restart');
    await until(async () => api.pending().length === 0, 'everything confirmed');
    await b.stop();
    const all = await texts();
    expect(all.length).toBe(before + 3);
    expect(all.filter((text) => /^r\d$/.test(text)).sort()).toEqual(['r1', 'r2', 'r3']);
  });

  it('suppresses a chat whose user blocked the bot, heard by polling', async () => {
    const p = poller();
    api.push(myChatMember(4001, 'kicked'));
    p.start();
    await until(
      async () =>
        api.pending().length === 0 &&
        JSON.stringify((await t.call('GET', '/v1/suppressions?channel=telegram', token)).json()).includes('4001'),
      'the chat suppressed',
    );
    await p.stop();
    const send = await t.call('POST', '/v1/telegram/send', token, { chat_id: '4001', message: 'hello' });
    expect(send.json().error?.code).toBe('RECIPIENT_SUPPRESSED');
  });

  it('logs a 409 Conflict (another process polls the bot) as such, without the token, and goes on', async () => {
    const log = capturingLogger();
    const one = poller(t.receive, log.logger);
    const two = poller(t.receive, capturingLogger().logger);
    one.start();
    two.start();
    await until(async () => log.lines.some((line) => line.level === 'warn' && /conflict/i.test(line.message)), 'a conflict logged', 10_000);
    await Promise.all([one.stop(), two.stop()]);
    expect(log.text()).toMatch(/only one Herald process may poll a bot/);
    expect(log.text()).not.toContain(TOKEN);
  });
});

describe('Telegram setWebhook at start', () => {
  let api: FakeBotApi;
  beforeAll(async () => {
    api = await startFakeBotApi();
  });
  afterAll(() => api.close());

  it('sets PUBLIC_URL/webhooks/telegram with the secret and the update kinds Herald reads', async () => {
    const client = createBotApiClient({ token: TOKEN, apiBaseUrl: api.url });
    const log = capturingLogger();
    expect(await setWebhook(client, { url: 'https://herald.example.com', secret: SECRET }, log)).toBe(true);
    expect(api.webhook()).toEqual({
      url: 'https://herald.example.com/webhooks/telegram',
      secret_token: SECRET,
      allowed_updates: ['message', 'my_chat_member'],
    });
  });

  it('logs a refusal without the token or the secret', async () => {
    const client = createBotApiClient({ token: TOKEN, apiBaseUrl: api.url });
    const log = capturingLogger();
    expect(await setWebhook(client, { url: 'http://herald.example.com', secret: SECRET }, log)).toBe(false);
    expect(log.lines).toEqual([expect.objectContaining({ level: 'warn' })]);
    expect(log.text()).toContain('An HTTPS URL must be provided');
    expect(log.text()).not.toContain(TOKEN);
    expect(log.text()).not.toContain(SECRET);
  });

  it('logs an unreachable Bot API without the token', async () => {
    const client = createBotApiClient({ token: TOKEN, apiBaseUrl: 'http://127.0.0.1:9' });
    const log = capturingLogger();
    expect(await setWebhook(client, { url: 'https://herald.example.com', secret: SECRET }, log)).toBe(false);
    expect(log.text()).not.toContain(TOKEN);
  });
});

describe('TELEGRAM_UPDATES settings', () => {
  /** A reader over `env`, failing as main/config.ts does (naming the variable). */
  const reader = (env: Record<string, string>): SettingsReader => ({
    text: (key) => env[key] || undefined,
    required: (key, why) => env[key] || reader(env).fail(key, `is required ${why}`),
    integer: (key, fallback) => (env[key] ? Number(env[key]) : fallback),
    boolean: (_key, fallback) => fallback,
    url: (key, fallback) => (env[key] || fallback).replace(/\/+$/, ''),
    pemFile: () => '',
    fail: (key, problem) => {
      throw new Error(`${key} ${problem}`);
    },
  });
  const bot = { TELEGRAM_PROVIDER: 'bot-api', TELEGRAM_BOT_TOKEN: TOKEN };

  it('is off by default, and needs the Bot API', () => {
    expect(telegramSettings(reader(bot))).toMatchObject({ updates: { mode: 'off' } });
    expect(() => telegramSettings(reader({ TELEGRAM_UPDATES: 'polling' }))).toThrow(/TELEGRAM_UPDATES needs TELEGRAM_PROVIDER=bot-api/);
    expect(() => telegramSettings(reader(Object.assign({ TELEGRAM_UPDATES: 'push' }, bot)))).toThrow(/must be off, webhook or polling/);
  });

  it('webhook needs a secret Telegram accepts (1-256 of A-Z a-z 0-9 _ -) and PUBLIC_URL', () => {
    const webhook = Object.assign({ TELEGRAM_UPDATES: 'webhook' }, bot);
    expect(() => telegramSettings(reader(webhook))).toThrow(/TELEGRAM_WEBHOOK_SECRET is required/);
    for (const secret of ['has space', 'a'.repeat(257), 'dot.ted', 'é']) {
      expect(() => telegramSettings(reader(Object.assign({ TELEGRAM_WEBHOOK_SECRET: secret }, webhook))), secret).toThrow(
        /TELEGRAM_WEBHOOK_SECRET must be/,
      );
    }
    expect(() => telegramSettings(reader(Object.assign({ TELEGRAM_WEBHOOK_SECRET: SECRET }, webhook)))).toThrow(/PUBLIC_URL is required/);
    expect(
      telegramSettings(reader(Object.assign({ TELEGRAM_WEBHOOK_SECRET: 'a'.repeat(256), PUBLIC_URL: 'https://h.example/' }, webhook))),
    ).toMatchObject({ updates: { mode: 'webhook', url: 'https://h.example' } });
  });
});
