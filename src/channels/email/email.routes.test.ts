import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { accountSnapshot, expectError, expectFieldProblems } from '../../../test/expectations.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { toIso } from '../../core/clock.js';
import type { OutboundMessage, Provider } from '../../core/delivery/provider.js';
import { newMessageId } from '../../core/ids.js';

const MESSAGE_ID = /^msg_email_[0-9a-z]{26}$/;
const MINIMAL = { to: 'ada@example.com', from: 'billing@acme.example', subject: 'Your invoice', text: 'Hello Ada' };
const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

describeEachDialect('Email endpoints', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const emailEventCount = async () => (await t.database.db.selectFrom('email_events').select('id').execute()).length;

  /** Sends a request that must be refused and checks that it wrote nothing: balance, ledger, messages, events. */
  async function sendRejected(account: CreatedAccount, token: string, body: unknown): Promise<LightMyRequestResponse> {
    const before = { account: await accountSnapshot(t, account), events: await emailEventCount() };
    const response = await t.call('POST', '/v1/email/send', token, body);
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect({ account: await accountSnapshot(t, account), events: await emailEventCount() }).toEqual(before);
    return response;
  }

  describe('POST /v1/email/send, accepted', () => {
    let account: CreatedAccount;
    let token: string;
    beforeAll(async () => {
      account = await t.createAccount({ credits: 10 });
      token = await t.tokenFor(account);
    });

    it('queues the email, reserves 0.1 credit and answers with the send envelope', async () => {
      const response = await t.call('POST', '/v1/email/send', token, MINIMAL);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        success: true,
        data: {
          message_id: expect.stringMatching(MESSAGE_ID),
          to: 'ada@example.com',
          status: 'queued',
          credits_used: 0.1,
          created_at: toIso(t.clock.now()),
        },
      });
      const balance = (await t.call('GET', '/v1/account/balance', token)).json().data;
      expect(balance).toEqual({ credits: 10, reserved: 0.1, available: 9.9 });
    });

    it('stores every part as the payload a provider gets, the subject as the body and from as the sender', async () => {
      const pdf = Buffer.from('%PDF-1.4 fake invoice');
      const response = await t.call('POST', '/v1/email/send', token, {
        to: 'ada@example.com',
        from: 'billing@acme.example',
        from_name: 'Acme Billing',
        subject: 'Invoice #42',
        html: '<p>Hello <b>Ada</b></p>',
        text: 'Hello Ada',
        reply_to: 'support@acme.example',
        cc: ['boss@example.com', 'accounts@example.com'],
        attachments: [
          { filename: 'invoice.pdf', content: base64(pdf), content_type: 'application/pdf' },
          { filename: 'notes.txt', content: base64('notes') },
        ],
        track_opens: false,
        track_clicks: false,
      });
      expect(response.statusCode, response.body).toBe(200);
      const id = response.json().data.message_id;
      const message = await t.store.messages.findById(id);
      expect(message).toMatchObject({ channel: 'email', to: 'ada@example.com', sender: 'billing@acme.example', body: 'Invoice #42' });
      expect(JSON.parse((await t.store.messages.payload(id)) ?? 'null')).toEqual({
        from: 'billing@acme.example',
        from_name: 'Acme Billing',
        subject: 'Invoice #42',
        html: '<p>Hello <b>Ada</b></p>',
        text: 'Hello Ada',
        reply_to: 'support@acme.example',
        cc: ['boss@example.com', 'accounts@example.com'],
        attachments: [
          { filename: 'invoice.pdf', content: base64(pdf), content_type: 'application/pdf' },
          { filename: 'notes.txt', content: base64('notes'), content_type: 'application/octet-stream' },
        ],
        track_opens: false,
        track_clicks: false,
        // No one-click unsubscribe link: it names one address, and every cc copy would carry it (docs/suppression.md).
      });
      expect(JSON.parse((await t.store.messages.payload(id)) ?? 'null')).not.toHaveProperty('list_unsubscribe');
    });

    it('hands those parts to the email provider', async () => {
      const handed: OutboundMessage[] = [];
      const original = t.providers.email;
      const capturing: Provider = {
        name: 'capture',
        channel: 'email',
        async send(message) {
          handed.push(message);
          return { ok: true, providerMessageId: `cap_${handed.length}` };
        },
      };
      t.providers.email = capturing;
      try {
        const sent = await t.call('POST', '/v1/email/send', token, { ...MINIMAL, html: '<p>Hi</p>', cc: ['x@example.com'] });
        await t.drain();
        const outbound = handed.find((m) => m.id === sent.json().data.message_id);
        expect(outbound).toMatchObject({
          channel: 'email',
          to: 'ada@example.com',
          sender: 'billing@acme.example',
          body: 'Your invoice',
          payload: { from: 'billing@acme.example', subject: 'Your invoice', html: '<p>Hi</p>', text: 'Hello Ada', cc: ['x@example.com'] },
        });
      } finally {
        t.providers.email = original;
      }
    });

    it('accepts an HTML-only email and a text-only one', async () => {
      const { text: _text, ...htmlOnly } = { ...MINIMAL, html: '<p>Hi</p>' };
      expect((await t.call('POST', '/v1/email/send', token, htmlOnly)).statusCode).toBe(200);
      expect((await t.call('POST', '/v1/email/send', token, MINIMAL)).statusCode).toBe(200);
    });

    it('accepts 50 cc addresses and addresses up to 254 characters', async () => {
      const cc = Array.from({ length: 50 }, (_, i) => `cc${i}@example.com`);
      const long = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
      expect(long).toHaveLength(254);
      const response = await t.call('POST', '/v1/email/send', token, { ...MINIMAL, to: long, cc });
      expect(response.statusCode, response.body).toBe(200);
    });

    it('records the queued event at acceptance', async () => {
      const id = (await t.call('POST', '/v1/email/send', token, MINIMAL)).json().data.message_id;
      const events = await t.call('GET', `/v1/email/${id}/events`, token);
      expect(events.statusCode).toBe(200);
      expect(events.json()).toEqual({
        success: true,
        data: { message_id: id, events: [{ type: 'queued', timestamp: toIso(t.clock.now()) }] },
      });
    });

    it('accepts an email of almost 10 MiB, ten times BODY_LIMIT_BYTES, by default', async () => {
      const file = Buffer.alloc(10 * 1024 * 1024 - 1024, 0x41);
      const response = await t.call('POST', '/v1/email/send', token, {
        ...MINIMAL,
        attachments: [{ filename: 'big.bin', content: file.toString('base64') }],
      });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    });
  });

  describe('POST /v1/email/send, field rules', () => {
    let account: CreatedAccount;
    let token: string;
    beforeAll(async () => {
      account = await t.createAccount({ credits: 5 });
      token = await t.tokenFor(account);
    });

    const expectProblems = async (body: unknown, fields: string[]) => expectFieldProblems(await sendRejected(account, token, body), fields);
    const withoutField = (field: keyof typeof MINIMAL) => Object.fromEntries(Object.entries(MINIMAL).filter(([name]) => name !== field));

    it('requires to and subject', async () => {
      expect(await expectProblems(withoutField('to'), ['to'])).toEqual([{ field: 'to', message: 'is required' }]);
      expect(await expectProblems(withoutField('subject'), ['subject'])).toEqual([{ field: 'subject', message: 'is required' }]);
    });

    it('requires from, saying that there is no default sender', async () => {
      const [problem] = await expectProblems(withoutField('from'), ['from']);
      expect(problem?.message).toMatch(/required.*no default sender/);
    });

    it('requires html or text, in one problem', async () => {
      const [problem] = await expectProblems(withoutField('text'), ['html']);
      expect(problem?.message).toMatch(/text/);
    });

    it('refuses empty html, text and subject', async () => {
      await expectProblems({ ...MINIMAL, text: '' }, ['text']);
      await expectProblems({ ...MINIMAL, html: '' }, ['html']);
      await expectProblems({ ...MINIMAL, subject: '' }, ['subject']);
    });

    it('refuses a subject or from_name with a line break (header injection) and a subject over 998 characters', async () => {
      await expectProblems({ ...MINIMAL, subject: 'Hi\r\nBcc: everyone@example.com' }, ['subject']);
      await expectProblems({ ...MINIMAL, from_name: 'Acme\nX-Spam: no' }, ['from_name']);
      await expectProblems({ ...MINIMAL, subject: 's'.repeat(999) }, ['subject']);
      expect((await t.call('POST', '/v1/email/send', token, { ...MINIMAL, subject: 's'.repeat(998) })).statusCode).toBe(200);
    });

    it.each([
      ['without a domain', 'ada@'],
      ['without an @', 'ada.example.com'],
      ['with a display name', 'Ada <ada@example.com>'],
      ['with a space', 'ada lovelace@example.com'],
      ['with a one-label domain', 'ada@localhost'],
      ['with a line break', 'ada@example.com\nBcc: x@example.com'],
      ['over 254 characters', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`],
    ])('refuses an address %s in to, from, reply_to and cc', async (_name, bad) => {
      for (const field of ['to', 'from', 'reply_to']) {
        const [problem] = await expectProblems({ ...MINIMAL, [field]: bad }, [field]);
        expect(problem?.message).toMatch(/email address|at most 254/);
      }
      await expectProblems({ ...MINIMAL, cc: ['ok@example.com', bad] }, ['cc.1']);
    });

    it('refuses more than 50 cc addresses', async () => {
      const cc = Array.from({ length: 51 }, (_, i) => `cc${i}@example.com`);
      await expectProblems({ ...MINIMAL, cc }, ['cc']);
    });

    it.each([
      ['a character outside the alphabet', 'aGVsbG8*'],
      ['the URL-safe alphabet', 'aGk_-w=='],
      ['missing padding', 'aGVsbG8'],
      ['extra padding', 'aGVsbG8=='],
      ['line breaks', 'aGVs\nbG8='],
      ['stray bits before the padding', 'QR=='],
    ])('refuses attachment content with %s', async (_name, content) => {
      const [problem] = await expectProblems(
        {
          ...MINIMAL,
          attachments: [
            { filename: 'a.txt', content: base64('fine') },
            { filename: 'b.txt', content },
          ],
        },
        ['attachments.1.content'],
      );
      expect(problem?.message).toMatch(/base64/);
    });

    it('requires a sane file name and content, and a MIME type when a type is given', async () => {
      const content = base64('x');
      await expectProblems({ ...MINIMAL, attachments: [{ content }] }, ['attachments.0.filename']);
      await expectProblems({ ...MINIMAL, attachments: [{ filename: 'a.txt' }] }, ['attachments.0.content']);
      await expectProblems({ ...MINIMAL, attachments: [{ filename: 'a.txt', content: '' }] }, ['attachments.0.content']);
      for (const filename of ['', '../etc/passwd', 'dir\\file.txt', '..', 'bad\nname.txt', 'x'.repeat(256)]) {
        await expectProblems({ ...MINIMAL, attachments: [{ filename, content }] }, ['attachments.0.filename']);
      }
      for (const type of ['pdf', 'application/', '/pdf', 'text/plain; charset', 'text plain']) {
        await expectProblems({ ...MINIMAL, attachments: [{ filename: 'a', content, content_type: type }] }, ['attachments.0.content_type']);
      }
      for (const type of ['application/pdf', 'image/svg+xml', 'text/plain; charset=utf-8', 'application/vnd.ms-excel']) {
        const response = await t.call('POST', '/v1/email/send', token, {
          ...MINIMAL,
          attachments: [{ filename: 'a', content, content_type: type }],
        });
        expect(response.statusCode, type).toBe(200);
      }
    });

    it('refuses unknown fields, at the top and in an attachment', async () => {
      expect(await expectProblems({ ...MINIMAL, bcc: ['x@example.com'] }, ['bcc'])).toEqual([
        { field: 'bcc', message: 'is not a known field' },
      ]);
      await expectProblems({ ...MINIMAL, attachments: [{ filename: 'a', content: base64('x'), disposition: 'inline' }] }, [
        'attachments.0.disposition',
      ]);
    });

    it('refuses fields of the wrong type instead of coercing them', async () => {
      expect(await expectProblems({ ...MINIMAL, to: 42 }, ['to'])).toEqual([{ field: 'to', message: 'must be a string' }]);
      await expectProblems({ ...MINIMAL, cc: 'boss@example.com' }, ['cc']);
      await expectProblems({ ...MINIMAL, track_opens: 'yes' }, ['track_opens']);
      await expectProblems({ ...MINIMAL, track_clicks: 1 }, ['track_clicks']);
      await expectProblems({ ...MINIMAL, html: ['<p>'] }, ['html']);
      await expectProblems({ ...MINIMAL, attachments: { filename: 'a', content: 'eA==' } }, ['attachments']);
      await expectProblems({ ...MINIMAL, attachments: ['eA=='] }, ['attachments.0']);
    });

    it('reports the schema problems and the email rules together, one detail per field', async () => {
      const details = await expectProblems(
        { to: 'not-an-address', subject: '', cc: ['bad'], attachments: [{ filename: 'a', content: 'not base64!' }], extra: 1 },
        ['to', 'subject', 'cc.0', 'extra', 'from', 'html', 'attachments.0.content'],
      );
      expect(new Set(details.map((d) => d.field)).size).toBe(details.length);
      const error = expectError(await sendRejected(account, token, { to: 'x', subject: 's', text: 't' }), 422, 'VALIDATION_ERROR');
      expect(error.message).toContain('2 fields');
    });

    it('answers 400 INVALID_REQUEST to a body that is not a JSON object', async () => {
      for (const body of [[MINIMAL], 'email', 42, null]) {
        expectError(await sendRejected(account, token, body), 400, 'INVALID_REQUEST');
      }
    });

    it('answers 402 INSUFFICIENT_CREDITS, writing nothing, when 0.1 credit is not available', async () => {
      const poor = await t.createAccount({ credits: 0 });
      expectError(await sendRejected(poor, await t.tokenFor(poor), MINIMAL), 402, 'INSUFFICIENT_CREDITS');
    });

    it('needs the email:send scope', async () => {
      const readOnly = await t.tokenFor(account, 'email:read sms:send');
      const response = await sendRejected(account, readOnly, MINIMAL);
      expectError(response, 403, 'INSUFFICIENT_SCOPE');
      expect(response.headers['www-authenticate']).toContain('scope="email:send"');
      expectError(await sendRejected(account, '', MINIMAL), 401, 'UNAUTHORIZED');
    });
  });

  describe('GET /v1/email/{id}', () => {
    let account: CreatedAccount;
    let token: string;
    beforeAll(async () => {
      account = await t.createAccount({ credits: 10 });
      token = await t.tokenFor(account);
    });

    it('shows what was sent, without the bodies, and its status as it moves', async () => {
      const pdf = Buffer.from('%PDF-1.4 fake invoice');
      const sent = await t.call('POST', '/v1/email/send', token, {
        to: 'ada@example.com',
        from: 'billing@acme.example',
        from_name: 'Acme Billing',
        subject: 'Your invoice',
        html: '<p>Attached.</p>',
        reply_to: 'help@acme.example',
        cc: ['books@acme.example'],
        attachments: [{ filename: 'invoice.pdf', content: pdf.toString('base64'), content_type: 'application/pdf' }],
        track_opens: true,
      });
      const id = sent.json().data.message_id as string;
      const detail = async () => {
        const response = await t.call('GET', `/v1/email/${id}`, token);
        expect(response.statusCode, response.body).toBe(200);
        return response.json().data;
      };
      expect(await detail()).toEqual({
        message_id: id,
        channel: 'email',
        to: 'ada@example.com',
        from: 'billing@acme.example',
        from_name: 'Acme Billing',
        subject: 'Your invoice',
        reply_to: 'help@acme.example',
        cc: ['books@acme.example'],
        has_html: true,
        has_text: false,
        attachments: [{ filename: 'invoice.pdf', content_type: 'application/pdf', size_bytes: pdf.length }],
        track_opens: true,
        track_clicks: false,
        status: 'queued',
        credits_used: 0.1,
        created_at: toIso(t.clock.now()),
        sent_at: null,
        delivered_at: null,
        error: null,
      });
      await t.drain();
      expect(await detail()).toMatchObject({ status: 'delivered', sent_at: expect.any(String), delivered_at: expect.any(String) });
    });

    it('needs email:read, and answers 404 to another account, another channel and unknown ids', async () => {
      const id = (await t.call('POST', '/v1/email/send', token, MINIMAL)).json().data.message_id as string;
      expectError(await t.call('GET', `/v1/email/${id}`, await t.tokenFor(account, 'email:send')), 403, 'INSUFFICIENT_SCOPE');
      expect((await t.call('GET', `/v1/email/${id}`, await t.tokenFor(account, 'email:read'))).statusCode).toBe(200);
      expectError(await t.call('GET', `/v1/email/${id}`, await t.tokenFor(await t.createAccount())), 404, 'NOT_FOUND');
      const sms = (await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'hi' })).json().data.message_id;
      for (const unknown of [sms, newMessageId('email', t.clock.now()), 'msg_email_nope', 'anything']) {
        expectError(await t.call('GET', `/v1/email/${unknown}`, token), 404, 'NOT_FOUND');
      }
    });
  });

  describe('GET /v1/email/{id}/events', () => {
    let account: CreatedAccount;
    let token: string;
    let id: string;
    beforeAll(async () => {
      account = await t.createAccount();
      token = await t.tokenFor(account);
      id = (await t.call('POST', '/v1/email/send', token, MINIMAL)).json().data.message_id;
    });

    it('needs the email:read scope', async () => {
      const sendOnly = await t.tokenFor(account, 'email:send');
      const response = await t.call('GET', `/v1/email/${id}/events`, sendOnly);
      expectError(response, 403, 'INSUFFICIENT_SCOPE');
      expect(response.headers['www-authenticate']).toContain('scope="email:read"');
      expect((await t.call('GET', `/v1/email/${id}/events`, await t.tokenFor(account, 'email:read'))).statusCode).toBe(200);
    });

    it("answers 404 to another account's email, never 403", async () => {
      const other = await t.createAccount();
      expectError(await t.call('GET', `/v1/email/${id}/events`, await t.tokenFor(other)), 404, 'NOT_FOUND');
    });

    it('answers 404 to an SMS id, an unknown email id and a malformed id', async () => {
      const sms = (await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'hi' })).json().data.message_id;
      for (const unknown of [sms, newMessageId('email', t.clock.now()), 'msg_email_nope', 'anything']) {
        expectError(await t.call('GET', `/v1/email/${unknown}/events`, token), 404, 'NOT_FOUND');
      }
    });
  });
});

describeEachDialect('Email size limit', (dialect) => {
  const LIMIT = 4096;
  let t: TestApp;
  let account: CreatedAccount;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { emailMaxBytes: LIMIT, bodyLimitBytes: 1024 });
    account = await t.createAccount();
    token = await t.tokenFor(account);
  });
  afterAll(() => t.close());

  /** An email of exactly `bytes` (subject, text and one attachment's decoded bytes). */
  const emailOf = (bytes: number, extra: Record<string, unknown> = {}) => {
    const subject = 'Sized';
    const text = 'Body';
    const file = Buffer.alloc(bytes - subject.length - text.length, 1);
    return { ...MINIMAL, subject, text, attachments: [{ filename: 'f.bin', content: file.toString('base64') }], ...extra };
  };

  const sendRejected = async (body: unknown) => {
    const before = await accountSnapshot(t, account);
    const response = await t.call('POST', '/v1/email/send', token, body);
    expect(await accountSnapshot(t, account)).toEqual(before);
    return response;
  };

  it('accepts an email of exactly EMAIL_MAX_BYTES, though its base64 body is over BODY_LIMIT_BYTES', async () => {
    const response = await t.call('POST', '/v1/email/send', token, emailOf(LIMIT));
    expect(response.statusCode, response.body).toBe(200);
  });

  it('refuses one byte more with 413 PAYLOAD_TOO_LARGE, writing nothing', async () => {
    const error = expectError(await sendRejected(emailOf(LIMIT + 1)), 413, 'PAYLOAD_TOO_LARGE');
    expect(error.message).toContain(String(LIMIT));
  });

  it('counts the subject and bodies in UTF-8 bytes', async () => {
    const { attachments: _none, ...plain } = emailOf(LIMIT);
    expect((await t.call('POST', '/v1/email/send', token, { ...plain, text: 'é'.repeat(Math.floor((LIMIT - 5) / 2)) })).statusCode).toBe(
      200,
    );
    expectError(await sendRejected({ ...plain, text: 'é'.repeat(LIMIT / 2) }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('refuses a request body beyond twice the limit before reading it', async () => {
    const response = await sendRejected({ ...MINIMAL, text: 'x'.repeat(3 * LIMIT) });
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('reports field problems of an oversize email first (422)', async () => {
    expectFieldProblems(await sendRejected(emailOf(LIMIT + 1, { to: 'nobody' })), ['to']);
  });

  it('keeps BODY_LIMIT_BYTES for every other route', async () => {
    const before = await accountSnapshot(t, account);
    const response = await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'a'.repeat(1500) });
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    expect(await accountSnapshot(t, account)).toEqual(before);
  });
});
