import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { expectError } from '../../../test/expectations.js';
import { FAKE_BOT, type FakeBotApi, myChatMember, privateMessage, startFakeBotApi } from '../../../test/fake-bot-api.js';
import { TEST_PROVIDER_SECRETS } from '../../../test/logs.js';
import { startReceiver } from '../../../test/webhook-receiver.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { assignAddress } from '../../core/inbound/addresses.js';
import { verifyWebhook } from '../../webhooks/verify.js';

const SECRET = TEST_PROVIDER_SECRETS.telegramWebhookSecret;
const BOT_ADDRESS = '@herald_test_bot';

/**
 * Updates posted by Telegram (Bot API setWebhook: "an HTTPS POST request to the specified URL,
 * containing a JSON-serialized Update", with the header X-Telegram-Bot-Api-Secret-Token when a
 * secret_token was set). The bot's username comes from getMe on the stand-in (FAKE_BOT).
 */
describeEachDialect('Telegram updates by webhook', (dialect) => {
  let api: FakeBotApi;
  let t: TestApp;
  let account: CreatedAccount;
  let token: string;
  beforeAll(async () => {
    api = await startFakeBotApi();
    t = await createTestApp(dialect, {
      env: {
        TELEGRAM_PROVIDER: 'bot-api',
        TELEGRAM_BOT_TOKEN: TEST_PROVIDER_SECRETS.telegramBotToken,
        TELEGRAM_API_BASE_URL: api.url,
        TELEGRAM_UPDATES: 'webhook',
        TELEGRAM_WEBHOOK_SECRET: SECRET,
        PUBLIC_URL: 'https://herald.test',
      },
    });
    account = await t.createAccount();
    token = await t.tokenFor(account);
    await assignAddress(t.store, { accountId: account.account.id, channel: 'telegram', address: BOT_ADDRESS, at: t.clock.now() });
  });
  afterAll(async () => {
    await t.close();
    await api.close();
  });

  let nextUpdateId = 9_000;
  /** Posts an update as Telegram does; `secret` null sends no secret header. */
  const post = (update: Record<string, unknown>, secret: string | null = SECRET) =>
    t.app.inject({
      method: 'POST',
      url: '/webhooks/telegram',
      headers: Object.assign({ 'content-type': 'application/json' }, secret === null ? {} : { 'x-telegram-bot-api-secret-token': secret }),
      payload: JSON.stringify(Object.assign({ update_id: nextUpdateId++ }, update)),
    });
  const inbound = async () => (await t.call('GET', '/v1/messages?direction=inbound', token)).json().data.messages;

  describe('happy', () => {
    it('stores a message for the account that has the bot: listed, readable, and a signed message.received', async () => {
      const receiver = await startReceiver(() => 204);
      try {
        await t.call('POST', '/v1/webhooks', token, { url: `${receiver.url}/tg`, events: ['message.received'] });
        const webhookSecret = (await t.call('GET', '/v1/webhooks/secret', token)).json().data.secret;
        const message = privateMessage(424242, 'Is my order on its way?');
        const response = await post({ message });
        expect(response.statusCode, response.body).toBe(200);

        const [listed] = await inbound();
        const expected = {
          message_id: expect.stringMatching(/^msg_telegram_[0-9a-z]{26}$/),
          direction: 'inbound',
          channel: 'telegram',
          from: '424242',
          to: BOT_ADDRESS,
          text: 'Is my order on its way?',
          details: { username: 'ada_l', first_name: 'Ada', chat_type: 'private' },
          received_at: new Date(message.date * 1000).toISOString(),
          created_at: new Date(t.clock.now()).toISOString(),
        };
        expect(listed).toEqual(expected);
        const read = await t.call('GET', `/v1/messages/${listed.message_id}`, token);
        expect(read.json().data).toEqual(listed);

        await t.drain();
        await receiver.waitFor(1, 5_000);
        const [delivery] = receiver.received;
        const event = JSON.parse(delivery?.body ?? '{}');
        expect(event).toMatchObject({ type: 'message.received', data: listed });
        expect(verifyWebhook({ secret: webhookSecret, body: delivery?.body ?? '', headers: delivery?.headers ?? {} })).toBe(true);
      } finally {
        await receiver.close();
      }
    });

    it('stores an update Telegram sends twice once (the chat and message ids are its provider id)', async () => {
      const before = (await inbound()).length;
      const update = { update_id: 77_001, message: privateMessage(515151, 'once') };
      for (let i = 0; i < 2; i++) expect((await post(update)).statusCode).toBe(200);
      expect((await inbound()).length).toBe(before + 1);
    });

    it("takes a photo's caption as the text, and skips edited messages, messages without text and other kinds", async () => {
      const before = (await inbound()).length;
      await post({
        message: privateMessage(616161, '', {
          text: undefined,
          caption: 'Receipt attached',
          photo: [{ file_id: 'f', file_unique_id: 'u', width: 1, height: 1 }],
        }),
      });
      await post({ edited_message: privateMessage(616161, 'edited', { edit_date: 1_700_000_500 }) });
      await post({ message: privateMessage(616161, '', { text: undefined, sticker: { file_id: 's' } }) });
      await post({ callback_query: { id: '1', from: { id: 616161, is_bot: false, first_name: 'Ada' }, data: 'x', chat_instance: '1' } });
      const messages = (await inbound()) as Array<{ from: string; text: string }>;
      expect(messages.length).toBe(before + 1);
      expect(messages.filter((m) => m.from === '616161')).toEqual([expect.objectContaining({ text: 'Receipt attached' })]);
    });

    it('keeps the group as the sender of a group message, its member in details', async () => {
      await post({
        message: privateMessage(717171, 'From the group', { chat: { id: -1001234567890, type: 'supergroup', title: 'Ops' } }),
      });
      const messages = (await inbound()) as Array<{ from: string }>;
      expect(messages.find((m) => m.from === '-1001234567890')).toMatchObject({ details: { username: 'ada_l', chat_type: 'supergroup' } });
    });

    it('puts a chat whose user blocked the bot on the suppression list: a later send is 422 RECIPIENT_SUPPRESSED', async () => {
      expect((await post(myChatMember(818181, 'kicked'))).statusCode).toBe(200);
      const listed = (await t.call('GET', '/v1/suppressions?channel=telegram', token)).json().data;
      expect(JSON.stringify(listed)).toContain('818181');
      const send = await t.call('POST', '/v1/telegram/send', token, { chat_id: '818181', message: 'Still there?' });
      expectError(send, 422, 'RECIPIENT_SUPPRESSED');
      // Unblocked (kicked → member: the user restarted the bot): the entry the block made is lifted.
      expect((await post(myChatMember(818181, 'member'))).statusCode).toBe(200);
      expect((await t.call('POST', '/v1/telegram/send', token, { chat_id: '818181', message: 'Hello again' })).statusCode).toBe(200);
      expect(JSON.stringify((await t.call('GET', '/v1/suppressions?channel=telegram', token)).json().data)).not.toContain('818181');
    });

    it("an unblock lifts only a block's entry: one the account added stays", async () => {
      const added = await t.call('POST', '/v1/suppressions', token, { channel: 'telegram', recipient: '828282', reason: 'manual' });
      expect(added.statusCode).toBeLessThan(300);
      expect((await post(myChatMember(828282, 'kicked'))).statusCode).toBe(200);
      expect((await post(myChatMember(828282, 'member'))).statusCode).toBe(200);
      expectError(await t.call('POST', '/v1/telegram/send', token, { chat_id: '828282', message: 'Hello?' }), 422, 'RECIPIENT_SUPPRESSED');
    });
  });

  describe('errors', () => {
    it('answers 200 and stores nothing for a bot no account has (Telegram would resend a refusal forever)', async () => {
      const other = await createTestApp(dialect, {
        env: {
          TELEGRAM_PROVIDER: 'bot-api',
          TELEGRAM_BOT_TOKEN: TEST_PROVIDER_SECRETS.telegramBotToken,
          TELEGRAM_API_BASE_URL: api.url,
          TELEGRAM_UPDATES: 'webhook',
          TELEGRAM_WEBHOOK_SECRET: SECRET,
          PUBLIC_URL: 'https://herald.test',
        },
      });
      try {
        const response = await other.app.inject({
          method: 'POST',
          url: '/webhooks/telegram',
          headers: { 'x-telegram-bot-api-secret-token': SECRET, 'content-type': 'application/json' },
          payload: { update_id: 1, message: privateMessage(919191, 'anyone?') },
        });
        expect(response.statusCode).toBe(200);
      } finally {
        await other.close();
      }
    });

    it('refuses a body that is not an Update', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/webhooks/telegram',
        headers: { 'x-telegram-bot-api-secret-token': SECRET, 'content-type': 'application/json' },
        payload: { message: privateMessage(1, 'no update_id') },
      });
      expect(response.statusCode).toBe(400);
    });

    it('answers a body that is not JSON, none, or not an Update with 400 (not JSON: in the error envelope), never 500', async () => {
      for (const payload of ['{bad', '', 'null', '[1,2]']) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/webhooks/telegram',
          headers: { 'x-telegram-bot-api-secret-token': SECRET, 'content-type': 'application/json' },
          payload,
        });
        expect(response.statusCode, payload).toBe(400);
      }
      const broken = await t.app.inject({
        method: 'POST',
        url: '/webhooks/telegram',
        headers: { 'x-telegram-bot-api-secret-token': SECRET, 'content-type': 'application/json' },
        payload: '{bad',
      });
      expect(broken.json()).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
    });

    it('skips (200) a message or member change of another shape than the Bot API sends, and stores nothing', async () => {
      const before = (await inbound()).length;
      const odd = [
        { message: Object.assign(privateMessage(333001, 'x'), { text: 12345 }) },
        { message: Object.assign(privateMessage(333002, 'x'), { text: { a: 1 } }) },
        { message: Object.assign(privateMessage(333003, 'x'), { chat: 'not a chat' }) },
        { message: null },
        { message: 'hello' },
        { my_chat_member: Object.assign(myChatMember(333004, 'kicked').my_chat_member, { chat: { id: 'x' } }) },
        { my_chat_member: [] },
      ];
      for (const update of odd) expect((await post(update)).statusCode, JSON.stringify(update)).toBe(200);
      expect((await inbound()).length).toBe(before);
    });

    it('dates a message whose date is 0 or negative by its arrival, not 1970', async () => {
      expect((await post({ message: Object.assign(privateMessage(333005, 'dated zero'), { date: 0 }) })).statusCode).toBe(200);
      const stored = (await inbound()).find((m: { text: string }) => m.text === 'dated zero');
      expect(Date.parse(stored.received_at)).toBe(t.clock.now());
    });
  });

  describe('security', () => {
    it('refuses a wrong, missing or near secret with 401 and stores nothing', async () => {
      const before = (await inbound()).length;
      for (const secret of [null, '', 'wrong', `${SECRET}x`, SECRET.slice(0, -1), SECRET.toUpperCase()]) {
        const response = await post({ message: privateMessage(111111, 'forged') }, secret);
        expect(response.statusCode, String(secret)).toBe(401);
        expect(response.body).not.toContain(SECRET);
      }
      expect(await post(myChatMember(111112, 'kicked'), 'wrong')).toMatchObject({ statusCode: 401 });
      // The secret is checked before the body is read: a wrong one is 401 whatever the body.
      for (const payload of ['{bad', '']) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/webhooks/telegram',
          headers: { 'x-telegram-bot-api-secret-token': 'wrong', 'content-type': 'application/json' },
          payload,
        });
        expect(response.statusCode, payload).toBe(401);
      }
      expect((await inbound()).length).toBe(before);
      expect(JSON.stringify((await t.call('GET', '/v1/suppressions?channel=telegram', token)).json().data)).not.toContain('111112');
    });

    it('is not served without TELEGRAM_UPDATES=webhook', async () => {
      const plain = await createTestApp(dialect);
      try {
        const response = await plain.app.inject({ method: 'POST', url: '/webhooks/telegram', payload: { update_id: 1 } });
        expect(response.statusCode).toBe(404);
      } finally {
        await plain.close();
      }
    });
  });

  it('asked getMe for the bot it serves', () => {
    expect(api.calls.some((call) => call.method === 'getMe')).toBe(true);
    expect(FAKE_BOT.username.toLowerCase()).toBe(BOT_ADDRESS.slice(1));
  });
});
