import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { sumLedger } from '../../core/accounts/ledger.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';

/** n distinct valid US numbers. */
const numbers = (n: number, start = 0) => Array.from({ length: n }, (_, i) => `+1415555${String(start + i).padStart(4, '0')}`);

describeEachDialect('POST /v1/sms/bulk', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  async function setup(credits: number): Promise<{ account: CreatedAccount; token: string }> {
    const account = await t.createAccount({ credits });
    return { account, token: await t.tokenFor(account) };
  }
  const countMessages = async (accountId: string) =>
    Number(
      (
        await t.database.db
          .selectFrom('messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('account_id', '=', accountId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('queues one message per distinct valid recipient under one batch id, rejecting the invalid ones', async () => {
    const { account, token } = await setup(100);
    const response = await t.call('POST', '/v1/sms/bulk', token, {
      recipients: ['+14155550100', '+14155550101', '+14155550100', 'not-a-number', '+1234', '+14155550102', 'not-a-number'],
      message: 'Sale starts now',
      sender: 'Shop',
    });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.batch_id).toMatch(/^bat_[0-9a-z]{26}$/);
    expect(data.messages.map((m: { to: string }) => m.to)).toEqual(['+14155550100', '+14155550101', '+14155550102']);
    expect(
      data.messages.every((m: { message_id: string; status: string }) => /^msg_sms_/.test(m.message_id) && m.status === 'queued'),
    ).toBe(true);
    expect(data.rejected).toEqual([
      { to: 'not-a-number', error: { code: 'INVALID_PHONE', message: expect.any(String) } },
      { to: '+1234', error: { code: 'INVALID_PHONE', message: expect.any(String) } },
    ]);
    expect(data.credits_used).toBe(3);
    expect(data.segments).toBe(1);
    expect(await countMessages(account.account.id)).toBe(3);

    await t.drain();
    const token2 = await t.tokenFor(account);
    for (const m of data.messages) {
      expect((await t.call('GET', `/v1/messages/${m.message_id}`, token2)).json().data.status).toBe('delivered');
    }
    const stored = await t.store.accounts.findAccount(account.account.id);
    expect(sumLedger(await t.store.credits.ledger(account.account.id))).toEqual({
      creditsMicros: stored?.creditsMicros,
      reservedMicros: stored?.reservedMicros,
    });
    expect(stored?.creditsMicros).toBe(97_000_000);
  });

  it('accepts 1000 recipients in one request', async () => {
    const { account, token } = await setup(2000);
    const response = await t.call('POST', '/v1/sms/bulk', token, { recipients: numbers(1000), message: 'a'.repeat(161) });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.messages).toHaveLength(1000);
    expect(response.json().data.credits_used).toBe(2000);
    expect(await countMessages(account.account.id)).toBe(1000);
    expect((await t.call('GET', '/v1/account/balance', token)).json().data).toEqual({ credits: 2000, reserved: 2000, available: 0 });
  });

  it('refuses more than 1000 recipients with 422', async () => {
    const { account, token } = await setup(5000);
    const response = await t.call('POST', '/v1/sms/bulk', token, { recipients: numbers(1001), message: 'hi' });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.details).toEqual([{ field: 'recipients', message: expect.stringContaining('1000') }]);
    expect(await countMessages(account.account.id)).toBe(0);
  });

  it('creates nothing when the credits do not cover every accepted recipient', async () => {
    const { account, token } = await setup(9);
    const ledgerBefore = await t.store.credits.ledger(account.account.id);
    const response = await t.call('POST', '/v1/sms/bulk', token, { recipients: numbers(10), message: 'hi' });
    expect(response.statusCode).toBe(402);
    expect(response.json().error.code).toBe('INSUFFICIENT_CREDITS');
    expect(await countMessages(account.account.id)).toBe(0);
    expect(await t.store.credits.ledger(account.account.id)).toEqual(ledgerBefore);
    expect((await t.call('GET', '/v1/account/balance', token)).json().data).toEqual({ credits: 9, reserved: 0, available: 9 });
  });

  it('answers 422 INVALID_PHONE, listing each, when no recipient is valid', async () => {
    const { account, token } = await setup(10);
    const response = await t.call('POST', '/v1/sms/bulk', token, { recipients: ['123', 'abc'], message: 'hi' });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.code).toBe('INVALID_PHONE');
    expect(response.json().error.details.map((d: { field: string }) => d.field)).toEqual(['recipients.0', 'recipients.1']);
    expect(await countMessages(account.account.id)).toBe(0);
  });

  describe('field rules', () => {
    it.each([
      ['no recipients', { recipients: [], message: 'hi' }, 'recipients'],
      ['recipients not an array', { recipients: '+14155550100', message: 'hi' }, 'recipients'],
      ['a recipient that is not a string', { recipients: [14155550100], message: 'hi' }, 'recipients.0'],
      ['no message', { recipients: ['+14155550100'] }, 'message'],
      ['a 1601-character message', { recipients: ['+14155550100'], message: 'a'.repeat(1601) }, 'message'],
      ['a bad sender', { recipients: ['+14155550100'], message: 'hi', sender: 'way too long sender' }, 'sender'],
      ['an unknown field', { recipients: ['+14155550100'], message: 'hi', to: '+14155550100' }, 'to'],
    ])('refuses %s with 422 VALIDATION_ERROR', async (_name, body, field) => {
      const { token } = await setup(10);
      const response = await t.call('POST', '/v1/sms/bulk', token, body);
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
      expect(response.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('needs the sms:send scope', async () => {
      const { account } = await setup(10);
      const response = await t.call('POST', '/v1/sms/bulk', await t.tokenFor(account, 'sms:read'), {
        recipients: ['+14155550100'],
        message: 'hi',
      });
      expect(response.statusCode).toBe(403);
    });
  });
});
