import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { expectError, expectFieldProblems, expectNothingWritten } from '../../../test/expectations.js';
import { openSessionWindow } from '../../../test/whatsapp.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { toIso } from '../../core/clock.js';
import { SESSION_WINDOW_MS } from './session-window.js';

const TO = '+14155552671';
const HOUR_MS = 3600_000;

describeEachDialect('POST /v1/whatsapp/session (the 24 h session window)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  describe('inside and outside the window', () => {
    let account: CreatedAccount;
    let token: string;
    const session = (to: string, message = 'Thanks, your order is on its way.') =>
      t.call('POST', '/v1/whatsapp/session', token, { to, message });
    const refused = (to: string, message?: string) => expectNothingWritten(t, account, () => session(to, message));

    beforeAll(async () => {
      account = await t.createAccount({ credits: 10 });
      token = await t.tokenFor(account);
    });

    it('refuses a number that never wrote to the account with SESSION_WINDOW_CLOSED', async () => {
      const error = expectError(await refused('+14155550100'), 422, 'SESSION_WINDOW_CLOSED');
      expect(error.message).toBe(
        '+14155550100 has not written to this account, so no session is open; send a template message (POST /v1/whatsapp/send) instead.',
      );
    });

    it('accepts a session message for 0.3 credits after the recipient wrote, and shows its text', async () => {
      await openSessionWindow(t, account, TO);
      const sent = await session(TO, 'Hello from support');
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json()).toEqual({
        success: true,
        data: {
          message_id: expect.stringMatching(/^msg_whatsapp_[0-9a-z]{26}$/),
          to: TO,
          status: 'queued',
          credits_used: 0.3,
          created_at: toIso(t.clock.now()),
        },
      });
      const detail = (await t.call('GET', `/v1/whatsapp/${sent.json().data.message_id}`, token)).json().data;
      expect(detail).toMatchObject({ type: 'session', message: 'Hello from support', template: null, credits_used: 0.3 });
    });

    it('accepts up to the last millisecond of the 24 hours and refuses from the 24th hour on, saying when it closed', async () => {
      const phone = '+14155550101';
      const now = t.clock.now();
      // A later message never moves a window back (a retried webhook is late), so each edge has a number of its own.
      await openSessionWindow(t, account, '+14155550104', now - SESSION_WINDOW_MS + 1);
      expect((await session('+14155550104')).statusCode).toBe(200);
      await openSessionWindow(t, account, phone, now - SESSION_WINDOW_MS);
      const error = expectError(await refused(phone), 422, 'SESSION_WINDOW_CLOSED');
      expect(error.message).toBe(
        `The 24-hour session window with ${phone} closed at ${toIso(now)}; send a template message (POST /v1/whatsapp/send) instead.`,
      );
    });

    it('is per recipient and per account', async () => {
      const phone = '+14155550102';
      await openSessionWindow(t, account, '+14155550103');
      expectError(await refused(phone), 422, 'SESSION_WINDOW_CLOSED');
      const other = await t.createAccount();
      await openSessionWindow(t, other, phone);
      expectError(await refused(phone), 422, 'SESSION_WINDOW_CLOSED');
    });

    it('refuses a message over 4096 characters and accepts one of 4096', async () => {
      await openSessionWindow(t, account, TO);
      expectFieldProblems(await refused(TO, 'a'.repeat(4097)), ['message']);
      expectFieldProblems(await refused(TO, ''), ['message']);
      expect((await session(TO, 'a'.repeat(4096))).statusCode).toBe(200);
    });

    it('requires to and message, and answers INVALID_PHONE for a bad number', async () => {
      expectFieldProblems(await expectNothingWritten(t, account, () => t.call('POST', '/v1/whatsapp/session', token, {})), [
        'to',
        'message',
      ]);
      expectError(await refused('+1415'), 422, 'INVALID_PHONE');
    });

    it('refuses with 402 below 0.3 available credits, writing nothing', async () => {
      const poor = await t.createAccount({ credits: 0.2 });
      await openSessionWindow(t, poor, TO);
      const poorToken = await t.tokenFor(poor);
      const response = await expectNothingWritten(t, poor, () =>
        t.call('POST', '/v1/whatsapp/session', poorToken, { to: TO, message: 'hi' }),
      );
      expectError(response, 402, 'INSUFFICIENT_CREDITS');
    });
  });

  describe('through the sandbox', () => {
    it('delivers a session message and fails +15005550001 with its credits released', async () => {
      const account = await t.createAccount({ credits: 1 });
      const token = await t.tokenFor(account);
      await openSessionWindow(t, account, TO);
      await openSessionWindow(t, account, '+15005550001');
      const ok = (await t.call('POST', '/v1/whatsapp/session', token, { to: TO, message: 'hi' })).json().data.message_id;
      const bad = (await t.call('POST', '/v1/whatsapp/session', token, { to: '+15005550001', message: 'hi' })).json().data.message_id;
      await t.drain();
      expect((await t.call('GET', `/v1/messages/${ok}`, token)).json().data).toMatchObject({ status: 'delivered', credits_used: 0.3 });
      expect((await t.call('GET', `/v1/messages/${bad}`, token)).json().data).toMatchObject({
        status: 'failed',
        credits_used: 0,
        error: { code: 'INVALID_DESTINATION' },
      });
      expect((await t.call('GET', '/v1/account/balance', token)).json().data).toEqual({ credits: 0.7, reserved: 0, available: 0.7 });
    });
  });

  describe('as the clock moves', () => {
    it('closes the window just after 24 h and reopens it when the recipient writes again', async () => {
      const account = await t.createAccount({ credits: 10 });
      const opened = t.clock.now();
      await openSessionWindow(t, account, TO);

      t.clock.advance(23 * HOUR_MS);
      let token = await t.tokenFor(account); // a fresh token: the clock moves past any one token's life
      expect((await t.call('POST', '/v1/whatsapp/session', token, { to: TO, message: 'still open' })).statusCode).toBe(200);

      t.clock.advance(HOUR_MS + 1);
      token = await t.tokenFor(account);
      const closed = expectError(
        await expectNothingWritten(t, account, () => t.call('POST', '/v1/whatsapp/session', token, { to: TO, message: 'too late' })),
        422,
        'SESSION_WINDOW_CLOSED',
      );
      expect(closed.message).toContain(`closed at ${toIso(opened + SESSION_WINDOW_MS)}`);
      // A template message is still allowed.
      const template = {
        to: TO,
        template: 'verification_code',
        language: 'en_US',
        components: [{ type: 'body', parameters: [{ type: 'text', text: '1234' }] }],
      };
      expect((await t.call('POST', '/v1/whatsapp/send', token, template)).statusCode).toBe(200);

      await openSessionWindow(t, account, TO);
      expect((await t.call('POST', '/v1/whatsapp/session', token, { to: TO, message: 'welcome back' })).statusCode).toBe(200);
    });
  });
});
