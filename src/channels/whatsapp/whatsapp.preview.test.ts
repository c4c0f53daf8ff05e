import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { expectError } from '../../../test/expectations.js';
import { openSessionWindow } from '../../../test/whatsapp.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { toIso } from '../../core/clock.js';
import { addSuppression } from '../../core/suppressions/manage-suppressions.js';
import { SESSION_WINDOW_MS } from './session-window.js';

const TO = '+14155552671';
const text = (value: string) => ({ type: 'text', text: value });
const welcome = (...names: string[]) => ({
  template: 'welcome',
  language: 'en_US',
  components: [{ type: 'body', parameters: names.map(text) }],
});

describeEachDialect('POST /v1/whatsapp/preview', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** Everything a preview must leave as it was: the ledger and the messages of the account. */
  const footprint = async (account: CreatedAccount) => ({
    ledger: (await t.store.credits.ledger(account.account.id)).length,
    messages: (await t.database.db.selectFrom('messages').select('id').where('account_id', '=', account.account.id).execute()).length,
  });
  const preview = async (token: string, body: unknown) => {
    const response = await t.call('POST', '/v1/whatsapp/preview', token, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  it('previews a template: its text filled in, its price, the window (closed: never wrote), sendable; writes nothing', async () => {
    const account = await t.createAccount({ credits: 5 });
    const token = await t.tokenFor(account);
    const before = await footprint(account);
    expect(await preview(token, Object.assign({ to: TO }, welcome('Ada', 'Herald')))).toEqual({
      type: 'template',
      message: 'Hello Ada, welcome to Herald!',
      credits: 0.8,
      session_window: { open: false, closes_at: null, closed_at: null },
      suppressed: false,
      available: 5,
      affordable: true,
      sendable: true,
      refusal: null,
    });
    expect(await footprint(account)).toEqual(before);
  });

  it('previews a session message: open until 24 h after they wrote, else refused as the send refuses it', async () => {
    const account = await t.createAccount({ credits: 5 });
    const token = await t.tokenFor(account);
    const wrote = t.clock.now();
    await openSessionWindow(t, account, TO, wrote);
    expect(await preview(token, { to: TO, message: 'Your table is ready' })).toMatchObject({
      type: 'session',
      message: 'Your table is ready',
      credits: 0.3,
      session_window: { open: true, closes_at: toIso(wrote + SESSION_WINDOW_MS), closed_at: null },
      sendable: true,
    });
    const other = '+14155552672';
    await openSessionWindow(t, account, other, wrote - SESSION_WINDOW_MS);
    const closed = await preview(token, { to: other, message: 'Still there?' });
    const send = expectError(
      await t.call('POST', '/v1/whatsapp/session', token, { to: other, message: 'Still there?' }),
      422,
      'SESSION_WINDOW_CLOSED',
    );
    expect(closed).toMatchObject({
      session_window: { open: false, closes_at: null, closed_at: toIso(wrote) },
      sendable: false,
      message: null,
      refusal: { code: 'SESSION_WINDOW_CLOSED', message: send.message },
    });
  });

  it('reports the template check, the suppression list and the credits the send would refuse on, with its words', async () => {
    const account = await t.createAccount({ credits: 0.5 });
    const token = await t.tokenFor(account);
    const mismatch = await preview(token, Object.assign({ to: TO }, welcome('Ada')));
    const sent = expectError(
      await t.call('POST', '/v1/whatsapp/send', token, Object.assign({ to: TO }, welcome('Ada'))),
      422,
      'TEMPLATE_PARAMS_MISMATCH',
    );
    expect(mismatch).toMatchObject({ sendable: false, credits: 0.8, refusal: { code: 'TEMPLATE_PARAMS_MISMATCH', message: sent.message } });

    const poor = await preview(token, Object.assign({ to: TO }, welcome('Ada', 'Herald')));
    const refused = expectError(
      await t.call('POST', '/v1/whatsapp/send', token, Object.assign({ to: TO }, welcome('Ada', 'Herald'))),
      402,
      'INSUFFICIENT_CREDITS',
    );
    expect(poor).toMatchObject({
      affordable: false,
      available: 0.5,
      sendable: false,
      refusal: { code: 'INSUFFICIENT_CREDITS', message: refused.message },
    });

    await addSuppression(t.store, {
      accountId: account.account.id,
      channel: 'whatsapp',
      recipient: TO,
      reason: 'opt_out',
      source: 'api',
      at: t.clock.now(),
    });
    const suppressed = await preview(token, Object.assign({ to: TO }, welcome('Ada', 'Herald')));
    const blocked = expectError(
      await t.call('POST', '/v1/whatsapp/send', token, Object.assign({ to: TO }, welcome('Ada', 'Herald'))),
      422,
      'RECIPIENT_SUPPRESSED',
    );
    expect(suppressed).toMatchObject({
      suppressed: true,
      sendable: false,
      refusal: { code: 'RECIPIENT_SUPPRESSED', message: blocked.message },
    });
  });

  describe('refused as the send refuses a malformed request', () => {
    it('answers 422 for a bad number, both template and message, a template without language, or neither', async () => {
      const token = await t.tokenFor(await t.createAccount());
      expectError(await t.call('POST', '/v1/whatsapp/preview', token, { to: '+1555', message: 'x' }), 422, 'INVALID_PHONE');
      for (const body of [
        Object.assign({ to: TO, message: 'x' }, welcome('Ada', 'Herald')),
        { to: TO, template: 'welcome' },
        { to: TO },
        { to: TO, message: 'x', extra: 1 },
      ]) {
        expectError(await t.call('POST', '/v1/whatsapp/preview', token, body), 422, 'VALIDATION_ERROR');
      }
    });

    it('answers 403 to a token without whatsapp:send', async () => {
      const account = await t.createAccount();
      const response = await t.call('POST', '/v1/whatsapp/preview', await t.tokenFor(account, 'whatsapp:read'), { to: TO, message: 'x' });
      expect(response.statusCode).toBe(403);
    });
  });

  describe('agrees with the send', () => {
    /** A template send with 0 to 3 names (welcome takes 2), or a session message to a number whose window is open or not. */
    const request = fc.oneof(
      fc.array(fc.constantFrom('Ada', 'Grace', 'Herald'), { maxLength: 3 }).map((names) => ({ kind: 'template' as const, names })),
      fc.record({ kind: fc.constant('session' as const), open: fc.boolean(), message: fc.string({ minLength: 1, maxLength: 50 }) }),
    );

    it('on cost, text and whether (and why) the send is refused, for any template or session send and any balance', async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(request, fc.integer({ min: 0, max: 12 }), async (given, tenths) => {
          const account = await t.createAccount({ credits: tenths / 10 });
          const token = await t.tokenFor(account);
          const to = `+1415555${String(1000 + (n++ % 9000)).padStart(4, '0')}`;
          if (given.kind === 'session' && given.open) await openSessionWindow(t, account, to);
          const body = given.kind === 'template' ? Object.assign({ to }, welcome(...given.names)) : { to, message: given.message };
          const seen = await preview(token, body);
          const send = await t.call('POST', given.kind === 'template' ? '/v1/whatsapp/send' : '/v1/whatsapp/session', token, body);
          expect(seen.sendable).toBe(send.statusCode === 200);
          if (send.statusCode === 200) {
            expect(seen.credits).toBe(send.json().data.credits_used);
            const detail = (await t.call('GET', `/v1/whatsapp/${send.json().data.message_id}`, token)).json().data;
            expect(seen.message).toBe(detail.message);
          } else {
            expect(seen.refusal).toEqual({ code: send.json().error.code, message: send.json().error.message });
          }
          expect(seen.affordable).toBe(seen.credits <= tenths / 10);
        }),
        { numRuns: 40 },
      );
    });
  });
});
