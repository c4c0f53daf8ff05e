import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { accountSnapshot, expectError } from '../../../test/expectations.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { addSuppression } from '../../core/suppressions/manage-suppressions.js';

const CHAT = '123456789';
const PHOTO = 'https://images.example.com/cat.jpg';

describeEachDialect('POST /v1/telegram/preview and /v1/telegram/photo/preview', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const preview = async (token: string, url: string, body: unknown) => {
    const response = await t.call('POST', url, token, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const suppress = (account: CreatedAccount, chat: string) =>
    addSuppression(t.store, {
      accountId: account.account.id,
      channel: 'telegram',
      recipient: chat,
      reason: 'opt_out',
      source: 'api',
      at: t.clock.now(),
    });

  it('previews a text: its price, its length after the markup is parsed, sendable; writes nothing', async () => {
    const account = await t.createAccount({ credits: 5 });
    const token = await t.tokenFor(account);
    const before = await accountSnapshot(t, account);
    expect(await preview(token, '/v1/telegram/preview', { chat_id: CHAT, message: '<b>Hi</b> &amp; 👋', parse_mode: 'HTML' })).toEqual({
      length: 'Hi & 👋'.length,
      limit: 4096,
      markup_parses: true,
      suppressed: false,
      credits: 0.05,
      available: 5,
      affordable: true,
      sendable: true,
      refusal: null,
    });
    expect(await accountSnapshot(t, account)).toEqual(before);
  });

  it('previews a photo: its price and its caption against 1024 (0 without one)', async () => {
    const token = await t.tokenFor(await t.createAccount({ credits: 5 }));
    expect(await preview(token, '/v1/telegram/photo/preview', { chat_id: CHAT, photo_url: PHOTO })).toMatchObject({
      length: 0,
      limit: 1024,
      credits: 0.1,
      sendable: true,
    });
  });

  it('reports a text or caption over its limit with the 422 the send answers; markup that does not parse is only reported', async () => {
    const token = await t.tokenFor(await t.createAccount({ credits: 5 }));
    const long = { chat_id: CHAT, message: `*${'a'.repeat(4097)}*`, parse_mode: 'MarkdownV2' };
    const send = expectError(await t.call('POST', '/v1/telegram/send', token, long), 422, 'VALIDATION_ERROR');
    expect(await preview(token, '/v1/telegram/preview', long)).toMatchObject({
      length: 4097,
      sendable: false,
      refusal: { code: 'VALIDATION_ERROR', message: send.message },
    });
    const caption = { chat_id: CHAT, photo_url: PHOTO, caption: 'c'.repeat(1025) };
    const sent = expectError(await t.call('POST', '/v1/telegram/photo', token, caption), 422, 'VALIDATION_ERROR');
    expect(await preview(token, '/v1/telegram/photo/preview', caption)).toMatchObject({
      length: 1025,
      limit: 1024,
      refusal: { code: 'VALIDATION_ERROR', message: sent.message },
    });
    expect(await preview(token, '/v1/telegram/preview', { chat_id: CHAT, message: '*open', parse_mode: 'MarkdownV2' })).toMatchObject({
      markup_parses: false,
      sendable: true,
    });
  });

  it("reports the suppression list and credits the send would refuse on, with the send's words", async () => {
    const account = await t.createAccount({ credits: 0.05 });
    const token = await t.tokenFor(account);
    const photo = { chat_id: CHAT, photo_url: PHOTO };
    const poor = expectError(await t.call('POST', '/v1/telegram/photo', token, photo), 402, 'INSUFFICIENT_CREDITS');
    expect(await preview(token, '/v1/telegram/photo/preview', photo)).toMatchObject({
      affordable: false,
      available: 0.05,
      refusal: { code: 'INSUFFICIENT_CREDITS', message: poor.message },
    });
    await suppress(account, CHAT);
    const blocked = expectError(
      await t.call('POST', '/v1/telegram/send', token, { chat_id: CHAT, message: 'Hi' }),
      422,
      'RECIPIENT_SUPPRESSED',
    );
    expect(await preview(token, '/v1/telegram/preview', { chat_id: CHAT, message: 'Hi' })).toMatchObject({
      suppressed: true,
      refusal: { code: 'RECIPIENT_SUPPRESSED', message: blocked.message },
    });
  });

  describe('refused as the send refuses a malformed request', () => {
    it('answers the same 422 for a bad chat id or keyboard, with the length problem among them', async () => {
      const token = await t.tokenFor(await t.createAccount());
      for (const body of [
        { chat_id: 'not a chat', message: 'x' },
        { chat_id: CHAT, message: 'x'.repeat(4097), reply_markup: { inline_keyboard: [[{ text: 'a' }]] } },
        { chat_id: CHAT, message: 'x', extra: 1 },
      ]) {
        const send = expectError(await t.call('POST', '/v1/telegram/send', token, body), 422, 'VALIDATION_ERROR');
        expect(expectError(await t.call('POST', '/v1/telegram/preview', token, body), 422, 'VALIDATION_ERROR')).toEqual(send);
      }
    });

    it('answers 403 to a token without telegram:send', async () => {
      const token = await t.tokenFor(await t.createAccount(), 'telegram:read');
      expect((await t.call('POST', '/v1/telegram/preview', token, { chat_id: CHAT, message: 'x' })).statusCode).toBe(403);
      expect((await t.call('POST', '/v1/telegram/photo/preview', token, { chat_id: CHAT, photo_url: PHOTO })).statusCode).toBe(403);
    });
  });

  describe('agrees with the send', () => {
    /** A text or caption around its limit, plain, escaped or in bold, to a suppressed chat or not. */
    const request = fc.record({
      photo: fc.boolean(),
      extra: fc.integer({ min: 0, max: 3 }),
      unit: fc.constantFrom('a', '😀', '&amp;'),
      bold: fc.boolean(),
      parseMode: fc.constantFrom(undefined, 'HTML', 'MarkdownV2'),
      suppressed: fc.boolean(),
      cents: fc.integer({ min: 0, max: 15 }),
    });

    it('on cost, length and whether (and why) the send is refused, for any text or photo and balance', async () => {
      await fc.assert(
        fc.asyncProperty(request, async (given) => {
          const account = await t.createAccount({ credits: given.cents / 100 });
          const token = await t.tokenFor(account);
          if (given.suppressed) await suppress(account, CHAT);
          // Around the limit in UTF-16 code units as Telegram counts them (an emoji is 2, markup and escapes nothing).
          const limit = given.photo ? 1024 : 4096;
          const repeated = given.unit.repeat(Math.floor(limit / (given.unit === '😀' ? 2 : 1)) - 2 + given.extra);
          const html = given.bold || given.unit === '&amp;';
          const value = given.bold ? `<b>${repeated}</b>` : repeated;
          const parse_mode = html ? 'HTML' : given.parseMode;
          const options = parse_mode ? { parse_mode } : {};
          const body = given.photo
            ? { chat_id: CHAT, photo_url: PHOTO, caption: value, ...options }
            : { chat_id: CHAT, message: value, ...options };
          const path = given.photo ? '/v1/telegram/photo' : '/v1/telegram/send';
          const seen = await preview(token, given.photo ? '/v1/telegram/photo/preview' : '/v1/telegram/preview', body);
          const send = await t.call('POST', path, token, body);
          expect(seen.sendable).toBe(send.statusCode === 200);
          if (send.statusCode === 200) expect(seen.credits).toBe(send.json().data.credits_used);
          else expect(seen.refusal).toEqual({ code: send.json().error.code, message: send.json().error.message });
          expect(seen.suppressed).toBe(given.suppressed);
          expect(seen.affordable).toBe(seen.credits <= given.cents / 100);
        }),
        { numRuns: 40 },
      );
    });
  });
});
