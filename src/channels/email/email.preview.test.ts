import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { accountSnapshot, expectError } from '../../../test/expectations.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { assignAddress } from '../../core/inbound/addresses.js';
import { addSuppression } from '../../core/suppressions/manage-suppressions.js';

const LIMIT = 2048;
const MINIMAL = { to: 'ada@example.com', from: 'billing@acme.example', subject: 'Your invoice', text: 'Hello Ada' };
/** Another account's reply address: a send from it is refused. */
const TAKEN = 'replies@taken.example';

/** An email of exactly `bytes` (subject, text and one attachment's decoded bytes). */
const emailOf = (bytes: number, extra: Record<string, unknown> = {}) => {
  const subject = 'Sized';
  const text = 'Body';
  const file = Buffer.alloc(bytes - subject.length - text.length, 1);
  return { ...MINIMAL, subject, text, attachments: [{ filename: 'f.bin', content: file.toString('base64') }], ...extra };
};

describeEachDialect('POST /v1/email/preview', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { emailMaxBytes: LIMIT, bodyLimitBytes: 1024 });
    const other = await t.createAccount();
    await assignAddress(t.store, { accountId: other.account.id, channel: 'email', address: TAKEN, at: t.clock.now() });
  });
  afterAll(() => t.close());

  const preview = async (token: string, body: unknown) => {
    const response = await t.call('POST', '/v1/email/preview', token, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const suppress = (account: CreatedAccount, recipient: string) =>
    addSuppression(t.store, {
      accountId: account.account.id,
      channel: 'email',
      recipient,
      reason: 'hard_bounce',
      source: 'api',
      at: t.clock.now(),
    });

  it('previews an email: its price, its size against EMAIL_MAX_BYTES, sendable; writes nothing', async () => {
    const account = await t.createAccount({ credits: 5 });
    const token = await t.tokenFor(account);
    const before = await accountSnapshot(t, account);
    expect(await preview(token, MINIMAL)).toEqual({
      size_bytes: 'Your invoice'.length + 'Hello Ada'.length,
      max_bytes: LIMIT,
      suppressed: [],
      from_allowed: true,
      credits: 0.1,
      available: 5,
      affordable: true,
      sendable: true,
      refusal: null,
    });
    expect(await accountSnapshot(t, account)).toEqual(before);
  });

  it('reports an email over the limit with the 413 the send answers, counted as the send counts it', async () => {
    const token = await t.tokenFor(await t.createAccount({ credits: 5 }));
    expect(await preview(token, emailOf(LIMIT))).toMatchObject({ size_bytes: LIMIT, sendable: true });
    const send = expectError(await t.call('POST', '/v1/email/send', token, emailOf(LIMIT + 1)), 413, 'PAYLOAD_TOO_LARGE');
    expect(await preview(token, emailOf(LIMIT + 1))).toMatchObject({
      size_bytes: LIMIT + 1,
      sendable: false,
      refusal: { code: 'PAYLOAD_TOO_LARGE', message: send.message },
    });
  });

  it('lists the suppressed among to and cc, and refuses as the send does', async () => {
    const account = await t.createAccount({ credits: 5 });
    const token = await t.tokenFor(account);
    await suppress(account, 'grace@example.com');
    const body = { ...MINIMAL, cc: ['bob@example.com', 'Grace@Example.com'] };
    const send = expectError(await t.call('POST', '/v1/email/send', token, body), 422, 'RECIPIENT_SUPPRESSED');
    expect(await preview(token, body)).toMatchObject({
      suppressed: ['grace@example.com'],
      sendable: false,
      refusal: { code: 'RECIPIENT_SUPPRESSED', message: send.message },
    });
  });

  it("names, as the send does, the first suppressed recipient in the email's order (to, then cc), however the list sorts them", async () => {
    const account = await t.createAccount({ credits: 5 });
    const token = await t.tokenFor(account);
    for (const recipient of ['zed@example.com', 'abe@example.com']) await suppress(account, recipient);
    const body = { ...MINIMAL, to: 'zed@example.com', cc: ['abe@example.com'] };
    const send = expectError(await t.call('POST', '/v1/email/send', token, body), 422, 'RECIPIENT_SUPPRESSED');
    expect(send.message).toContain('zed@example.com');
    expect((await preview(token, body)).refusal).toEqual({ code: 'RECIPIENT_SUPPRESSED', message: send.message });
  });

  it("refuses a from that is another account's address, and credits that do not cover the price, with the send's words", async () => {
    const account = await t.createAccount({ credits: 0.05 });
    const token = await t.tokenFor(account);
    const poor = expectError(await t.call('POST', '/v1/email/send', token, MINIMAL), 402, 'INSUFFICIENT_CREDITS');
    expect(await preview(token, MINIMAL)).toMatchObject({
      affordable: false,
      available: 0.05,
      refusal: { code: 'INSUFFICIENT_CREDITS', message: poor.message },
    });
    const foreign = { ...MINIMAL, from: TAKEN };
    const taken = expectError(await t.call('POST', '/v1/email/send', token, foreign), 422, 'VALIDATION_ERROR');
    expect(await preview(token, foreign)).toMatchObject({
      from_allowed: false,
      affordable: false,
      refusal: { code: 'VALIDATION_ERROR', message: taken.message },
    });
  });

  it("refuses a reply_to that is another account's address (its replies would go there), on the send and its preview", async () => {
    const account = await t.createAccount();
    const token = await t.tokenFor(account);
    const foreign = { ...MINIMAL, reply_to: TAKEN };
    const refused = expectError(await t.call('POST', '/v1/email/send', token, foreign), 422, 'VALIDATION_ERROR');
    expect(refused.details).toEqual([{ field: 'reply_to', message: `${TAKEN} is another account's address` }]);
    expect(await preview(token, foreign)).toMatchObject({ refusal: { code: 'VALIDATION_ERROR', message: refused.message } });
    // An address of no account's is free to use.
    expect((await t.call('POST', '/v1/email/send', token, { ...MINIMAL, reply_to: 'help@example.com' })).statusCode).toBe(200);
  });

  describe('refused as the send refuses a malformed request', () => {
    it('answers the same 422 for a missing from or body, bad base64 or an unknown field', async () => {
      const token = await t.tokenFor(await t.createAccount());
      for (const body of [
        { to: MINIMAL.to, subject: 's' },
        { ...MINIMAL, attachments: [{ filename: 'a.txt', content: 'not base64!' }] },
        { ...MINIMAL, to: 'nobody' },
        { ...MINIMAL, extra: 1 },
      ]) {
        const send = expectError(await t.call('POST', '/v1/email/send', token, body), 422, 'VALIDATION_ERROR');
        expect(expectError(await t.call('POST', '/v1/email/preview', token, body), 422, 'VALIDATION_ERROR')).toEqual(send);
      }
    });

    it('answers 403 to a token without email:send', async () => {
      const account = await t.createAccount();
      const response = await t.call('POST', '/v1/email/preview', await t.tokenFor(account, 'email:read'), MINIMAL);
      expect(response.statusCode).toBe(403);
    });
  });

  describe('agrees with the send', () => {
    /** An email near the size limit, to and cc suppressed or not, from taken or not. */
    const request = fc.record({
      bytes: fc.integer({ min: LIMIT - 2, max: LIMIT + 2 }),
      toSuppressed: fc.boolean(),
      cc: fc.array(fc.boolean(), { maxLength: 3 }),
      fromTaken: fc.boolean(),
      tenths: fc.integer({ min: 0, max: 2 }),
    });

    it('on cost, size and whether (and why) the send is refused, for any email and balance', async () => {
      await fc.assert(
        fc.asyncProperty(request, async (given) => {
          const account = await t.createAccount({ credits: given.tenths / 10 });
          const token = await t.tokenFor(account);
          if (given.toSuppressed) await suppress(account, MINIMAL.to);
          const cc = given.cc.map((_, i) => `cc${i}@example.com`);
          for (const [i, suppressed] of given.cc.entries()) if (suppressed) await suppress(account, `cc${i}@example.com`);
          const body = emailOf(given.bytes, { cc, ...(given.fromTaken ? { from: TAKEN } : {}) });
          const seen = await preview(token, body);
          const send = await t.call('POST', '/v1/email/send', token, body);
          expect(seen.sendable).toBe(send.statusCode === 200);
          if (send.statusCode === 200) expect(seen.credits).toBe(send.json().data.credits_used);
          else expect(seen.refusal).toEqual({ code: send.json().error.code, message: send.json().error.message });
          expect(seen.size_bytes).toBe(given.bytes);
          expect(seen.suppressed.length).toBe([given.toSuppressed, ...given.cc].filter(Boolean).length);
          expect(seen.from_allowed).toBe(!given.fromTaken);
          expect(seen.affordable).toBe(seen.credits <= given.tenths / 10);
        }),
        { numRuns: 30 },
      );
    });
  });
});
