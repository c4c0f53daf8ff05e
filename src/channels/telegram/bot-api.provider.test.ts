import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { type FakeApiAnswer, startFakeJsonApi } from '../../../test/fake-json-api.js';
import { TEST_PROVIDER_SECRETS } from '../../../test/logs.js';
import type { OutboundMessage } from '../../core/delivery/provider.js';
import { createTelegramBotProvider } from './bot-api.provider.js';

const TOKEN = TEST_PROVIDER_SECRETS.telegramBotToken;

/**
 * A small stand-in for the Bot API on loopback. Chat ids pick the answer: 403 → the bot was blocked,
 * 400 → chat not found, 429 → flood control with retry_after 7, -200 → upgraded to supergroup
 * -1000000000200, anything else → accepted. The answers' shapes are the Bot API's (core.telegram.org/bots/api,
 * "Making requests": ok, error_code, description, parameters: ResponseParameters).
 */
function startFakeBotApi() {
  let nextId = 100;
  return startFakeJsonApi(({ path, body }): FakeApiAnswer => {
    const error = (status: number, description: string, extra: Record<string, unknown> = {}) => ({
      status,
      json: { ok: false, error_code: status, description, ...extra },
    });
    if (!path.startsWith(`/bot${TOKEN}/`)) return error(401, 'Unauthorized');
    switch (String(body.chat_id)) {
      case '403':
        return error(403, 'Forbidden: bot was blocked by the user');
      case '400':
        return error(400, 'Bad Request: chat not found');
      case '429':
        return error(429, 'Too Many Requests: retry after 7', { parameters: { retry_after: 7 } });
      case '500':
        return error(502, 'Bad Gateway');
      // A group upgraded to a supergroup: Bot API answers 400 with ResponseParameters.migrate_to_chat_id.
      case '-200':
        return error(400, 'Bad Request: group chat was upgraded to a supergroup chat', {
          parameters: { migrate_to_chat_id: -1000000000200 },
        });
      default:
        nextId++;
        return { status: 200, json: { ok: true, result: { message_id: nextId, chat: { id: body.chat_id } } } };
    }
  });
}

const outbound = (to: string, payload: Record<string, unknown>, body: string | null = 'Hello *there*'): OutboundMessage => ({
  id: `msg_telegram_${'0'.repeat(26)}`,
  accountId: 'acc_x',
  channel: 'telegram',
  to,
  sender: null,
  body,
  payload,
  segments: null,
  attempt: 1,
});

describe('Telegram Bot API provider against a fake Bot API on loopback', () => {
  let api: Awaited<ReturnType<typeof startFakeBotApi>>;
  const signal = new AbortController().signal;
  /** The last request, as path and body: compared whole, so any extra field shows. */
  const lastCall = () => ({ path: api.calls.at(-1)?.path, body: api.calls.at(-1)?.body });
  beforeAll(async () => {
    api = await startFakeBotApi();
  });
  afterAll(() => api.close());

  it('calls sendMessage with the text, parse_mode, disable_notification and keyboard; acceptance is delivery', async () => {
    const provider = createTelegramBotProvider({ token: TOKEN, apiBaseUrl: api.url });
    const keyboard = {
      inline_keyboard: [
        [
          { text: 'Yes', callback_data: 'y' },
          { text: 'Docs', url: 'https://example.com' },
        ],
      ],
    };
    const outcome = await provider.send(
      outbound('-1001234567890', { method: 'sendMessage', parse_mode: 'MarkdownV2', disable_notification: true, reply_markup: keyboard }),
      signal,
    );
    expect(outcome).toEqual({ ok: true, providerMessageId: expect.stringMatching(/^-1001234567890:\d+$/), delivered: true });
    expect(lastCall()).toEqual({
      path: `/bot${TOKEN}/sendMessage`,
      body: {
        chat_id: '-1001234567890',
        text: 'Hello *there*',
        parse_mode: 'MarkdownV2',
        disable_notification: true,
        reply_markup: keyboard,
      },
    });
  });

  it('calls sendPhoto with the photo URL and the caption', async () => {
    const provider = createTelegramBotProvider({ token: TOKEN, apiBaseUrl: api.url });
    await provider.send(outbound('@herald_news', { method: 'sendPhoto', photo_url: 'https://example.com/p.jpg' }, 'A caption'), signal);
    expect(lastCall()).toEqual({
      path: `/bot${TOKEN}/sendPhoto`,
      body: { chat_id: '@herald_news', photo: 'https://example.com/p.jpg', caption: 'A caption' },
    });
  });

  it.each([
    ['403', { ok: false, retryable: false, code: 'TELEGRAM_BLOCKED', message: 'Forbidden: bot was blocked by the user' }],
    ['400', { ok: false, retryable: false, code: 'TELEGRAM_BAD_REQUEST', message: 'Bad Request: chat not found' }],
    ['429', { ok: false, retryable: true, code: 'TELEGRAM_RATE_LIMITED', retryAfterMs: 7_000 }],
    ['500', { ok: false, retryable: true, code: 'TELEGRAM_502' }],
  ])('maps chat %s to its outcome', async (chat, expected) => {
    const provider = createTelegramBotProvider({ token: TOKEN, apiBaseUrl: api.url });
    expect(await provider.send(outbound(chat, { method: 'sendMessage' }), signal)).toMatchObject(expected);
  });

  it('treats a refused token as retryable, for an operator to fix, and never puts it in the outcome', async () => {
    const provider = createTelegramBotProvider({ token: '999999999:BBHwrongWRONGwrong_wrong-wrongWRONG1', apiBaseUrl: api.url });
    const outcome = await provider.send(outbound('42', { method: 'sendMessage' }), signal);
    expect(outcome).toMatchObject({ ok: false, retryable: true, code: 'TELEGRAM_UNAUTHORIZED' });
    expect(JSON.stringify(outcome)).not.toContain('999999999');
  });

  it('holds the whole chat for a 429’s retry_after: the next message to it is put back without calling Telegram', async () => {
    const provider = createTelegramBotProvider({ token: TOKEN, apiBaseUrl: api.url });
    const first = await provider.send(outbound('429', { method: 'sendMessage' }), signal);
    expect(first).toMatchObject({ ok: false, retryable: true, code: 'TELEGRAM_RATE_LIMITED', retryAfterMs: 7_000 });
    const calls = api.calls.length;
    const second = await provider.send(outbound('429', { method: 'sendMessage' }), signal);
    expect(second).toMatchObject({ ok: false, retryable: true, code: 'CHAT_PACING' });
    expect((second as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(6_000);
    expect(api.calls.length).toBe(calls);
    // Other chats are not held.
    expect(await provider.send(outbound('4242', { method: 'sendMessage' }), signal)).toMatchObject({ ok: true });
  });

  it('sends a message for an upgraded group to its new supergroup id at once, and later ones straight there', async () => {
    const provider = createTelegramBotProvider({ token: TOKEN, apiBaseUrl: api.url });
    const outcome = await provider.send(outbound('-200', { method: 'sendMessage' }), signal);
    expect(outcome).toMatchObject({ ok: true, delivered: true });
    expect((outcome as { providerMessageId: string }).providerMessageId).toMatch(/^-1000000000200:\d+$/);
    expect(api.calls.slice(-2).map((c) => c.body.chat_id)).toEqual(['-200', '-1000000000200']);
    const calls = api.calls.length;
    // A group gets one message in 3 s (20 a minute): the second waits its turn, then goes to the new id directly.
    const started = Date.now();
    expect(await provider.send(outbound('-200', { method: 'sendMessage' }), signal)).toMatchObject({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(api.calls.slice(calls).map((c) => c.body.chat_id)).toEqual(['-1000000000200']);
  });

  it('paces one chat at one message a second, and puts back one that would wait too long', async () => {
    const provider = createTelegramBotProvider({ token: TOKEN, apiBaseUrl: api.url });
    const started = Date.now();
    await provider.send(outbound('77', { method: 'sendMessage' }), signal);
    await provider.send(outbound('77', { method: 'sendMessage' }), signal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    // Eight more queued for the same chat would need about 8 s, over the 5 s a send may wait: the
    // last ones are put back (with seconds to spare, however late the timers fire).
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => provider.send(outbound('77', { method: 'sendMessage' }), signal)));
    expect(outcomes.some((o) => !o.ok && o.code === 'CHAT_PACING')).toBe(true);
  });
});

describeEachDialect('Telegram through the Bot API, end to end', (dialect) => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof startFakeBotApi>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    api = await startFakeBotApi();
    t.providers.telegram = createTelegramBotProvider({ token: TOKEN, apiBaseUrl: api.url });
  });
  afterAll(async () => {
    await api.close();
    await t.close();
  });

  it('delivers an accepted message, and fails a blocked chat for good with its credits released', async () => {
    const account = await t.createAccount({ credits: 1 });
    const token = await t.tokenFor(account);
    const ok = await t.call('POST', '/v1/telegram/send', token, { chat_id: '12345', message: 'hi' });
    const blocked = await t.call('POST', '/v1/telegram/send', token, { chat_id: '403', message: 'hi' });
    await t.drain();
    const get = async (id: string) => (await t.call('GET', `/v1/messages/${id}`, token)).json().data;
    const delivered = await get(ok.json().data.message_id);
    expect(delivered.status).toBe('delivered');
    expect(delivered.status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'sent', 'delivered']);
    const failed = await get(blocked.json().data.message_id);
    expect(failed.error).toEqual({ code: 'TELEGRAM_BLOCKED', message: 'Forbidden: bot was blocked by the user' });
    expect(failed.credits_used).toBe(0);
    expect((await t.call('GET', '/v1/account/balance', token)).json().data).toEqual({ credits: 0.95, reserved: 0, available: 0.95 });
  });
});
