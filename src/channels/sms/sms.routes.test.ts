import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { toIso } from '../../core/clock.js';
import { newMessageId } from '../../core/ids.js';

const TO = '+14155552671';
const MESSAGE_ID = /^msg_sms_[0-9a-z]{26}$/;
const DAY_MS = 24 * 3600_000;

/** What a rejected request must leave untouched: the balance, the ledger and the messages. */
async function snapshot(t: TestApp, account: CreatedAccount, token: string) {
  const balance = await t.call('GET', '/v1/account/balance', token);
  expect(balance.statusCode).toBe(200);
  const messages = await t.database.db.selectFrom('messages').select(['id']).where('account_id', '=', account.account.id).execute();
  return {
    balance: balance.json().data,
    ledger: await t.store.credits.ledger(account.account.id),
    messages: messages.map((m) => m.id).sort(),
  };
}

function expectError(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  const body = response.json();
  expect(body).toMatchObject({ success: false, error: { code, message: expect.stringMatching(/\S/) } });
  expect(body.data).toBeUndefined();
  return body.error as { code: string; message: string; details?: { field: string; message: string }[] };
}

describeEachDialect('SMS endpoints', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** Sends a request that must fail and checks that it wrote nothing at all. */
  async function sendRejected(account: CreatedAccount, token: string, body: unknown): Promise<LightMyRequestResponse> {
    const before = await snapshot(t, account, token);
    const response = await t.call('POST', '/v1/sms/send', token, body);
    expect(await snapshot(t, account, token)).toEqual(before);
    return response;
  }

  describe('POST /v1/sms/send, accepted', () => {
    it('queues the message and answers with the send envelope', async () => {
      const account = await t.createAccount({ credits: 10 });
      const token = await t.tokenFor(account);
      const response = await t.call('POST', '/v1/sms/send', token, { to: TO, message: 'Your code is 123456' });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toEqual({
        success: true,
        data: {
          message_id: expect.stringMatching(MESSAGE_ID),
          to: TO,
          status: 'queued',
          segments: 1,
          credits_used: 1,
          created_at: toIso(t.clock.now()),
        },
      });
    });

    it('reads the message back with every field of GET /v1/sms/{id}, sender null when not given', async () => {
      const account = await t.createAccount();
      const token = await t.tokenFor(account);
      const sent = await t.call('POST', '/v1/sms/send', token, { to: TO, message: 'Hello there' });
      const id = sent.json().data.message_id;
      const response = await t.call('GET', `/v1/sms/${id}`, token);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        success: true,
        data: {
          message_id: id,
          channel: 'sms',
          to: TO,
          message: 'Hello there',
          sender: null,
          status: 'queued',
          segments: 1,
          credits_used: 1,
          created_at: sent.json().data.created_at,
          scheduled_at: null,
          sent_at: null,
          delivered_at: null,
          error: null,
          route: null,
        },
      });
    });

    it('keeps the sender, the schedule and the cost of a scheduled multi-segment message', async () => {
      const account = await t.createAccount();
      const token = await t.tokenFor(account);
      const at = toIso(t.clock.now() + DAY_MS);
      const sent = await t.call('POST', '/v1/sms/send', token, {
        to: TO,
        message: 'b'.repeat(200),
        sender: 'Acme',
        scheduled_at: at,
        callback_url: 'https://hooks.example.com/sms?x=1',
      });
      expect(sent.statusCode).toBe(200);
      expect(sent.json().data).toMatchObject({ segments: 2, credits_used: 2, scheduled_at: at, status: 'queued' });
      const detail = (await t.call('GET', `/v1/sms/${sent.json().data.message_id}`, token)).json().data;
      expect(detail).toMatchObject({
        message: 'b'.repeat(200),
        sender: 'Acme',
        segments: 2,
        credits_used: 2,
        scheduled_at: at,
        status: 'queued',
        sent_at: null,
        delivered_at: null,
      });
    });

    it('gives every message its own id', async () => {
      const account = await t.createAccount();
      const token = await t.tokenFor(account);
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) {
        ids.add((await t.call('POST', '/v1/sms/send', token, { to: TO, message: `n${i}` })).json().data.message_id);
      }
      expect(ids.size).toBe(5);
    });
  });

  describe('POST /v1/sms/send, field rules', () => {
    let account: CreatedAccount;
    let token: string;
    beforeAll(async () => {
      account = await t.createAccount({ credits: 50 });
      token = await t.tokenFor(account);
    });

    async function expectAccepted(body: Record<string, unknown>) {
      const response = await t.call('POST', '/v1/sms/send', token, body);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data;
    }

    async function expectProblems(body: unknown, fields: string[]) {
      const error = expectError(await sendRejected(account, token, body), 422, 'VALIDATION_ERROR');
      expect(error.details).toHaveLength(fields.length);
      expect(error.details?.map((d) => d.field).sort()).toEqual([...fields].sort());
      for (const detail of error.details ?? []) expect(detail.message).toMatch(/\S/);
      return error.details ?? [];
    }

    it('requires to', async () => {
      expect(await expectProblems({ message: 'hi' }, ['to'])).toEqual([{ field: 'to', message: 'is required' }]);
    });

    it('requires message', async () => {
      expect(await expectProblems({ to: TO }, ['message'])).toEqual([{ field: 'message', message: 'is required' }]);
    });

    it('refuses an empty message', async () => {
      await expectProblems({ to: TO, message: '' }, ['message']);
    });

    it('refuses a message of 1601 characters and accepts one of 1600', async () => {
      await expectProblems({ to: TO, message: 'a'.repeat(1601) }, ['message']);
      expect(await expectAccepted({ to: TO, message: 'a'.repeat(1600) })).toMatchObject({ segments: 11 });
    });

    it('refuses a sender of 12 characters and accepts one of 11', async () => {
      await expectProblems({ to: TO, message: 'hi', sender: 'ABCDEFGHIJKL' }, ['sender']);
      await expectAccepted({ to: TO, message: 'hi', sender: 'ABCDEFGHIJK' });
    });

    it('refuses a sender with a space, with punctuation, or empty', async () => {
      await expectProblems({ to: TO, message: 'hi', sender: 'Acme Co' }, ['sender']);
      await expectProblems({ to: TO, message: 'hi', sender: 'Acme-Co' }, ['sender']);
      await expectProblems({ to: TO, message: 'hi', sender: 'Acme!' }, ['sender']);
      await expectProblems({ to: TO, message: 'hi', sender: '' }, ['sender']);
    });

    it('refuses a callback_url that is not an absolute http(s) URL', async () => {
      await expectProblems({ to: TO, message: 'hi', callback_url: '/relative/path' }, ['callback_url']);
      await expectProblems({ to: TO, message: 'hi', callback_url: 'not a url' }, ['callback_url']);
      await expectProblems({ to: TO, message: 'hi', callback_url: 'ftp://files.example.com/cb' }, ['callback_url']);
      await expectProblems({ to: TO, message: 'hi', callback_url: 'https://' }, ['callback_url']);
    });

    it('accepts http and https callback URLs', async () => {
      await expectAccepted({ to: TO, message: 'hi', callback_url: 'http://hooks.example.com/cb' });
      await expectAccepted({ to: TO, message: 'hi', callback_url: 'https://hooks.example.com:8443/cb?id=1' });
    });

    it('refuses a scheduled_at that is not an ISO 8601 date-time', async () => {
      await expectProblems({ to: TO, message: 'hi', scheduled_at: 'tomorrow at noon' }, ['scheduled_at']);
      await expectProblems({ to: TO, message: 'hi', scheduled_at: '2026-13-01T10:00:00Z' }, ['scheduled_at']);
      await expectProblems({ to: TO, message: 'hi', scheduled_at: '2026-01-01T25:00:00Z' }, ['scheduled_at']);
    });

    it('refuses 31 February', async () => {
      const year = new Date(t.clock.now()).getUTCFullYear();
      await expectProblems({ to: TO, message: 'hi', scheduled_at: `${year + 1}-02-31T10:00:00Z` }, ['scheduled_at']);
    });

    it('refuses a scheduled_at more than 60 s in the past and accepts one exactly 60 s ago', async () => {
      const now = t.clock.now();
      await expectProblems({ to: TO, message: 'hi', scheduled_at: toIso(now - 61_000) }, ['scheduled_at']);
      const accepted = await expectAccepted({ to: TO, message: 'hi', scheduled_at: toIso(now - 60_000) });
      expect(accepted.status).toBe('queued');
    });

    it('refuses a scheduled_at more than 35 days ahead and accepts one exactly 35 days ahead', async () => {
      const now = t.clock.now();
      await expectProblems({ to: TO, message: 'hi', scheduled_at: toIso(now + 35 * DAY_MS + 1000) }, ['scheduled_at']);
      const limit = toIso(now + 35 * DAY_MS);
      expect((await expectAccepted({ to: TO, message: 'hi', scheduled_at: limit })).scheduled_at).toBe(limit);
    });

    it('reads a scheduled_at without an offset as UTC', async () => {
      const at = Math.floor((t.clock.now() + DAY_MS) / 1000) * 1000;
      const local = toIso(at).slice(0, 19); // YYYY-MM-DDTHH:MM:SS, no offset
      expect((await expectAccepted({ to: TO, message: 'hi', scheduled_at: local })).scheduled_at).toBe(toIso(at));
    });

    it('converts a scheduled_at with a +02:00 offset to UTC', async () => {
      const at = Math.floor((t.clock.now() + DAY_MS) / 1000) * 1000;
      const wallClock = `${toIso(at + 2 * 3600_000).slice(0, 19)}+02:00`;
      const accepted = await expectAccepted({ to: TO, message: 'hi', scheduled_at: wallClock });
      expect(accepted.scheduled_at).toBe(toIso(at));
      const detail = (await t.call('GET', `/v1/sms/${accepted.message_id}`, token)).json().data;
      expect(detail.scheduled_at).toBe(toIso(at));
    });

    it('refuses an unknown extra field', async () => {
      expect(await expectProblems({ to: TO, message: 'hi', priority: 'high' }, ['priority'])).toEqual([
        { field: 'priority', message: 'is not a known field' },
      ]);
    });

    it('refuses fields of the wrong type instead of coercing them', async () => {
      expect(await expectProblems({ to: 14155552671, message: 'hi' }, ['to'])).toEqual([{ field: 'to', message: 'must be a string' }]);
      await expectProblems({ to: TO, message: ['hi'] }, ['message']);
      await expectProblems({ to: TO, message: 'hi', sender: 42 }, ['sender']);
      await expectProblems({ to: TO, message: 'hi', scheduled_at: 1767225600 }, ['scheduled_at']);
    });

    it('lists every invalid field, one detail each, when several are wrong at once', async () => {
      const details = await expectProblems({ message: '', sender: 'Way too long sender', callback_url: 'ftp://x', extra: true }, [
        'to',
        'message',
        'sender',
        'callback_url',
        'extra',
      ]);
      expect(new Set(details.map((d) => d.field)).size).toBe(details.length);
    });

    it('names the fields in the error message', async () => {
      const single = expectError(await sendRejected(account, token, { to: TO }), 422, 'VALIDATION_ERROR');
      expect(single.message).toContain('message');
      const several = expectError(await sendRejected(account, token, {}), 422, 'VALIDATION_ERROR');
      expect(several.message).toContain('2');
    });
  });

  describe('POST /v1/sms/send, phone numbers', () => {
    let account: CreatedAccount;
    let token: string;
    beforeAll(async () => {
      account = await t.createAccount({ credits: 5 });
      token = await t.tokenFor(account);
    });

    it.each([
      ['a number too short to exist', '+1234'],
      ['a number without the leading +', '14155552671'],
      ['a number with spaces', '+44 7911 123456'],
      ['a number with dashes', '+1-415-555-2671'],
      ['a well-formed number that is not valid in its numbering plan', '+15555555555'],
      ['an unassigned country code', '+999123456789'],
      ['a leading zero after the +', '+04155552671'],
    ])('refuses %s with 422 INVALID_PHONE', async (_, to) => {
      const error = expectError(await sendRejected(account, token, { to, message: 'hi' }), 422, 'INVALID_PHONE');
      expect(error.details).toEqual([{ field: 'to', message: expect.stringMatching(/E\.164/) }]);
    });

    it('accepts valid E.164 numbers of several countries', async () => {
      for (const to of ['+447911123456', '+4915123456789', '+14155552671']) {
        const response = await t.call('POST', '/v1/sms/send', token, { to, message: 'hi' });
        expect(response.statusCode, to).toBe(200);
        expect(response.json().data.to).toBe(to);
      }
    });
  });

  describe('POST /v1/sms/send, segments and cost', () => {
    async function sendAndBalance(message: string) {
      const account = await t.createAccount({ credits: 30 });
      const token = await t.tokenFor(account);
      const sent = await t.call('POST', '/v1/sms/send', token, { to: TO, message });
      expect(sent.statusCode, sent.body).toBe(200);
      const balance = (await t.call('GET', '/v1/account/balance', token)).json().data;
      return { data: sent.json().data, balance };
    }

    it('sends 160 GSM-7 characters as 1 segment for 1 credit', async () => {
      const { data, balance } = await sendAndBalance('a'.repeat(160));
      expect(data).toMatchObject({ segments: 1, credits_used: 1 });
      expect(balance).toEqual({ credits: 30, reserved: 1, available: 29 });
    });

    it('sends 161 GSM-7 characters as 2 segments for 2 credits', async () => {
      const { data, balance } = await sendAndBalance('a'.repeat(161));
      expect(data).toMatchObject({ segments: 2, credits_used: 2 });
      expect(balance).toEqual({ credits: 30, reserved: 2, available: 28 });
    });

    it('counts € as two septets, so 159 characters and a € need 2 segments', async () => {
      expect((await sendAndBalance(`${'a'.repeat(158)}€`)).data).toMatchObject({ segments: 1, credits_used: 1 });
      expect((await sendAndBalance(`${'a'.repeat(159)}€`)).data).toMatchObject({ segments: 2, credits_used: 2 });
    });

    it('switches to UCS-2 for one emoji, 70 code units per single segment', async () => {
      expect((await sendAndBalance('a'.repeat(70))).data).toMatchObject({ segments: 1, credits_used: 1 });
      // 68 letters + an emoji (2 code units) = 70 units: still one UCS-2 segment.
      expect((await sendAndBalance(`${'a'.repeat(68)}😀`)).data).toMatchObject({ segments: 1, credits_used: 1 });
      // 69 letters + an emoji = 71 units: two UCS-2 segments, though 70 GSM letters would fit in one.
      expect((await sendAndBalance(`${'a'.repeat(69)}😀`)).data).toMatchObject({ segments: 2, credits_used: 2 });
    });

    it('sends the 1600-character maximum as 11 segments costing 11 credits', async () => {
      const { data, balance } = await sendAndBalance('a'.repeat(1600));
      expect(data).toMatchObject({ segments: 11, credits_used: 11 });
      expect(balance).toEqual({ credits: 30, reserved: 11, available: 19 });
    });
  });

  describe('POST /v1/sms/send, credits', () => {
    it('refuses with 402 INSUFFICIENT_CREDITS when the cost exceeds the available credits, creating nothing', async () => {
      const account = await t.createAccount({ credits: 1 });
      const token = await t.tokenFor(account);
      const response = await sendRejected(account, token, { to: TO, message: 'a'.repeat(161) });
      expectError(response, 402, 'INSUFFICIENT_CREDITS');
      const after = await snapshot(t, account, token);
      expect(after.balance).toEqual({ credits: 1, reserved: 0, available: 1 });
      expect(after.ledger.map((e) => e.kind)).toEqual(['top_up']);
      expect(after.messages).toEqual([]);
    });

    it('spends the available credits to exactly zero, then refuses the next send', async () => {
      const account = await t.createAccount({ credits: 3 });
      const token = await t.tokenFor(account);
      expect((await t.call('POST', '/v1/sms/send', token, { to: TO, message: 'a'.repeat(161) })).statusCode).toBe(200);
      expect((await t.call('POST', '/v1/sms/send', token, { to: TO, message: 'one' })).statusCode).toBe(200);
      expectError(await sendRejected(account, token, { to: TO, message: 'one more' }), 402, 'INSUFFICIENT_CREDITS');
      const after = await snapshot(t, account, token);
      expect(after.balance).toEqual({ credits: 3, reserved: 3, available: 0 });
      expect(after.ledger.map((e) => e.kind)).toEqual(['top_up', 'reserve', 'reserve']);
      expect(after.messages).toHaveLength(2);
    });

    it('records one reserve row per accepted send, tied to the message', async () => {
      const account = await t.createAccount({ credits: 10 });
      const token = await t.tokenFor(account);
      const id = (await t.call('POST', '/v1/sms/send', token, { to: TO, message: 'a'.repeat(200) })).json().data.message_id;
      const ledger = await t.store.credits.ledger(account.account.id);
      expect(ledger.map((e) => [e.kind, e.creditsDeltaMicros, e.reservedDeltaMicros, e.messageId])).toEqual([
        ['top_up', 10_000_000, 0, null],
        ['reserve', 0, 2_000_000, id],
      ]);
    });
  });

  describe('POST /v1/sms/send, malformed requests', () => {
    let account: CreatedAccount;
    let token: string;
    beforeAll(async () => {
      account = await t.createAccount();
      token = await t.tokenFor(account);
    });

    async function injectRejected(payload: string | undefined, contentType: string | undefined) {
      const before = await snapshot(t, account, token);
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/sms/send',
        headers: { authorization: `Bearer ${token}`, ...(contentType ? { 'content-type': contentType } : {}) },
        ...(payload !== undefined ? { payload } : {}),
      });
      expect(await snapshot(t, account, token)).toEqual(before);
      return response;
    }

    it('answers malformed JSON with 400 INVALID_REQUEST', async () => {
      expectError(await injectRejected('{"to": "+14155552671", "message": ', 'application/json'), 400, 'INVALID_REQUEST');
      expectError(await injectRejected("{'to': 'x'}", 'application/json'), 400, 'INVALID_REQUEST');
    });

    it('answers an empty JSON body with 400 INVALID_REQUEST', async () => {
      expectError(await injectRejected('', 'application/json'), 400, 'INVALID_REQUEST');
    });

    it('answers a JSON array, string, number or null body with 400 INVALID_REQUEST', async () => {
      for (const payload of [JSON.stringify([{ to: TO, message: 'hi' }]), '"hello"', '42', 'null']) {
        const error = expectError(await injectRejected(payload, 'application/json'), 400, 'INVALID_REQUEST');
        expect(error.details, payload).toBeUndefined();
      }
    });

    it('answers a text/plain body with 400 INVALID_REQUEST even when it holds JSON', async () => {
      expectError(await injectRejected(JSON.stringify({ to: TO, message: 'hi' }), 'text/plain'), 400, 'INVALID_REQUEST');
    });

    it('answers a body of an unsupported media type with 400 INVALID_REQUEST', async () => {
      expectError(await injectRejected('to=%2B14155552671&message=hi', 'application/x-www-form-urlencoded'), 400, 'INVALID_REQUEST');
      expectError(await injectRejected('<sms/>', 'application/xml'), 400, 'INVALID_REQUEST');
    });

    it('answers a request without a body with 400 INVALID_REQUEST', async () => {
      expectError(await injectRejected(undefined, undefined), 400, 'INVALID_REQUEST');
    });
  });

  describe('X-Request-Id', () => {
    let token: string;
    beforeAll(async () => {
      token = await t.tokenFor(await t.createAccount());
    });

    const send = (requestId: string | undefined, body: unknown, auth = true) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/sms/send',
        headers: {
          'content-type': 'application/json',
          ...(auth ? { authorization: `Bearer ${token}` } : {}),
          ...(requestId !== undefined ? { 'x-request-id': requestId } : {}),
        },
        payload: JSON.stringify(body),
      });

    it('echoes a sane X-Request-Id sent by the client', async () => {
      const response = await send('client-7f3a.91:B_2', { to: TO, message: 'hi' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-request-id']).toBe('client-7f3a.91:B_2');
    });

    it('generates a req_ id when the client sends none, a new one each time', async () => {
      const first = await send(undefined, { to: TO, message: 'hi' });
      const second = await send(undefined, { to: TO, message: 'hi' });
      expect(first.headers['x-request-id']).toMatch(/^req_[0-9a-z]{20}$/);
      expect(second.headers['x-request-id']).toMatch(/^req_[0-9a-z]{20}$/);
      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    });

    it('replaces an X-Request-Id that is not a sane token', async () => {
      for (const bad of ['has spaces in it', 'a'.repeat(129), '<script>', '']) {
        const response = await send(bad, { to: TO, message: 'hi' });
        expect(response.headers['x-request-id'], bad).toMatch(/^req_[0-9a-z]{20}$/);
      }
    });

    it('carries the request id on error responses too', async () => {
      expect((await send('err-422', { to: TO })).headers['x-request-id']).toBe('err-422');
      expect((await send('err-401', { to: TO, message: 'hi' }, false)).headers['x-request-id']).toBe('err-401');
      expect((await send('err-phone', { to: '+1234', message: 'hi' })).headers['x-request-id']).toBe('err-phone');
      const notFound = await t.app.inject({
        method: 'GET',
        url: `/v1/sms/${newMessageId('sms', t.clock.now())}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(notFound.statusCode).toBe(404);
      expect(notFound.headers['x-request-id']).toMatch(/^req_[0-9a-z]{20}$/);
    });
  });

  describe('authentication and scopes', () => {
    it('refuses a send without a token with 401 UNAUTHORIZED', async () => {
      const response = await t.call('POST', '/v1/sms/send', undefined, { to: TO, message: 'hi' });
      expectError(response, 401, 'UNAUTHORIZED');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="herald"');
    });

    it('refuses a send with a token lacking sms:send with 403, before reading the body, writing nothing', async () => {
      const account = await t.createAccount();
      const full = await t.tokenFor(account);
      const readOnly = await t.tokenFor(account, 'sms:read');
      const before = await snapshot(t, account, full);
      for (const body of [{ to: TO, message: 'hi' }, { to: 123 }]) {
        const response = await t.call('POST', '/v1/sms/send', readOnly, body);
        expectError(response, 403, 'INSUFFICIENT_SCOPE');
        expect(response.headers['www-authenticate']).toBe('Bearer realm="herald", error="insufficient_scope", scope="sms:send"');
      }
      expect(await snapshot(t, account, full)).toEqual(before);
    });

    it('refuses GET /v1/sms/{id} with a token lacking sms:read with 403', async () => {
      const account = await t.createAccount();
      const sendOnly = await t.tokenFor(account, 'sms:send');
      const id = (await t.call('POST', '/v1/sms/send', sendOnly, { to: TO, message: 'hi' })).json().data.message_id;
      const response = await t.call('GET', `/v1/sms/${id}`, sendOnly);
      expectError(response, 403, 'INSUFFICIENT_SCOPE');
      expect(response.headers['www-authenticate']).toContain('scope="sms:read"');
      expect((await t.call('GET', `/v1/sms/${id}`, await t.tokenFor(account, 'sms:read'))).statusCode).toBe(200);
    });
  });

  describe('GET /v1/sms/{id}, not found', () => {
    let token: string;
    let ownId: string;
    let unknownBody: unknown;
    beforeAll(async () => {
      token = await t.tokenFor(await t.createAccount());
      ownId = (await t.call('POST', '/v1/sms/send', token, { to: TO, message: 'mine' })).json().data.message_id;
      const unknown = await t.call('GET', `/v1/sms/${newMessageId('sms', t.clock.now())}`, token);
      expect(unknown.statusCode).toBe(404);
      unknownBody = unknown.json();
    });

    it('answers an unknown well-formed id with 404 NOT_FOUND', () => {
      expect(unknownBody).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.stringMatching(/\S/) } });
    });

    it("answers another account's message id with the same 404, never 403", async () => {
      const other = await t.tokenFor(await t.createAccount());
      const response = await t.call('GET', `/v1/sms/${ownId}`, other);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(unknownBody);
      // The owner still sees it.
      expect((await t.call('GET', `/v1/sms/${ownId}`, token)).statusCode).toBe(200);
    });

    it('answers a message id of another channel with 404, even with the suffix of an existing SMS', async () => {
      const suffix = ownId.slice('msg_sms_'.length);
      for (const channel of ['email', 'whatsapp', 'telegram']) {
        const response = await t.call('GET', `/v1/sms/msg_${channel}_${suffix}`, token);
        expectError(response, 404, 'NOT_FOUND');
      }
    });

    it('answers a garbage id with 404', async () => {
      for (const id of ['garbage', 'msg_sms_', `${ownId}x`, ownId.toUpperCase(), `msg_sms_${'u'.repeat(26)}`, 'msg_sms_%20']) {
        const response = await t.call('GET', `/v1/sms/${id}`, token);
        expect(response.statusCode, id).toBe(404);
        expect(response.json().error.code, id).toBe('NOT_FOUND');
      }
    });

    it('answers an id the router cannot even read (malformed %-escape, far too long) with 400 INVALID_REQUEST in the envelope, with a request id', async () => {
      for (const id of ['msg_sms_%zz', `msg_sms_${'x'.repeat(300)}`]) {
        const response = await t.app.inject({
          method: 'GET',
          url: `/v1/sms/${id}`,
          headers: { authorization: `Bearer ${token}`, 'x-request-id': 'odd-path-1' },
        });
        expect(response.statusCode, id).toBe(400);
        expect(response.json(), id).toEqual({
          success: false,
          error: { code: 'INVALID_REQUEST', message: expect.stringMatching(/\S/) },
        });
        expect(response.headers['x-request-id'], id).toBe('odd-path-1');
      }
    });
  });
});

describeEachDialect('SMS endpoints with a small body limit', (dialect) => {
  let t: TestApp;
  let account: CreatedAccount;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { bodyLimitBytes: 2048 });
    account = await t.createAccount();
    token = await t.tokenFor(account);
  });
  afterAll(() => t.close());

  it('refuses a body over the limit with 413 PAYLOAD_TOO_LARGE, writing nothing', async () => {
    const before = await snapshot(t, account, token);
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/sms/send',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-request-id': 'too-big-1' },
      payload: JSON.stringify({ to: TO, message: 'a'.repeat(4096) }),
    });
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    expect(response.headers['x-request-id']).toBe('too-big-1');
    expect(await snapshot(t, account, token)).toEqual(before);
  });

  it('accepts a body just under the limit', async () => {
    const response = await t.call('POST', '/v1/sms/send', token, { to: TO, message: 'a'.repeat(1600) });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.segments).toBe(11);
  });
});
