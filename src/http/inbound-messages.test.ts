import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import { startReceiver } from '../../test/webhook-receiver.js';
import { assignAddress } from '../core/inbound/addresses.js';
import type { ReceivedMessage } from '../core/inbound/inbound-message.js';
import { keywordOf } from '../core/inbound/keywords.js';
import { INBOUND_MAX_TEXT, sendConfirmation } from '../core/inbound/receive-messages.js';
import { verifyWebhook } from '../webhooks/verify.js';

describe('opt-out keywords', () => {
  it.each([
    ['STOP', 'stop', 'en'],
    ['stop', 'stop', 'en'],
    ['  Stop! ', 'stop', 'en'],
    ['UNSUBSCRIBE.', 'stop', 'en'],
    ['StopAll', 'stop', 'en'],
    ['start', 'start', 'en'],
    ['UNSTOP', 'start', 'en'],
    ['baja', 'stop', 'es'],
    ['¡Alta!', 'start', 'es'],
    ['arrêt', 'stop', 'fr'],
    ['Abmelden', 'stop', 'de'],
  ])('reads %j as %s (%s)', (text, action, language) => {
    expect(keywordOf(text)).toEqual({ action, language });
  });

  it.each(['stop it', 'please stop', 'STOP STOP', '', 'Stopping', 'Yes'])('reads %j as no keyword', (text) => {
    expect(keywordOf(text)).toBeUndefined();
  });
});

describeEachDialect('inbound messages (docs/inbound.md)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  let numbers = 0;
  /** A fresh account with its own SMS and WhatsApp number, and a token with every scope. */
  async function accountWithNumber(credits = 100) {
    const account = await t.createAccount({ credits });
    const number = `+1415556${String(1000 + numbers++).padStart(4, '0')}`;
    await assignAddress(t.store, { accountId: account.account.id, channel: 'sms', address: number, at: t.clock.now() });
    await assignAddress(t.store, { accountId: account.account.id, channel: 'whatsapp', address: number, at: t.clock.now() });
    return { account, number, token: await t.tokenFor(account) };
  }
  const sms = (to: string, from: string, text: string, extra: Partial<ReceivedMessage> = {}): ReceivedMessage =>
    Object.assign({ channel: 'sms', from, to, text, receivedAt: t.clock.now() }, extra);
  const balance = async (token: string) => (await t.call('GET', '/v1/account/balance', token)).json().data.available;

  it('stores a message to the account’s number, lists it with direction=inbound and reads it by id', async () => {
    const { account, number, token } = await accountWithNumber();
    const received = await t.receive(sms(number, '+14155552123', 'Yes, 3pm works', { providerMessageId: 'mo-1' }));
    expect(received.outcome).toBe('stored');
    const id = received.outcome === 'stored' ? received.message.id : '';
    expect(id).toMatch(/^msg_sms_[0-9a-z]{26}$/);

    const expected = {
      message_id: id,
      direction: 'inbound',
      channel: 'sms',
      from: '+14155552123',
      to: number,
      text: 'Yes, 3pm works',
      details: {},
      received_at: new Date(t.clock.now()).toISOString(),
      created_at: new Date(t.clock.now()).toISOString(),
    };
    const read = await t.call('GET', `/v1/messages/${id}`, token);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(expected);
    const listed = await t.call('GET', '/v1/messages?direction=inbound', token);
    expect(listed.json().data).toEqual({ messages: [expected], pagination: { total: 1, limit: 20, offset: 0, has_more: false } });
    // Sent messages are listed as before, without it.
    expect((await t.call('GET', '/v1/messages', token)).json().data.messages).toEqual([]);
    // Another account sees nothing of it.
    const other = await t.tokenFor(await t.createAccount());
    expect((await t.call('GET', `/v1/messages/${id}`, other)).statusCode).toBe(404);
    expect((await t.call('GET', '/v1/messages?direction=inbound', other)).json().data.messages).toEqual([]);
    expect(account.account.id).toBeDefined();
  });

  it('needs the read scope of the channel, and refuses a status filter on received messages', async () => {
    const { account, number } = await accountWithNumber();
    const received = await t.receive(sms(number, '+14155552124', 'hello'));
    const id = received.outcome === 'stored' ? received.message.id : '';
    const emailOnly = await t.tokenFor(account, 'email:read');
    expect((await t.call('GET', `/v1/messages/${id}`, emailOnly)).statusCode).toBe(403);
    expect((await t.call('GET', '/v1/messages?direction=inbound', emailOnly)).json().data.messages).toEqual([]);
    const smsToken = await t.tokenFor(account, 'sms:read');
    const filtered = await t.call('GET', '/v1/messages?direction=inbound&status=delivered', smsToken);
    expect(filtered.statusCode).toBe(422);
    expect(filtered.json().error.details).toEqual([{ field: 'status', message: 'filters sent messages only (direction=outbound)' }]);
  });

  it('drops a message to an address no account has, and stores a provider’s resend once', async () => {
    expect((await t.receive(sms('+19995550000', '+14155552125', 'anyone?'))).outcome).toBe('unrouted');
    const { number, token } = await accountWithNumber();
    const first = await t.receive(sms(number, '+14155552125', 'once', { providerMessageId: 'dup-1' }));
    const again = await t.receive(sms(number, '+14155552125', 'once', { providerMessageId: 'dup-1' }));
    expect([first.outcome, again.outcome]).toEqual(['stored', 'duplicate']);
    expect((await t.call('GET', '/v1/messages?direction=inbound', token)).json().data.pagination.total).toBe(1);
  });

  it('keeps a text with a NUL or half an emoji, each replaced by U+FFFD, on both stores', async () => {
    const { number, token } = await accountWithNumber();
    const received = await t.receive(sms(number, '+14155552128', 'a\u0000b\ud83d', { providerMessageId: '<ab\u0000cd@x.y>' }));
    const id = received.outcome === 'stored' ? received.message.id : '';
    expect((await t.call('GET', `/v1/messages/${id}`, token)).json().data.text).toBe('a\uFFFDb\uFFFD');
  });

  it('keeps details a store cannot hold as text (a NUL in a subject, in a list) replaced too, on both stores', async () => {
    const { number, token } = await accountWithNumber();
    const details = { subject: 'raw\u0000nul', references: ['<a\u0000b@x>'], attachments: 2 };
    const received = await t.receive(sms(number, '+14155552129', 'hi', { providerMessageId: 'nul-details', details }));
    const id = received.outcome === 'stored' ? received.message.id : '';
    expect((await t.call('GET', `/v1/messages/${id}`, token)).json().data.details).toEqual({
      subject: 'raw\uFFFDnul',
      references: ['<a\uFFFDb@x>'],
      attachments: 2,
    });
  });

  it('keeps at most INBOUND_MAX_TEXT characters of a text, never half a surrogate pair, and no date after its arrival', async () => {
    const { number, token } = await accountWithNumber();
    const long = `${'a'.repeat(INBOUND_MAX_TEXT - 1)}😀${'b'.repeat(900_000)}`;
    const received = await t.receive(sms(number, '+14155552130', long, { receivedAt: t.clock.now() + 86_400_000 }));
    const id = received.outcome === 'stored' ? received.message.id : '';
    const shown = (await t.call('GET', `/v1/messages/${id}`, token)).json().data;
    expect(shown.text).toBe('a'.repeat(INBOUND_MAX_TEXT - 1));
    expect(Date.parse(shown.received_at)).toBeLessThanOrEqual(t.clock.now());
  });

  it('refuses a send from another account’s number (its replies and STOPs would go there); its own number and a sender id are fine', async () => {
    const owner = await accountWithNumber();
    const other = await accountWithNumber();
    const foreign = await t.call('POST', '/v1/sms/send', other.token, { to: '+14155552140', message: 'hi', sender: owner.number });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.details).toEqual([{ field: 'sender', message: `${owner.number} is another account's address` }]);
    const bulk = await t.call('POST', '/v1/sms/bulk', other.token, { recipients: ['+14155552140'], message: 'hi', sender: owner.number });
    expect(bulk.statusCode).toBe(422);
    expect(
      (await t.call('POST', '/v1/sms/send', other.token, { to: '+14155552140', message: 'hi', sender: other.number })).statusCode,
    ).toBe(200);
    expect((await t.call('POST', '/v1/sms/send', other.token, { to: '+14155552140', message: 'hi', sender: 'Acme' })).statusCode).toBe(200);
  });

  it('keeps a number as one address with or without its +: it cannot be given to two accounts', async () => {
    const a = await t.createAccount();
    const b = await t.createAccount();
    const given = await assignAddress(t.store, { accountId: a.account.id, channel: 'sms', address: '1 415 555 0177', at: t.clock.now() });
    expect(given.address).toBe('+14155550177');
    await expect(
      assignAddress(t.store, { accountId: b.account.id, channel: 'sms', address: '+14155550177', at: t.clock.now() }),
    ).rejects.toThrow('already belongs to an account');
  });

  it('gives an account only an address written as its channel writes them, and says how it is written', async () => {
    const account = await t.createAccount();
    const give = (channel: string, address: string) =>
      assignAddress(t.store, { accountId: account.account.id, channel, address, at: t.clock.now() });
    for (const [channel, address, says] of [
      ['telegram', '<b>bot</b>', "the bot's @username"],
      ['telegram', '@ab', "the bot's @username"],
      // Without its @ it would never match: the provider names the bot with it.
      ['telegram', 'acme_bot', "the bot's @username"],
      ['email', 'notanemail', 'an email address'],
      ['whatsapp', '12', 'the business number'],
      ['sms', 'two words!', 'a number'],
    ] as const) {
      await expect(give(channel, address), `${channel} ${address}`).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'address', message: expect.stringContaining(says) }],
      });
    }
    for (const [channel, address] of [
      ['telegram', '@Acme_Support_Bot'],
      ['email', 'Replies@Acme.example'],
      ['email', '@acme.example'],
      ['whatsapp', '+14155550190'],
      ['sms', '12345'],
      ['sms', 'ACME'],
      ['sms', 'ACME-CO'],
    ] as const) {
      expect((await give(channel, address)).channel, `${channel} ${address}`).toBe(channel);
    }
    expect((await t.store.inbound.listAddresses(account.account.id)).map((a) => a.address)).toContain('@acme_support_bot');
  });

  it('finds the account by the number with or without its +, as an SMSC may write it', async () => {
    const { number } = await accountWithNumber();
    expect((await t.receive(sms(number.slice(1), '+14155552126', 'no plus'))).outcome).toBe('stored');
  });

  it('fires a signed message.received event with the message as GET shows it', async () => {
    const receiver = await startReceiver(() => 204);
    try {
      const { number, token } = await accountWithNumber();
      const hook = await t.call('POST', '/v1/webhooks', token, { url: `${receiver.url}/in`, events: ['message.received'] });
      expect(hook.statusCode).toBe(201);
      const secret = (await t.call('GET', '/v1/webhooks/secret', token)).json().data.secret;
      const received = await t.receive(sms(number, '+14155552127', 'See you then'));
      const id = received.outcome === 'stored' ? received.message.id : '';
      await t.drain();
      await receiver.waitFor(1, 5_000);
      const [delivery] = receiver.received;
      const event = JSON.parse(delivery?.body ?? '{}');
      expect(event.type).toBe('message.received');
      expect(event.data).toEqual((await t.call('GET', `/v1/messages/${id}`, token)).json().data);
      expect(verifyWebhook({ secret, body: delivery?.body ?? '', headers: delivery?.headers ?? {} })).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  describe('STOP and START', () => {
    /** The messages the account sent to `to` once the confirmation jobs ran, oldest first. */
    const sentTo = async (token: string, to: string) => {
      await t.drain();
      const all = (await t.call('GET', '/v1/messages?limit=100', token)).json().data.messages as Array<{ to: string; message_id: string }>;
      const mine = all.filter((m) => m.to === to).reverse();
      return Promise.all(mine.map(async (m) => (await t.call('GET', `/v1/sms/${m.message_id}`, token)).json().data));
    };

    it('STOP suppresses the writer: the next send is 422 RECIPIENT_SUPPRESSED with nothing charged, and a confirmation is sent', async () => {
      const { number, token } = await accountWithNumber();
      const before = await balance(token);
      const stop = await t.receive(sms(number, '+14155552130', 'STOP'));
      expect(stop).toMatchObject({ outcome: 'stored', keyword: 'stop' });
      const [confirmation] = await sentTo(token, '+14155552130');
      expect(confirmation).toMatchObject({
        to: '+14155552130',
        sender: number,
        message: 'You have been unsubscribed and will receive no further messages. Reply START to resubscribe.',
        status: 'delivered',
      });
      const afterConfirmation = await balance(token);
      expect(afterConfirmation).toBeLessThan(before);

      const entry = (await t.call('GET', '/v1/suppressions?channel=sms', token)).json().data.suppressions[0];
      expect(entry).toMatchObject({ recipient: '+14155552130', reason: 'opt_out', source: 'inbound' });
      const refused = await t.call('POST', '/v1/sms/send', token, { to: '+14155552130', message: 'Sale!' });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.code).toBe('RECIPIENT_SUPPRESSED');
      expect(await balance(token)).toBe(afterConfirmation);

      t.clock.advance(1);
      const start = await t.receive(sms(number, '+14155552130', 'start'));
      expect(start).toMatchObject({ outcome: 'stored', keyword: 'start' });
      expect((await t.call('GET', '/v1/suppressions?channel=sms', token)).json().data.suppressions).toEqual([]);
      expect((await sentTo(token, '+14155552130')).map((m) => m.message)).toEqual([
        'You have been unsubscribed and will receive no further messages. Reply START to resubscribe.',
        'You have been resubscribed and will receive messages again. Reply STOP to unsubscribe.',
      ]);
      expect((await t.call('POST', '/v1/sms/send', token, { to: '+14155552130', message: 'Welcome back' })).statusCode).toBe(200);
    });

    it('START lifts only an opt-out a STOP made: an entry the account made, even an opt-out, stays, and gets no confirmation', async () => {
      const { number, token } = await accountWithNumber();
      await t.call('POST', '/v1/suppressions', token, { channel: 'sms', recipient: '+14155552131' });
      await t.call('POST', '/v1/suppressions', token, { channel: 'sms', recipient: '+14155552135', reason: 'opt_out' });
      await t.receive(sms(number, '+14155552131', 'START'));
      await t.receive(sms(number, '+14155552135', 'START'));
      expect((await t.call('GET', '/v1/suppressions', token)).json().data.suppressions).toHaveLength(2);
      expect(await sentTo(token, '+14155552131')).toEqual([]);
      expect(await sentTo(token, '+14155552135')).toEqual([]);
    });

    it('answers in the keyword’s language, with the account’s own text, or not at all when it set none', async () => {
      const { number, token } = await accountWithNumber();
      await t.receive(sms(number, '+34612345678', 'BAJA'));
      expect((await sentTo(token, '+34612345678'))[0]?.message).toMatch(/^Se ha dado de baja/);
      const set = await t.call('PUT', '/v1/keyword-replies/en', token, {
        stop_reply: 'Acme: no more texts. Reply START.',
        start_reply: '',
      });
      expect(set.statusCode).toBe(200);
      expect(set.json().data).toMatchObject({
        language: 'en',
        stop_reply: 'Acme: no more texts. Reply START.',
        start_reply: '',
        custom: true,
      });
      await t.receive(sms(number, '+14155552132', 'stop'));
      await t.receive(sms(number, '+14155552132', 'start'));
      expect((await sentTo(token, '+14155552132')).map((m) => m.message)).toEqual(['Acme: no more texts. Reply START.']);
      const languages = (await t.call('GET', '/v1/keyword-replies', token)).json().data.languages;
      expect(languages.map((l: { language: string }) => l.language)).toEqual(['en', 'es', 'fr', 'de']);
      expect(languages[1]).toMatchObject({ language: 'es', custom: false, stop_keywords: expect.arrayContaining(['BAJA']) });
      expect((await t.call('PUT', '/v1/keyword-replies/xx', token, { stop_reply: '', start_reply: '' })).statusCode).toBe(422);
    });

    it('still opts out an account without credits for the confirmation; the confirmation is refused, not retried forever', async () => {
      const { number, token } = await accountWithNumber(0);
      await t.receive(sms(number, '+14155552133', 'STOP'));
      expect(await sentTo(token, '+14155552133')).toEqual([]);
      expect((await t.call('GET', '/v1/suppressions', token)).json().data.suppressions).toHaveLength(1);
      expect(await t.drain()).toBe(0);
    });

    it('sends a confirmation once even when its job runs twice (its message id is chosen with the keyword)', async () => {
      const { account, number, token } = await accountWithNumber();
      const payload = {
        messageId: `msg_sms_${'0'.repeat(10)}${'1'.repeat(16)}`,
        accountId: account.account.id,
        channel: 'sms',
        to: '+14155552136',
        from: number,
        action: 'stop' as const,
        language: 'en',
      };
      const deps = { store: t.store, clock: t.clock, prices: { smsSegment: 1_000_000 } };
      expect(await sendConfirmation(deps, payload)).toMatchObject({ sent: { id: payload.messageId } });
      expect(await sendConfirmation(deps, payload)).toEqual({ skipped: 'already_sent' });
      expect(await sentTo(token, '+14155552136')).toHaveLength(1);
    });

    it('fires suppression.created and suppression.deleted for the keyword’s changes', async () => {
      const receiver = await startReceiver(() => 204);
      try {
        const { number, token } = await accountWithNumber();
        await t.call('POST', '/v1/webhooks', token, { url: `${receiver.url}/s`, events: ['suppression.created', 'suppression.deleted'] });
        await t.receive(sms(number, '+14155552134', 'STOP'));
        await t.receive(sms(number, '+14155552134', 'START'));
        await t.drain();
        await receiver.waitFor(2, 5_000);
        const events = receiver.received.map((d) => JSON.parse(d.body));
        expect(events.map((e) => e.type).sort()).toEqual(['suppression.created', 'suppression.deleted']);
        expect(events[0].data).toMatchObject({ channel: 'sms', recipient: '+14155552134', reason: 'opt_out', source: 'inbound' });
      } finally {
        await receiver.close();
      }
    });
  });

  describe('WhatsApp', () => {
    it('a customer who writes first opens the 24 h window: the session reply is accepted', async () => {
      const { number, token } = await accountWithNumber();
      const closed = await t.call('POST', '/v1/whatsapp/session', token, { to: '+14155552140', message: 'How can we help?' });
      expect(closed.json().error.code).toBe('SESSION_WINDOW_CLOSED');
      await t.receive({ channel: 'whatsapp', from: '+14155552140', to: number, text: 'Hi, my order is late', receivedAt: t.clock.now() });
      const reply = await t.call('POST', '/v1/whatsapp/session', token, { to: '+14155552140', message: 'How can we help?' });
      expect(reply.statusCode).toBe(200);
    });
  });

  describe('the sandbox', () => {
    it('takes a made-up message on demand, as a carrier would hand it over (POST /v1/sandbox/inbound)', async () => {
      const { number, token } = await accountWithNumber();
      const made = await t.call('POST', '/v1/sandbox/inbound', token, { channel: 'sms', from: '+14155552150', text: 'STOP' });
      expect(made.statusCode).toBe(201);
      expect(made.json().data).toMatchObject({
        direction: 'inbound',
        from: '+14155552150',
        to: number,
        text: 'STOP',
        details: { sandbox: true },
      });
      expect((await t.call('GET', '/v1/suppressions', token)).json().data.suppressions[0]).toMatchObject({ recipient: '+14155552150' });
      const bad = await t.call('POST', '/v1/sandbox/inbound', token, { channel: 'sms', from: 'someone', text: 'hi' });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.details).toEqual([{ field: 'from', message: 'must be an E.164 number such as +14155552671' }]);
      const readOnly = await t.tokenFor((await accountWithNumber()).account, 'sms:read');
      expect((await t.call('POST', '/v1/sandbox/inbound', readOnly, { channel: 'sms', from: '+14155552150', text: 'hi' })).statusCode).toBe(
        403,
      );
    });

    it('a magic recipient answers what it is sent, once, after the delivery', async () => {
      const { number, token } = await accountWithNumber();
      const sent = await t.call('POST', '/v1/sms/send', token, { to: '+15005550006', message: 'Can you make 3pm?', sender: number });
      expect(sent.statusCode).toBe(200);
      await t.drain();
      t.clock.advance(5);
      await t.drain();
      const inbound = (await t.call('GET', '/v1/messages?direction=inbound', token)).json().data.messages;
      expect(inbound).toHaveLength(1);
      expect(inbound[0]).toMatchObject({
        from: '+15005550006',
        to: number,
        text: 'Yes, that works for me.',
        details: { sandbox: true, in_reply_to: sent.json().data.message_id },
      });
      await t.drain();
      expect((await t.call('GET', '/v1/messages?direction=inbound', token)).json().data.pagination.total).toBe(1);
    });

    it('a magic recipient that answers STOP is suppressed and says nothing to the confirmation: no loop, one confirmation', async () => {
      const { number, token } = await accountWithNumber();
      expect((await t.call('POST', '/v1/sms/send', token, { to: '+15005550007', message: 'Deals!', sender: number })).statusCode).toBe(200);
      for (let round = 0; round < 5; round++) {
        await t.drain();
        t.clock.advance(5);
      }
      const inbound = (await t.call('GET', '/v1/messages?direction=inbound', token)).json().data.messages;
      expect(inbound.map((m: { text: string }) => m.text)).toEqual(['STOP']);
      const sent = (await t.call('GET', '/v1/messages', token)).json().data.messages;
      expect(sent).toHaveLength(2);
      expect((await t.call('GET', '/v1/suppressions', token)).json().data.suppressions[0]).toMatchObject({ recipient: '+15005550007' });
    });
  });
});
