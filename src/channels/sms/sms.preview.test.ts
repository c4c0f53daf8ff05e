import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { GSM_BASIC, GSM_EXTENSION } from '../../core/segments.js';

const TO = '+14155552671';

/** Texts that cross every boundary: GSM-7 basic, its 2-septet extension, UCS-2 in the BMP, and surrogate pairs. */
const smsText = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...GSM_BASIC) },
      { weight: 2, arbitrary: fc.constantFrom(...GSM_EXTENSION) },
      { weight: 1, arbitrary: fc.constantFrom('’', 'ł', 'ç', '中', 'ё') },
      { weight: 1, arbitrary: fc.constantFrom('😀', '👍🏽', '𝄞') },
    ),
    { minLength: 1, maxLength: 400 },
  )
  .map((parts) => parts.join(''))
  .filter((text) => [...text].length <= 1600);

describeEachDialect('POST /v1/sms/preview', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** Everything a preview must leave as it was: balance, ledger and messages of the account. */
  async function footprint(accountId: string, token: string) {
    const messages = await t.database.db.selectFrom('messages').select(['id']).where('account_id', '=', accountId).execute();
    return {
      balance: (await t.call('GET', '/v1/account/balance', token)).json().data,
      ledger: await t.store.credits.ledger(accountId),
      messages: messages.length,
    };
  }

  it('describes a GSM-7 text: one segment, no characters outside the alphabet, its cost, and that the balance covers it', async () => {
    const account = await t.createAccount({ credits: 5 });
    const token = await t.tokenFor(account);
    const response = await t.call('POST', '/v1/sms/preview', token, { to: TO, message: 'Your code is 123456' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        encoding: 'GSM-7',
        segments: 1,
        characters: 19,
        units: 19,
        units_per_segment: 160,
        non_gsm_characters: [],
        credits_per_message: 1,
        recipients: 1,
        rejected: [],
        credits: 1,
        available: 5,
        affordable: true,
      },
    });
  });

  it('names each character that forced UCS-2 with its position in code points, and counts an emoji as one character and two units', async () => {
    const account = await t.createAccount();
    const token = await t.tokenFor(account);
    const message = `It’s 10:00 😀 ${'x'.repeat(60)}`;
    const data = (await t.call('POST', '/v1/sms/preview', token, { message })).json().data;
    expect(data).toMatchObject({
      encoding: 'UCS-2',
      characters: 73,
      units: 74,
      segments: 2,
      units_per_segment: 67,
      credits_per_message: 2,
      non_gsm_characters: [
        { character: '’', position: 2 },
        { character: '😀', position: 11 },
      ],
    });
  });

  it('counts a GSM-7 extension character as two septets', async () => {
    const account = await t.createAccount();
    const token = await t.tokenFor(account);
    const data = (await t.call('POST', '/v1/sms/preview', token, { message: `${'a'.repeat(159)}€` })).json().data;
    expect(data).toMatchObject({
      encoding: 'GSM-7',
      characters: 160,
      units: 161,
      segments: 2,
      units_per_segment: 153,
      non_gsm_characters: [],
    });
  });

  it('sorts recipients as a bulk send would and says when the account cannot afford them all, writing nothing', async () => {
    const account = await t.createAccount({ credits: 2 });
    const token = await t.tokenFor(account);
    const before = await footprint(account.account.id, token);
    const response = await t.call('POST', '/v1/sms/preview', token, {
      message: 'The store opens at 9 tomorrow.',
      recipients: [TO, '+447911123456', TO, 'not-a-number', '+33612345678'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      recipients: 3,
      rejected: [{ to: 'not-a-number', error: { code: 'INVALID_PHONE', message: expect.stringMatching(/E\.164/) } }],
      credits_per_message: 1,
      credits: 3,
      available: 2,
      affordable: false,
    });
    expect(await footprint(account.account.id, token)).toEqual(before);
  });

  it('counts reserved credits out of what is available', async () => {
    const account = await t.createAccount({ credits: 3 });
    const token = await t.tokenFor(account);
    expect((await t.call('POST', '/v1/sms/send', token, { to: TO, message: 'held' })).statusCode).toBe(200);
    const data = (await t.call('POST', '/v1/sms/preview', token, { to: TO, message: 'x'.repeat(161) })).json().data;
    expect(data).toMatchObject({ credits: 2, available: 2, affordable: true });
    const more = (await t.call('POST', '/v1/sms/preview', token, { to: TO, message: 'x'.repeat(307) })).json().data;
    expect(more).toMatchObject({ credits: 3, available: 2, affordable: false });
  });

  it('previews a send body as it is, and keeps nothing under an Idempotency-Key: asked again, it answers afresh', async () => {
    const account = await t.createAccount({ credits: 3 });
    const token = await t.tokenFor(account);
    const body = {
      to: TO,
      message: 'hi',
      sender: 'Acme',
      scheduled_at: new Date(t.clock.now() + 60_000).toISOString(),
      callback_url: 'https://hooks.example.com/cb',
    };
    const ask = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/sms/preview',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'preview-1' },
        payload: JSON.stringify(body),
      });
    const first = await ask();
    expect(first.statusCode).toBe(200);
    expect(first.json().data.available).toBe(3);
    expect((await t.call('POST', '/v1/sms/send', token, { to: TO, message: 'spend one' })).statusCode).toBe(200);
    const second = await ask();
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json().data.available).toBe(2);
    const kept = await t.database.db.selectFrom('idempotency_keys').select('key').where('account_id', '=', account.account.id).execute();
    expect(kept).toEqual([]);
  });

  describe('refuses what the send would refuse', () => {
    it('answers 422 INVALID_PHONE for a `to` that is not a valid number', async () => {
      const account = await t.createAccount();
      const token = await t.tokenFor(account);
      const response = await t.call('POST', '/v1/sms/preview', token, { to: '+1000', message: 'hi' });
      expect(response.statusCode).toBe(422);
      expect(response.json().error).toMatchObject({ code: 'INVALID_PHONE', details: [{ field: 'to' }] });
    });

    it('answers 422 INVALID_PHONE when no recipient is valid, naming each by its index', async () => {
      const account = await t.createAccount();
      const token = await t.tokenFor(account);
      const response = await t.call('POST', '/v1/sms/preview', token, { recipients: ['12', 'abc'], message: 'hi' });
      expect(response.statusCode).toBe(422);
      expect(response.json().error).toMatchObject({
        code: 'INVALID_PHONE',
        details: [{ field: 'recipients.0' }, { field: 'recipients.1' }],
      });
    });

    it('answers 422 VALIDATION_ERROR for both `to` and `recipients`, an empty text, or an unknown field', async () => {
      const account = await t.createAccount();
      const token = await t.tokenFor(account);
      for (const [body, field] of [
        [{ to: TO, recipients: [TO], message: 'hi' }, 'recipients'],
        [{ to: TO, message: '' }, 'message'],
        [{ to: TO, message: 'hi', colour: 'blue' }, 'colour'],
        [{ to: TO, message: 'hi', sender: 'not a sender id!' }, 'sender'],
        [{ message: 'x'.repeat(1601) }, 'message'],
      ] as const) {
        const response = await t.call('POST', '/v1/sms/preview', token, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(response.json().error.code).toBe('VALIDATION_ERROR');
        expect(response.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
      }
    });

    it('answers 403 to a token without sms:send', async () => {
      const account = await t.createAccount();
      const token = await t.tokenFor(account, 'sms:read');
      const response = await t.call('POST', '/v1/sms/preview', token, { message: 'hi' });
      expect(response.statusCode).toBe(403);
    });
  });

  describe('agrees with the send', () => {
    it('on encoding-driven segments and cost, for any text, single and bulk', async () => {
      const account = await t.createAccount({ credits: 1_000_000, plan: 'enterprise' });
      const token = await t.tokenFor(account);
      await fc.assert(
        fc.asyncProperty(smsText, async (message) => {
          const preview = (await t.call('POST', '/v1/sms/preview', token, { to: TO, message })).json().data;
          const sent = await t.call('POST', '/v1/sms/send', token, { to: TO, message });
          expect(sent.statusCode).toBe(200);
          expect({ segments: preview.segments, credits: preview.credits }).toEqual({
            segments: sent.json().data.segments,
            credits: sent.json().data.credits_used,
          });
          const recipients = ['+447911123456', '+33612345678'];
          const bulkPreview = (await t.call('POST', '/v1/sms/preview', token, { recipients, message })).json().data;
          const bulk = (await t.call('POST', '/v1/sms/bulk', token, { recipients, message })).json().data;
          expect({ segments: bulkPreview.segments, credits: bulkPreview.credits }).toEqual({
            segments: bulk.segments,
            credits: bulk.credits_used,
          });
        }),
        { numRuns: 60 },
      );
    });

    it('on whether the account can afford it: affordable exactly when the send is accepted rather than refused with 402', async () => {
      await fc.assert(
        fc.asyncProperty(smsText, fc.integer({ min: 0, max: 12 }), async (message, credits) => {
          const account = await t.createAccount({ credits, plan: 'enterprise' });
          const token = await t.tokenFor(account);
          const preview = (await t.call('POST', '/v1/sms/preview', token, { to: TO, message })).json().data;
          const sent = await t.call('POST', '/v1/sms/send', token, { to: TO, message });
          expect(sent.statusCode).toBe(preview.affordable ? 200 : 402);
        }),
        { numRuns: 40 },
      );
    });
  });
});
