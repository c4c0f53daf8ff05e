import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { DEFAULT_PRICES } from '../../../test/channels.js';
import { describeEachDialect } from '../../../test/databases.js';
import { accountSnapshot, expectError, expectFieldProblems, expectNothingWritten } from '../../../test/expectations.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { toIso } from '../../core/clock.js';
import { sendTelegramMessage } from './send-telegram.js';

const CHAT = '123456789';
const PHOTO = 'https://images.example.com/cat.jpg';
const MESSAGE_ID = /^msg_telegram_[0-9a-z]{26}$/;

const button = (text: string, extra: Record<string, unknown>) => ({ text, ...extra });
const keyboard = (...rows: Array<Array<Record<string, unknown>>>) => ({ inline_keyboard: rows });

describeEachDialect('Telegram endpoints', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** Runs a use case that must throw, checking that it wrote nothing of the account's. */
  async function expectNothingWrittenBy(account: CreatedAccount, work: () => Promise<unknown>): Promise<unknown> {
    const before = await accountSnapshot(t, account);
    try {
      return await work();
    } finally {
      expect(await accountSnapshot(t, account)).toEqual(before);
    }
  }

  describe('accepted', () => {
    let account: CreatedAccount;
    let token: string;
    beforeAll(async () => {
      account = await t.createAccount({ credits: 10 });
      token = await t.tokenFor(account);
    });
    const send = async (path: string, body: Record<string, unknown>) => {
      const response = await t.call('POST', path, token, body);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data;
    };
    const detail = async (id: string) => (await t.call('GET', `/v1/telegram/${id}`, token)).json().data;

    it('queues a text message for 0.05 credits, with the chat_id as `to`', async () => {
      const response = await t.call('POST', '/v1/telegram/send', token, { chat_id: CHAT, message: '*Hello*', parse_mode: 'Markdown' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        success: true,
        data: {
          message_id: expect.stringMatching(MESSAGE_ID),
          to: CHAT,
          status: 'queued',
          credits_used: 0.05,
          created_at: toIso(t.clock.now()),
        },
      });
    });

    it('keeps every option for the provider and shows them when read back', async () => {
      const markup = keyboard(
        [button('Yes', { callback_data: 'answer:yes' }), button('No', { callback_data: 'answer:no' })],
        [button('Docs', { url: 'https://example.com/docs' }), button('Chat', { url: 'tg://resolve?domain=herald' })],
      );
      const sent = await send('/v1/telegram/send', {
        chat_id: '-1001234567890',
        message: '<b>Pick one</b>',
        parse_mode: 'HTML',
        disable_notification: true,
        reply_markup: markup,
      });
      expect(await detail(sent.message_id)).toEqual({
        message_id: sent.message_id,
        channel: 'telegram',
        to: '-1001234567890',
        type: 'message',
        message: '<b>Pick one</b>',
        photo_url: null,
        parse_mode: 'HTML',
        disable_notification: true,
        reply_markup: markup,
        status: 'queued',
        credits_used: 0.05,
        created_at: sent.created_at,
        sent_at: null,
        delivered_at: null,
        error: null,
      });
      expect(JSON.parse((await t.store.messages.payload(sent.message_id)) ?? '')).toEqual({
        method: 'sendMessage',
        parse_mode: 'HTML',
        disable_notification: true,
        reply_markup: markup,
      });
    });

    it('accepts numeric chat ids, negative group ids and @channel names', async () => {
      for (const chat_id of ['1', '987654321', '-42', '-1001234567890', '@herald_news', '@abcde']) {
        expect((await send('/v1/telegram/send', { chat_id, message: 'hi' })).to).toBe(chat_id);
      }
    });

    it('accepts each parse mode, and none', async () => {
      for (const parse_mode of ['Markdown', 'MarkdownV2', 'HTML'])
        await send('/v1/telegram/send', { chat_id: CHAT, message: 'x', parse_mode });
      expect((await detail((await send('/v1/telegram/send', { chat_id: CHAT, message: 'plain' })).message_id)).parse_mode).toBeNull();
    });

    // Bot API sendMessage: "1-4096 characters after entities parsing" (core.telegram.org/bots/api#sendmessage).
    it('accepts a MarkdownV2 text of 4096 visible characters with its markup, and an HTML caption of 1024', async () => {
      const visible4096 = `*${'a'.repeat(2000)}* _${'b'.repeat(1000)}_ ${'c\\.'.repeat(546)}[${'d'.repeat(2)}](https://example.com/a\\)b)`;
      expect(visible4096.length).toBeGreaterThan(4096);
      await send('/v1/telegram/send', { chat_id: CHAT, message: visible4096, parse_mode: 'MarkdownV2' });
      const html1024 = `<b>${'&amp;'.repeat(1000)}</b><a href="https://example.com/">${'x'.repeat(24)}</a>`;
      await send('/v1/telegram/photo', { chat_id: CHAT, photo_url: PHOTO, caption: html1024, parse_mode: 'HTML' });
    });

    it('accepts a message of 4096 characters', async () => {
      await send('/v1/telegram/send', { chat_id: CHAT, message: 'a'.repeat(4096) });
    });

    it('accepts callback_data of exactly 64 bytes, multi-byte characters included', async () => {
      const data = 'é'.repeat(32); // 32 characters, 64 bytes
      await send('/v1/telegram/send', { chat_id: CHAT, message: 'x', reply_markup: keyboard([button('ok', { callback_data: data })]) });
      await send('/v1/telegram/send', {
        chat_id: CHAT,
        message: 'x',
        reply_markup: keyboard([button('ok', { callback_data: '😀'.repeat(16) })]),
      });
    });

    it('accepts 100 buttons: rows of 8, and a column of single buttons', async () => {
      const row = (n: number) => Array.from({ length: n }, (_, i) => button(`b${i}`, { callback_data: `${i}` }));
      const rows = [...Array.from({ length: 12 }, () => row(8)), row(4)];
      await send('/v1/telegram/send', { chat_id: CHAT, message: 'x', reply_markup: keyboard(...rows) });
      const column = Array.from({ length: 100 }, () => row(1));
      await send('/v1/telegram/send', { chat_id: CHAT, message: 'x', reply_markup: keyboard(...column) });
    });

    it('queues a photo for 0.1 credits, its caption as the text', async () => {
      const sent = await send('/v1/telegram/photo', { chat_id: CHAT, photo_url: PHOTO, caption: 'A *cat*', parse_mode: 'MarkdownV2' });
      expect(sent).toMatchObject({ to: CHAT, status: 'queued', credits_used: 0.1 });
      expect(sent.message_id).toMatch(MESSAGE_ID);
      expect(await detail(sent.message_id)).toMatchObject({
        type: 'photo',
        message: 'A *cat*',
        photo_url: PHOTO,
        parse_mode: 'MarkdownV2',
        disable_notification: false,
        reply_markup: null,
      });
    });

    it('sends a photo without a caption, with a caption of 1024 characters, and with a keyboard', async () => {
      expect(
        (await detail((await send('/v1/telegram/photo', { chat_id: CHAT, photo_url: 'http://images.example.com/a.png' })).message_id))
          .message,
      ).toBeNull();
      await send('/v1/telegram/photo', { chat_id: CHAT, photo_url: PHOTO, caption: 'c'.repeat(1024) });
      await send('/v1/telegram/photo', {
        chat_id: CHAT,
        photo_url: PHOTO,
        reply_markup: keyboard([button('Buy', { url: 'https://shop.example.com' })]),
      });
    });
  });

  describe('through the sandbox', () => {
    it('delivers a message and a photo; chat 403 fails with TELEGRAM_BLOCKED and its credits are released', async () => {
      const account = await t.createAccount({ credits: 1 });
      const token = await t.tokenFor(account);
      const ok = (await t.call('POST', '/v1/telegram/send', token, { chat_id: CHAT, message: 'hi' })).json().data.message_id;
      const photo = (await t.call('POST', '/v1/telegram/photo', token, { chat_id: '@herald_news', photo_url: PHOTO })).json().data
        .message_id;
      const blocked = (await t.call('POST', '/v1/telegram/send', token, { chat_id: '403', message: 'hi' })).json().data.message_id;
      expect((await t.call('GET', '/v1/account/balance', token)).json().data).toEqual({ credits: 1, reserved: 0.2, available: 0.8 });
      await t.drain();
      const status = async (id: string) => (await t.call('GET', `/v1/messages/${id}`, token)).json().data;
      expect(await status(ok)).toMatchObject({ channel: 'telegram', to: CHAT, status: 'delivered', credits_used: 0.05 });
      expect((await status(ok)).status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'sent', 'delivered']);
      expect(await status(photo)).toMatchObject({ to: '@herald_news', status: 'delivered', credits_used: 0.1 });
      const failed = await status(blocked);
      expect(failed).toMatchObject({
        to: '403',
        status: 'failed',
        credits_used: 0,
        error: { code: 'TELEGRAM_BLOCKED', message: expect.any(String) },
      });
      expect(failed.status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'failed']);
      expect((await t.call('GET', '/v1/account/balance', token)).json().data).toEqual({ credits: 0.85, reserved: 0, available: 0.85 });
    });
  });

  describe('field rules', () => {
    let account: CreatedAccount;
    let token: string;
    beforeAll(async () => {
      account = await t.createAccount({ credits: 10 });
      token = await t.tokenFor(account);
    });
    const refused = (path: string, body: unknown) => expectNothingWritten(t, account, () => t.call('POST', path, token, body));
    const message = (extra: Record<string, unknown>) => refused('/v1/telegram/send', { chat_id: CHAT, message: 'hi', ...extra });
    const withButtons = (...buttons: Array<Record<string, unknown>>) => message({ reply_markup: keyboard(buttons) });

    it('requires chat_id and message', async () => {
      expect(expectFieldProblems(await refused('/v1/telegram/send', {}), ['chat_id', 'message'])).toEqual([
        { field: 'chat_id', message: 'is required' },
        { field: 'message', message: 'is required' },
      ]);
    });

    it('refuses a message of 4097 characters, and an empty one', async () => {
      expect(expectFieldProblems(await message({ message: 'a'.repeat(4097) }), ['message'])).toEqual([
        { field: 'message', message: 'must be at most 4096 characters, as Telegram counts them (UTF-16 code units); it has 4097' },
      ]);
      expectFieldProblems(await message({ message: '' }), ['message']);
    });

    // Bot API sendMessage: "text: 1-4096 characters after entities parsing"; sendPhoto: "caption:
    // 0-1024 characters after entities parsing" (core.telegram.org/bots/api#sendmessage, #sendphoto).
    it('counts the text after its markup is parsed: a MarkdownV2 text of 4097 visible characters is refused', async () => {
      const visible4097 = `*${'a'.repeat(2000)}* _${'b'.repeat(1000)}_ ${'c\\.'.repeat(547)}e`;
      expect(expectFieldProblems(await message({ message: visible4097, parse_mode: 'MarkdownV2' }), ['message'])).toEqual([
        {
          field: 'message',
          message:
            'must be at most 4096 characters after its MarkdownV2 markup is parsed, as Telegram counts them (UTF-16 code units); it has 4097',
        },
      ]);
    });

    it('counts an emoji outside the BMP as 2, as Telegram does: 2049 of them are refused', async () => {
      expectFieldProblems(await message({ message: '😀'.repeat(2049) }), ['message']);
    });

    it('refuses a text that is empty once its markup is parsed', async () => {
      expect(expectFieldProblems(await message({ message: '<b></b>', parse_mode: 'HTML' }), ['message'])).toEqual([
        { field: 'message', message: 'must have at least 1 character after its HTML markup is parsed' },
      ]);
    });

    it('refuses chat ids that are neither a number nor a @channelname', async () => {
      for (const chat_id of [
        '',
        'abc',
        '12a',
        '0',
        '-0',
        '01',
        '+123',
        '1.5',
        '@abc',
        'herald_news',
        '@1abcde',
        '@with space',
        '12345678901234567',
      ]) {
        expect(expectFieldProblems(await message({ chat_id }), ['chat_id'])[0]?.message, chat_id).toMatch(
          /numeric chat id|must not be empty/,
        );
      }
      expectFieldProblems(await message({ chat_id: 123456789 }), ['chat_id']); // a JSON number is not the string form
    });

    it('refuses an unknown parse_mode, naming the known ones', async () => {
      for (const parse_mode of ['markdown', 'html', 'Plain', '']) {
        expect(expectFieldProblems(await message({ parse_mode }), ['parse_mode'])).toEqual([
          { field: 'parse_mode', message: 'must be one of: Markdown, MarkdownV2, HTML' },
        ]);
      }
    });

    it('refuses a disable_notification that is not a boolean', async () => {
      expectFieldProblems(await message({ disable_notification: 'yes' }), ['disable_notification']);
    });

    it('refuses a button with both callback_data and url, or with neither', async () => {
      const both = expectFieldProblems(await withButtons(button('x', { callback_data: 'a', url: 'https://example.com' })), [
        'reply_markup.inline_keyboard.0.0',
      ]);
      expect(both).toEqual([
        { field: 'reply_markup.inline_keyboard.0.0', message: 'must have text and exactly one of callback_data or url' },
      ]);
      expectFieldProblems(await withButtons({ text: 'x' }), ['reply_markup.inline_keyboard.0.0']);
    });

    it('refuses callback_data of 65 bytes, of 33 two-byte characters, and empty', async () => {
      const problem = [{ field: 'reply_markup.inline_keyboard.0.0.callback_data', message: 'must be 1 to 64 bytes in UTF-8' }];
      expect(
        expectFieldProblems(await withButtons(button('x', { callback_data: 'a'.repeat(65) })), [
          'reply_markup.inline_keyboard.0.0.callback_data',
        ]),
      ).toEqual(problem);
      expect(
        expectFieldProblems(await withButtons(button('x', { callback_data: 'é'.repeat(33) })), [
          'reply_markup.inline_keyboard.0.0.callback_data',
        ]),
      ).toEqual(problem);
      expectFieldProblems(await withButtons(button('x', { callback_data: '' })), ['reply_markup.inline_keyboard.0.0.callback_data']);
    });

    it('refuses a button url that is not http, https or tg, and a button without text', async () => {
      for (const url of ['ftp://example.com/x', 'javascript:alert(1)', 'example.com', 'https://']) {
        expectFieldProblems(await withButtons(button('x', { url })), ['reply_markup.inline_keyboard.0.0.url']);
      }
      expectFieldProblems(await withButtons({ callback_data: 'a', url: 'https://example.com' }), ['reply_markup.inline_keyboard.0.0.text']);
      expectFieldProblems(await withButtons(button('', { callback_data: 'a' })), ['reply_markup.inline_keyboard.0.0.text']);
    });

    it('refuses keyboards beyond the limits: 9 in a row, 101 buttons, empty rows, unknown button fields', async () => {
      const row = (n: number) => Array.from({ length: n }, (_, i) => button(`b${i}`, { callback_data: `${i}` }));
      expectFieldProblems(await message({ reply_markup: keyboard(row(9)) }), ['reply_markup.inline_keyboard.0']);
      const tooMany = expectFieldProblems(await message({ reply_markup: keyboard(...Array.from({ length: 101 }, () => row(1))) }), [
        'reply_markup.inline_keyboard',
      ]);
      expect(tooMany[0]?.message).toMatch(/\S/);
      const overHundred = expectFieldProblems(await message({ reply_markup: keyboard(...Array.from({ length: 13 }, () => row(8))) }), [
        'reply_markup.inline_keyboard',
      ]);
      expect(overHundred).toEqual([{ field: 'reply_markup.inline_keyboard', message: 'must have at most 100 buttons in all' }]);
      expectFieldProblems(await message({ reply_markup: keyboard([]) }), ['reply_markup.inline_keyboard.0']);
      expectFieldProblems(await message({ reply_markup: { inline_keyboard: [] } }), ['reply_markup.inline_keyboard']);
      expectFieldProblems(await withButtons(button('x', { callback_data: 'a', pay: true })), [
        'reply_markup.inline_keyboard.0.0',
        'reply_markup.inline_keyboard.0.0.pay',
      ]);
      expectFieldProblems(await message({ reply_markup: { keyboard: [] } }), ['reply_markup.inline_keyboard', 'reply_markup.keyboard']);
    });

    it('lists every invalid field at once', async () => {
      expectFieldProblems(
        await refused('/v1/telegram/send', {
          chat_id: 'nobody',
          message: '',
          parse_mode: 'RTF',
          reply_markup: keyboard([button('x', { callback_data: 'a'.repeat(65) })]),
        }),
        ['chat_id', 'message', 'parse_mode', 'reply_markup.inline_keyboard.0.0.callback_data'],
      );
    });

    it('refuses a photo without photo_url, or with a URL that is not http(s)', async () => {
      expectFieldProblems(await refused('/v1/telegram/photo', { chat_id: CHAT }), ['photo_url']);
      for (const photo_url of [
        'ftp://images.example.com/cat.jpg',
        'file:///etc/passwd',
        '/cat.jpg',
        'data:image/png;base64,AAAA',
        'https://',
      ]) {
        expect(expectFieldProblems(await refused('/v1/telegram/photo', { chat_id: CHAT, photo_url }), ['photo_url'])).toEqual([
          { field: 'photo_url', message: 'must be an absolute http(s) URL' },
        ]);
      }
    });

    it('refuses a caption over 1024 characters, a bad chat id and a message field on a photo', async () => {
      expect(
        expectFieldProblems(await refused('/v1/telegram/photo', { chat_id: CHAT, photo_url: PHOTO, caption: 'c'.repeat(1025) }), [
          'caption',
        ]),
      ).toEqual([
        { field: 'caption', message: 'must be at most 1024 characters, as Telegram counts them (UTF-16 code units); it has 1025' },
      ]);
      const html1025 = `<b>${'&amp;'.repeat(1000)}</b>${'x'.repeat(25)}`;
      expectFieldProblems(await refused('/v1/telegram/photo', { chat_id: CHAT, photo_url: PHOTO, caption: html1025, parse_mode: 'HTML' }), [
        'caption',
      ]);
      expectFieldProblems(await refused('/v1/telegram/photo', { chat_id: 'x', photo_url: PHOTO }), ['chat_id']);
      expectFieldProblems(await refused('/v1/telegram/photo', { chat_id: CHAT, photo_url: PHOTO, message: 'hi' }), ['message']);
    });

    it('refuses with 402 when the balance does not cover the price, writing nothing', async () => {
      const poor = await t.createAccount({ credits: 0.06 });
      const poorToken = await t.tokenFor(poor);
      expect((await t.call('POST', '/v1/telegram/send', poorToken, { chat_id: CHAT, message: 'hi' })).statusCode).toBe(200);
      for (const [path, body] of [
        ['/v1/telegram/send', { chat_id: CHAT, message: 'hi' }],
        ['/v1/telegram/photo', { chat_id: CHAT, photo_url: PHOTO }],
      ] as const) {
        expectError(await expectNothingWritten(t, poor, () => t.call('POST', path, poorToken, body)), 402, 'INSUFFICIENT_CREDITS');
      }
    });
  });

  describe('scopes and reading back', () => {
    it('needs telegram:send for both endpoints, and writes nothing without it', async () => {
      const account = await t.createAccount();
      for (const scope of ['telegram:read', 'sms:send whatsapp:send email:send']) {
        const token = await t.tokenFor(account, scope);
        for (const [path, body] of [
          ['/v1/telegram/send', { chat_id: CHAT, message: 'hi' }],
          ['/v1/telegram/photo', { chat_id: CHAT, photo_url: PHOTO }],
        ] as const) {
          const response = await expectNothingWritten(t, account, () => t.call('POST', path, token, body));
          expectError(response, 403, 'INSUFFICIENT_SCOPE');
          expect(response.headers['www-authenticate']).toContain('scope="telegram:send"');
        }
      }
      const token = await t.tokenFor(account, 'telegram:send');
      expect((await t.call('POST', '/v1/telegram/send', token, { chat_id: CHAT, message: 'hi' })).statusCode).toBe(200);
      expect((await t.call('POST', '/v1/telegram/photo', token, { chat_id: CHAT, photo_url: PHOTO })).statusCode).toBe(200);
      expectError(await t.call('POST', '/v1/telegram/send', undefined, { chat_id: CHAT, message: 'hi' }), 401, 'UNAUTHORIZED');
    });

    it("reads a message back with telegram:read only, and never another account's or another channel's", async () => {
      const owner = await t.createAccount();
      const id = (
        await t.call('POST', '/v1/telegram/send', await t.tokenFor(owner, 'telegram:send'), { chat_id: CHAT, message: 'hi' })
      ).json().data.message_id;
      expectError(await t.call('GET', `/v1/telegram/${id}`, await t.tokenFor(owner, 'telegram:send')), 403, 'INSUFFICIENT_SCOPE');
      expect((await t.call('GET', `/v1/telegram/${id}`, await t.tokenFor(owner, 'telegram:read'))).statusCode).toBe(200);
      expectError(await t.call('GET', `/v1/telegram/${id}`, await t.tokenFor(await t.createAccount())), 404, 'NOT_FOUND');
      const token = await t.tokenFor(owner);
      const sms = (await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'hi' })).json().data.message_id;
      expectError(await t.call('GET', `/v1/telegram/${sms}`, token), 404, 'NOT_FOUND');
    });

    describe('beyond the HTTP schema', () => {
      it('the use case itself refuses bad chat ids, ambiguous buttons and oversized callback_data', async () => {
        const account = await t.createAccount();
        const deps = { store: t.store, clock: t.clock, prices: DEFAULT_PRICES };
        const attempt = (input: Parameters<typeof sendTelegramMessage>[2]) =>
          expectNothingWrittenBy(account, () => sendTelegramMessage(deps, account.account.id, input));
        await expect(attempt({ chat_id: 'nobody', message: 'hi' })).rejects.toMatchObject({
          code: 'VALIDATION_ERROR',
          details: [{ field: 'chat_id' }],
        });
        const markup = (b: { text: string; callback_data?: string; url?: string }) => ({ inline_keyboard: [[b]] });
        await expect(
          attempt({ chat_id: CHAT, message: 'hi', reply_markup: markup({ text: 'x', callback_data: 'a', url: 'https://e.com' }) }),
        ).rejects.toMatchObject({
          details: [{ field: 'reply_markup.inline_keyboard.0.0', message: 'must have text and exactly one of callback_data or url' }],
        });
        await expect(
          attempt({ chat_id: CHAT, message: 'hi', reply_markup: markup({ text: 'x', callback_data: '😀'.repeat(17) }) }),
        ).rejects.toMatchObject({
          details: [{ field: 'reply_markup.inline_keyboard.0.0.callback_data', message: 'must be 1 to 64 bytes in UTF-8' }],
        });
      });

      it('documents its endpoints in the OpenAPI document', async () => {
        const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
        for (const [path, method] of [
          ['/v1/telegram/send', 'post'],
          ['/v1/telegram/photo', 'post'],
          ['/v1/telegram/{message_id}', 'get'],
        ] as const) {
          const operation = document.paths[path]?.[method];
          expect(operation?.tags, path).toEqual(['Telegram']);
          expect(operation?.description, path).toMatch(/\S/);
        }
        expect(document.paths['/v1/telegram/send'].post.description).toContain('at most 100 buttons');
      });
    });
  });
});
