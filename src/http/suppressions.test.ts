import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import { acceptMessages } from '../core/messages/accept-messages.js';

describeEachDialect('the suppression list (docs/suppression.md)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const balance = async (token: string) => (await t.call('GET', '/v1/account/balance', token)).json().data;
  const suppress = (token: string, body: Record<string, unknown>) => t.call('POST', '/v1/suppressions', token, body);

  describe('the API', () => {
    it('adds an entry (201), answers the kept one when added again (200), lists it and removes it (then 404)', async () => {
      const account = await t.createAccount();
      const token = await t.tokenFor(account);
      const created = await suppress(token, { channel: 'sms', recipient: '+14155550111', note: 'asked by phone' });
      expect(created.statusCode).toBe(201);
      expect(created.json().data).toEqual({
        channel: 'sms',
        recipient: '+14155550111',
        reason: 'manual',
        source: 'api',
        note: 'asked by phone',
        created_at: new Date(t.clock.now()).toISOString(),
      });
      t.clock.advance(1000);
      const again = await suppress(token, { channel: 'sms', recipient: '+14155550111', reason: 'opt_out' });
      expect(again.statusCode).toBe(200);
      expect(again.json().data).toEqual(created.json().data);

      const listed = await t.call('GET', '/v1/suppressions', token);
      expect(listed.json().data).toEqual({ suppressions: [created.json().data], next_cursor: null });

      expect((await t.call('DELETE', '/v1/suppressions/sms/%2B14155550111', token)).json().data).toEqual({
        channel: 'sms',
        recipient: '+14155550111',
        deleted: true,
      });
      const gone = await t.call('DELETE', '/v1/suppressions/sms/%2B14155550111', token);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().error.code).toBe('NOT_FOUND');
    });

    it('finds an email address in any case, and answers the entry as it was kept', async () => {
      const token = await t.tokenFor(await t.createAccount());
      expect((await suppress(token, { channel: 'email', recipient: 'Bob@Example.com' })).json().data.recipient).toBe('bob@example.com');
      expect((await t.call('DELETE', '/v1/suppressions/email/BOB%40example.com', token)).json().data).toEqual({
        channel: 'email',
        recipient: 'bob@example.com',
        deleted: true,
      });
    });

    it('pages newest first with a cursor, filters by channel, and refuses a cursor it did not give', async () => {
      const account = await t.createAccount();
      const token = await t.tokenFor(account);
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1);
        await suppress(token, { channel: i % 2 === 0 ? 'sms' : 'email', recipient: i % 2 === 0 ? `+1415555020${i}` : `p${i}@example.com` });
      }
      const first = (await t.call('GET', '/v1/suppressions?limit=2', token)).json().data;
      expect(first.suppressions.map((s: { recipient: string }) => s.recipient)).toEqual(['+14155550204', 'p3@example.com']);
      const second = (await t.call('GET', `/v1/suppressions?limit=2&cursor=${first.next_cursor}`, token)).json().data;
      expect(second.suppressions.map((s: { recipient: string }) => s.recipient)).toEqual(['+14155550202', 'p1@example.com']);
      const third = (await t.call('GET', `/v1/suppressions?limit=2&cursor=${second.next_cursor}`, token)).json().data;
      expect(third).toMatchObject({ next_cursor: null });
      expect(third.suppressions).toHaveLength(1);
      const emails = (await t.call('GET', '/v1/suppressions?channel=email', token)).json().data.suppressions;
      expect(emails.map((s: { recipient: string }) => s.recipient)).toEqual(['p3@example.com', 'p1@example.com']);
      const bad = await t.call('GET', '/v1/suppressions?cursor=bm90IGEgY3Vyc29y', token);
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.details).toEqual([{ field: 'cursor', message: 'is not a cursor this API gave' }]);
      expect((await t.call('GET', '/v1/suppressions?channel=fax', token)).statusCode).toBe(422);
    });

    it('keeps accounts apart, and needs the suppressions:manage scope', async () => {
      const mine = await t.createAccount();
      const theirs = await t.createAccount();
      const myToken = await t.tokenFor(mine);
      const theirToken = await t.tokenFor(theirs);
      await suppress(theirToken, { channel: 'email', recipient: 'shared@example.com' });
      expect((await t.call('GET', '/v1/suppressions', myToken)).json().data.suppressions).toEqual([]);
      expect((await t.call('DELETE', '/v1/suppressions/email/shared%40example.com', myToken)).statusCode).toBe(404);
      // Their entry does not stop my sends.
      expect(
        (await t.call('POST', '/v1/email/send', myToken, { to: 'shared@example.com', from: 'a@acme.example', subject: 's', text: 't' }))
          .statusCode,
      ).toBe(200);

      const smsOnly = await t.tokenFor(mine, 'sms:send');
      const refused = await t.call('GET', '/v1/suppressions', smsOnly);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('INSUFFICIENT_SCOPE');
      expect(refused.json().error.message).toContain('suppressions:manage');
    });
  });

  describe('sends', () => {
    it('a send to a suppressed recipient is 422 RECIPIENT_SUPPRESSED on every channel, and nothing is charged', async () => {
      const account = await t.createAccount({ credits: 10 });
      const token = await t.tokenFor(account);
      await suppress(token, { channel: 'sms', recipient: '+14155550300', reason: 'opt_out' });
      await suppress(token, { channel: 'email', recipient: 'Stop.Me@Example.com' });
      await suppress(token, { channel: 'telegram', recipient: '777' });
      const before = await balance(token);

      const sends: Array<[string, unknown]> = [
        ['/v1/sms/send', { to: '+14155550300', message: 'hello' }],
        ['/v1/email/send', { to: 'stop.me@example.COM', from: 'a@acme.example', subject: 's', text: 't' }],
        ['/v1/telegram/send', { chat_id: '777', message: 'hello' }],
      ];
      for (const [path, body] of sends) {
        const response = await t.call('POST', path, token, body);
        expect(response.statusCode, path).toBe(422);
        expect(response.json().error.code, path).toBe('RECIPIENT_SUPPRESSED');
      }
      expect((await t.call('POST', '/v1/sms/send', token, { to: '+14155550300', message: 'x' })).json().error.message).toContain(
        "is on this account's sms suppression list (opt out): nothing was sent or charged.",
      );
      expect(await balance(token)).toEqual(before);
      expect((await t.call('GET', '/v1/messages', token)).json().data.messages).toEqual([]);

      // Removed from the list, they can be sent to again.
      await t.call('DELETE', '/v1/suppressions/sms/%2B14155550300', token);
      expect((await t.call('POST', '/v1/sms/send', token, { to: '+14155550300', message: 'welcome back' })).statusCode).toBe(200);
    });

    it('a bulk send lists suppressed recipients in rejected and sends the rest; all suppressed is 422; preview agrees', async () => {
      const account = await t.createAccount({ credits: 10 });
      const token = await t.tokenFor(account);
      await suppress(token, { channel: 'sms', recipient: '+14155550401' });
      const body = { recipients: ['+14155550400', '+14155550401', 'nope'], message: 'sale' };

      const preview = (await t.call('POST', '/v1/sms/preview', token, body)).json().data;
      expect(preview.recipients).toBe(1);
      expect(preview.rejected.map((r: { to: string; error: { code: string } }) => [r.to, r.error.code])).toEqual([
        ['nope', 'INVALID_PHONE'],
        ['+14155550401', 'RECIPIENT_SUPPRESSED'],
      ]);
      // The text alone is priced for one recipient; a suppressed `to` makes it none.
      expect((await t.call('POST', '/v1/sms/preview', token, { message: 'sale' })).json().data).toMatchObject({
        recipients: 1,
        rejected: [],
      });
      const single = (await t.call('POST', '/v1/sms/preview', token, { to: '+14155550401', message: 'sale' })).json().data;
      expect(single).toMatchObject({
        recipients: 0,
        credits: 0,
        rejected: [{ to: '+14155550401', error: { code: 'RECIPIENT_SUPPRESSED' } }],
      });

      const sent = await t.call('POST', '/v1/sms/bulk', token, body);
      expect(sent.statusCode).toBe(200);
      expect(sent.json().data.messages.map((m: { to: string }) => m.to)).toEqual(['+14155550400']);
      expect(sent.json().data.rejected).toEqual(preview.rejected);
      expect(sent.json().data.credits_used).toBe(preview.credits);

      const all = await t.call('POST', '/v1/sms/bulk', token, { recipients: ['+14155550401'], message: 'sale' });
      expect(all.statusCode).toBe(422);
      expect(all.json().error).toMatchObject({ code: 'RECIPIENT_SUPPRESSED', details: [{ field: 'recipients.0' }] });
    });
  });

  describe('what the channels report', () => {
    it('an email hard bounce and a complaint suppress the address, in the transaction of their event; the next send is refused', async () => {
      const account = await t.createAccount({ credits: 10 });
      const token = await t.tokenFor(account);
      const send = (to: string) => t.call('POST', '/v1/email/send', token, { to, from: 'a@acme.example', subject: 's', text: 't' });
      expect((await send('Bounce@Sandbox.test')).statusCode).toBe(200);
      expect((await send('complaint@sandbox.test')).statusCode).toBe(200);
      expect((await send('fine@example.com')).statusCode).toBe(200);
      await t.drain();
      // The sandbox's complaint comes a moment after the delivery receipt.
      t.clock.advance(10);
      await t.drain();
      const list = (await t.call('GET', '/v1/suppressions', token)).json().data.suppressions;
      expect(list.map((e: { recipient: string; reason: string; source: string }) => [e.recipient, e.reason, e.source]).sort()).toEqual([
        ['bounce@sandbox.test', 'hard_bounce', 'email_bounce'],
        ['complaint@sandbox.test', 'complaint', 'email_complaint'],
      ]);
      for (const to of ['bounce@sandbox.test', 'COMPLAINT@sandbox.test'])
        expect((await send(to)).json().error.code, to).toBe('RECIPIENT_SUPPRESSED');
      expect((await send('fine@example.com')).statusCode).toBe(200);
    });

    it('a Telegram chat whose user blocked the bot is suppressed; other chats are not', async () => {
      const account = await t.createAccount({ credits: 10 });
      const token = await t.tokenFor(account);
      expect((await t.call('POST', '/v1/telegram/send', token, { chat_id: '403', message: 'hi' })).statusCode).toBe(200);
      expect((await t.call('POST', '/v1/telegram/send', token, { chat_id: '404404', message: 'hi' })).statusCode).toBe(200);
      await t.drain();
      const list = (await t.call('GET', '/v1/suppressions?channel=telegram', token)).json().data.suppressions;
      expect(list).toMatchObject([{ channel: 'telegram', recipient: '403', reason: 'blocked', source: 'telegram_blocked' }]);
      expect((await t.call('POST', '/v1/telegram/send', token, { chat_id: '403', message: 'again' })).json().error.code).toBe(
        'RECIPIENT_SUPPRESSED',
      );
    });
  });

  describe('what a new entry stops', () => {
    it('a scheduled message to the recipient fails at once with RECIPIENT_SUPPRESSED and its credits are released; others go', async () => {
      const account = await t.createAccount({ credits: 10 });
      const token = await t.tokenFor(account);
      const later = new Date(t.clock.now() + 3600_000).toISOString();
      const stopped = (await t.call('POST', '/v1/sms/send', token, { to: '+14155550600', message: 'reminder', scheduled_at: later })).json()
        .data;
      const kept = (await t.call('POST', '/v1/sms/send', token, { to: '+14155550601', message: 'reminder', scheduled_at: later })).json()
        .data;
      const email = (
        await t.call('POST', '/v1/email/send', token, { to: 'Later@Example.com', from: 'a@acme.example', subject: 's', text: 't' })
      ).json().data;
      expect((await balance(token)).reserved).toBeGreaterThan(0);

      await suppress(token, { channel: 'sms', recipient: '+14155550600', reason: 'opt_out' });
      await suppress(token, { channel: 'email', recipient: 'later@example.com' });
      let reader = token;
      const status = async (id: string) => (await t.call('GET', `/v1/messages/${id}`, reader)).json().data;
      expect(await status(stopped.message_id)).toMatchObject({
        status: 'failed',
        credits_used: 0,
        error: { code: 'RECIPIENT_SUPPRESSED' },
      });
      expect(await status(email.message_id)).toMatchObject({ status: 'failed', error: { code: 'RECIPIENT_SUPPRESSED' } });
      expect((await status(kept.message_id)).status).toBe('queued');
      t.clock.advance(3600_000);
      await t.drain();
      reader = await t.tokenFor(account); // the first token has expired meanwhile
      expect((await status(kept.message_id)).status).toBe('delivered');
      expect((await status(stopped.message_id)).status).toBe('failed');
    });

    it('stops 1,000 queued messages to the recipient at once and the rest when a worker takes them: none is sent, all credits come back', async () => {
      const account = await t.createAccount({ credits: 2_000 });
      let token = await t.tokenFor(account);
      const later = new Date(t.clock.now() + 3600_000).toISOString();
      const ids: string[] = [];
      for (let sent = 0; sent < 1_003; sent += 100) {
        const wave = Array.from({ length: Math.min(100, 1_003 - sent) }, () =>
          t.call('POST', '/v1/sms/send', token, { to: '+14155550700', message: 'daily', scheduled_at: later }),
        );
        for (const response of await Promise.all(wave)) ids.push(response.json().data.message_id);
      }
      const other = (await t.call('POST', '/v1/sms/send', token, { to: '+14155550701', message: 'daily', scheduled_at: later })).json()
        .data;
      expect((await balance(token)).reserved).toBe(1_004);

      expect((await suppress(token, { channel: 'sms', recipient: '+14155550700', reason: 'opt_out' })).statusCode).toBe(201);
      const queued = async () =>
        (await t.call('GET', '/v1/messages?status=queued&limit=100', token))
          .json()
          .data.messages.map((m: { message_id: string }) => m.message_id);
      // 1,000 at once, in the entry's transaction; 3 still wait for their time.
      expect(await balance(token)).toMatchObject({ reserved: 4 });
      const waiting = await queued();
      expect(waiting).toHaveLength(4);
      expect(waiting).toContain(other.message_id);

      t.clock.advance(3600_000);
      await t.drain();
      token = await t.tokenFor(account); // the first token has expired meanwhile
      expect(await balance(token)).toMatchObject({ reserved: 0, available: 1_999 });
      for (const id of [ids[0], ids[999], ids[1_000], ids[1_002]]) {
        expect((await t.call('GET', `/v1/messages/${id}`, token)).json().data, id).toMatchObject({
          status: 'failed',
          credits_used: 0,
          error: { code: 'RECIPIENT_SUPPRESSED' },
        });
      }
      expect((await t.call('GET', `/v1/messages/${other.message_id}`, token)).json().data.status).toBe('delivered');
      // The sandbox (the carrier) never saw the suppressed recipient's messages; it took the other one.
      expect((await t.store.sandbox.findMany(ids)).size).toBe(0);
      expect(await t.store.sandbox.find(other.message_id)).toMatchObject({ recipient: '+14155550701' });
    });

    it('checks the list again when a worker takes a message: an entry the send did not see (as one written beside it) stops it, a cc too, a bulk send too', async () => {
      const account = await t.createAccount({ credits: 100 });
      const token = await t.tokenFor(account);
      const single = (await t.call('POST', '/v1/sms/send', token, { to: '+14155550800', message: 'hi' })).json().data;
      const bulk = (await t.call('POST', '/v1/sms/bulk', token, { recipients: ['+14155550801', '+14155550802'], message: 'hi' })).json()
        .data;
      const email = (
        await t.call('POST', '/v1/email/send', token, {
          to: 'a@example.com',
          cc: ['B@example.com'],
          from: 'x@acme.example',
          subject: 's',
          text: 't',
        })
      ).json().data;
      // Entries the sends' own checks did not see: written behind the API's back, as a transaction
      // running beside theirs would be on PostgreSQL (neither sees the other), failing nothing queued.
      const entry = {
        accountId: account.account.id,
        reason: 'opt_out' as const,
        source: 'api' as const,
        note: null,
        createdAt: t.clock.now(),
      };
      await t.store.suppressions.insert({ ...entry, channel: 'sms', recipient: '+14155550800' });
      await t.store.suppressions.insert({ ...entry, channel: 'sms', recipient: '+14155550802' });
      await t.store.suppressions.insert({ ...entry, channel: 'email', recipient: 'b@example.com' });
      await t.drain();

      const status = async (id: string) => (await t.call('GET', `/v1/messages/${id}`, token)).json().data;
      const [toFirst, toSecond] = bulk.messages.map((m: { message_id: string }) => m.message_id);
      for (const id of [single.message_id, toSecond, email.message_id]) {
        expect(await status(id), id).toMatchObject({ status: 'failed', credits_used: 0, error: { code: 'RECIPIENT_SUPPRESSED' } });
      }
      expect((await status(toFirst)).status).toBe('delivered');
      expect((await t.store.sandbox.findMany([single.message_id, toSecond, email.message_id])).size).toBe(0);
      expect(await balance(token)).toMatchObject({ reserved: 0 });
    });

    it("a STOP's confirmation (exempt) goes to someone on the list, and a later entry for them does not stop it while it waits", async () => {
      const account = await t.createAccount({ credits: 10 });
      const token = await t.tokenFor(account);
      await suppress(token, { channel: 'sms', recipient: '+14155550900', reason: 'opt_out' });
      const later = t.clock.now() + 3600_000;
      const draft = {
        channel: 'sms' as const,
        to: '+14155550900',
        body: 'You are unsubscribed.',
        segments: 1,
        costMicros: 1_000_000,
        scheduledAt: later,
      };
      const [confirmation] = await acceptMessages({ store: t.store, clock: t.clock, prices: {} }, account.account.id, [draft], {
        suppressions: 'exempt',
      });
      // Removed and added again (say, START then STOP) while the confirmation waits: it is passed over.
      expect((await t.call('DELETE', '/v1/suppressions/sms/%2B14155550900', token)).statusCode).toBe(200);
      expect((await suppress(token, { channel: 'sms', recipient: '+14155550900', reason: 'opt_out' })).statusCode).toBe(201);
      expect((await t.store.messages.findById(confirmation?.id as string))?.status).toBe('queued');
      t.clock.advance(3600_000);
      await t.drain();
      expect((await t.store.messages.findById(confirmation?.id as string))?.status).toBe('delivered');
    });

    it('an email to anyone suppressed among its cc is refused; an email with cc carries no unsubscribe link (it names one address)', async () => {
      const account = await t.createAccount({ credits: 10 });
      const token = await t.tokenFor(account);
      await suppress(token, { channel: 'email', recipient: 'gone@example.com' });
      const body = { to: 'ok@example.com', cc: ['Gone@example.com'], from: 'a@acme.example', subject: 's', text: 't' };
      expect((await t.call('POST', '/v1/email/send', token, body)).json().error.code).toBe('RECIPIENT_SUPPRESSED');
      const sent = await t.call('POST', '/v1/email/send', token, { ...body, cc: ['other@example.com'] });
      expect(sent.statusCode).toBe(200);
      expect(JSON.parse((await t.store.messages.payload(sent.json().data.message_id)) ?? '{}').list_unsubscribe).toBeUndefined();
    });

    it('refuses an entry that is not a recipient of its channel, as sends would never name it', async () => {
      const account = await t.createAccount();
      const token = await t.tokenFor(account);
      const refusals: Array<[string, string, string]> = [
        ['sms', '14155552671', 'must be an E.164 number such as +14155552671'],
        ['whatsapp', '+1 415 555 2671', 'must be an E.164 number such as +14155552671'],
        ['email', 'not-an-address', 'must be an email address'],
        ['telegram', 'someone', 'must be a chat id (123456789, -1001234567890) or a @username'],
      ];
      for (const [channel, recipient, message] of refusals) {
        const response = await suppress(token, { channel, recipient });
        expect(response.statusCode, recipient).toBe(422);
        expect(response.json().error.details, recipient).toEqual([{ field: 'recipient', message }]);
      }
      // A Telegram username is kept lower-cased: its case tells no users apart.
      expect((await suppress(token, { channel: 'telegram', recipient: '@Herald_News' })).json().data.recipient).toBe('@herald_news');
      expect((await t.call('POST', '/v1/telegram/send', token, { chat_id: '@HERALD_news', message: 'x' })).json().error.code).toBe(
        'RECIPIENT_SUPPRESSED',
      );
      expect((await t.call('GET', '/v1/suppressions', token)).json().data.suppressions).toHaveLength(1);
    });
  });
});
