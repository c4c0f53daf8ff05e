import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { TEST_PROVIDER_SECRETS } from '../../../test/logs.js';
import { selfSignedCertificate } from '../../../test/tls.js';
import type { OutboundMessage } from '../../core/delivery/provider.js';
import { createSmtpProvider, outcomeOfSmtpError } from './smtp.provider.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
  /** Whether the session had switched to TLS (STARTTLS) before the message. */
  secure: boolean;
}

const TLS = selfSignedCertificate();

/**
 * A real SMTP server on loopback: offers STARTTLS and requires it before AUTH (so credentials only
 * ever travel encrypted), refuses recipients by their local part (temp… 451, perm… 550).
 */
async function startSmtpServer(): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    secure: false,
    key: TLS.key,
    cert: TLS.cert,
    allowInsecureAuth: false,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      if (auth.username === 'herald' && auth.password === TEST_PROVIDER_SECRETS.smtpPassword) return callback(null, { user: 'herald' });
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      if (address.address.startsWith('temp')) return callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
      if (address.address.startsWith('perm')) return callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
      return callback();
    },
    onMailFrom(address, session, callback) {
      if (!session.secure) return callback(Object.assign(new Error('Must issue a STARTTLS command first'), { responseCode: 530 }));
      if (address.address.startsWith('refused-sender')) {
        return callback(Object.assign(new Error('5.7.1 Sender address rejected'), { responseCode: 553 }));
      }
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: session.secure,
        });
        callback();
      });
    },
    logger: false,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const outbound = (to: string, payload: Record<string, unknown>): OutboundMessage => ({
  id: `msg_email_${'0'.repeat(26)}`,
  accountId: 'acc_x',
  channel: 'email',
  to,
  sender: 'billing@acme.example',
  body: 'Your invoice',
  payload,
  segments: null,
  attempt: 1,
});

const PAYLOAD = {
  from: 'billing@acme.example',
  from_name: 'Acme Billing',
  subject: 'Your invoice',
  html: '<p>Hello <b>Ada</b></p>',
  text: 'Hello Ada',
  reply_to: 'help@acme.example',
  cc: ['books@acme.example'],
  attachments: [{ filename: 'invoice.txt', content: Buffer.from('total: 42 EUR').toString('base64'), content_type: 'text/plain' }],
  track_opens: false,
  track_clicks: false,
};

describe('SMTP refusals as outcomes', () => {
  const refusal = (command: string, responseCode: number, response: string) =>
    outcomeOfSmtpError(Object.assign(new Error(response), { command, responseCode, response }));

  it('keeps the plain code only for the recipient’s own refusal: a refused sender, content or policy names itself', () => {
    expect(refusal('RCPT TO', 550, '550 5.1.1 No such user')).toMatchObject({ retryable: false, code: 'SMTP_550' });
    expect(refusal('MAIL FROM', 553, '553 5.7.1 Sender address rejected')).toMatchObject({ retryable: false, code: 'SMTP_SENDER_553' });
    expect(refusal('DATA', 550, '550 5.7.26 Unauthenticated email from acme.example is not accepted (DMARC)')).toMatchObject({
      retryable: false,
      code: 'SMTP_CONTENT_550',
    });
    expect(refusal('RCPT TO', 550, '550 5.7.1 Relaying denied')).toMatchObject({ code: 'SMTP_POLICY_550' });
    expect(refusal('RCPT TO', 451, '451 4.3.0 Try later')).toMatchObject({ retryable: true, code: 'SMTP_451' });
  });

  it("shows the account the server's words only when they are about the email (RCPT TO, the content); our link's are the operator's", () => {
    const sender = refusal('MAIL FROM', 553, '553 5.7.1 <b@acme.example>: Sender address rejected: not owned by user herald-prod');
    expect(sender).toMatchObject({ code: 'SMTP_SENDER_553', detail: expect.stringContaining('herald-prod') });
    expect(!sender.ok && sender.message).not.toContain('herald-prod');
    const busy = refusal('RCPT TO', 421, '421 4.7.0 relay.internal Error: too many connections from 203.0.113.7');
    expect(busy).toMatchObject({ code: 'SMTP_421', retryable: true });
    expect(!busy.ok && busy.message).not.toMatch(/relay\.internal|203\.0\.113\.7/);
    expect(refusal('RCPT TO', 550, '550 5.1.1 No such user')).toMatchObject({ message: '550 5.1.1 No such user' });
    expect(refusal('DATA', 554, '554 5.7.1 Spam detected')).toMatchObject({ message: '554 5.7.1 Spam detected' });
  });

  it('holds in doubt what broke off once the content began to leave; before, it was not delivered', () => {
    const broke = (code: string, command: string, response?: string) =>
      Object.assign(new Error('Connection closed unexpectedly'), { code, command }, response ? { response, responseCode: 421 } : {});
    const inDoubt = { ok: false, retryable: true, code: 'PROVIDER_UNREACHABLE', maybeAccepted: true };
    // After the final `.`, before the 250: nodemailer says ECONNECTION/ESOCKET/ETIMEDOUT at `CONN`.
    expect(outcomeOfSmtpError(broke('ECONNECTION', 'CONN'), 'content')).toEqual(expect.objectContaining(inDoubt));
    expect(outcomeOfSmtpError(broke('ESOCKET', 'CONN'), 'content')).toEqual(expect.objectContaining(inDoubt));
    expect(outcomeOfSmtpError(broke('ETIMEDOUT', 'CONN'), 'content')).toEqual(expect.objectContaining(inDoubt));
    // A reply code read from the line the connection was cut off in is no answer to the content.
    expect(outcomeOfSmtpError(broke('ECONNECTION', 'CONN', '421 4.4.2 Timeout'), 'content')).toEqual(expect.objectContaining(inDoubt));
    // Unsure of the stage: in doubt.
    expect(outcomeOfSmtpError(broke('ECONNECTION', 'CONN'))).toEqual(expect.objectContaining(inDoubt));
    // The server's reply to the content is an answer.
    const refusedContent = Object.assign(new Error('Message failed'), {
      code: 'EMESSAGE',
      command: 'DATA',
      responseCode: 451,
      response: '451 4.3.0 Try later',
    });
    expect(outcomeOfSmtpError(refusedContent, 'content')).toEqual({
      ok: false,
      retryable: true,
      code: 'SMTP_451',
      message: '451 4.3.0 Try later',
    });
    // Before: nothing of the message left.
    for (const code of ['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'EPROTOCOL']) {
      const outcome = outcomeOfSmtpError(broke(code, 'CONN'), 'envelope');
      expect(outcome, code).toMatchObject({ ok: false, retryable: true, code: 'SMTP_UNREACHABLE' });
      expect(outcome, code).not.toHaveProperty('maybeAccepted');
    }
  });
});

describe('SMTP provider against a real SMTP server on loopback', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let provider: ReturnType<typeof createSmtpProvider>;
  const signal = new AbortController().signal;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    provider = createSmtpProvider({
      url: `smtp://herald:${encodeURIComponent(TEST_PROVIDER_SECRETS.smtpPassword)}@127.0.0.1:${smtp.port}`,
      poolSize: 2,
      tlsCa: TLS.cert,
      listUnsubscribe: 'https://acme.example/unsubscribe/{message_id}',
    });
  });
  afterAll(async () => {
    await provider.close();
    await smtp.close();
  });

  it('sends every field of the email and answers sent with the Message-ID', async () => {
    const message = outbound('ada@example.com', PAYLOAD);
    const outcome = await provider.send(message, signal);
    expect(outcome).toEqual({ ok: true, providerMessageId: `<${message.id}@acme.example>` });
    const mail = smtp.received.at(-1);
    expect(mail?.secure).toBe(true); // upgraded with STARTTLS, the certificate checked against the CA given
    expect(mail?.from).toBe('billing@acme.example');
    expect(mail?.to.sort()).toEqual(['ada@example.com', 'books@acme.example']);
    // Long header lines arrive folded (RFC 5322 §2.2.3); unfold them to read each header whole.
    const raw = (mail?.raw ?? '').replace(/\r\n[ \t]+/g, ' ');
    expect(raw).toContain('From: Acme Billing <billing@acme.example>');
    expect(raw).toContain('To: ada@example.com');
    expect(raw).toContain('Cc: books@acme.example');
    expect(raw).toContain('Reply-To: help@acme.example');
    expect(raw).toContain('Subject: Your invoice');
    expect(raw).toContain(`Message-ID: <${message.id}@acme.example>`);
    expect(raw.toLowerCase()).toContain(`x-herald-message-id: ${message.id}`);
    expect(raw).toContain(`List-Unsubscribe: <https://acme.example/unsubscribe/${message.id}>`);
    expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(raw).toContain('Content-Type: text/html');
    expect(raw).toContain('Content-Type: text/plain');
    expect(raw).toMatch(/Content-Disposition: attachment; filename=invoice\.txt/);
    expect(raw).toContain(Buffer.from('total: 42 EUR').toString('base64'));
  });

  it('answers a 4xx reply as retryable, with the server’s words', async () => {
    const outcome = await provider.send(outbound('temp-ada@example.com', PAYLOAD), signal);
    expect(outcome).toMatchObject({ ok: false, retryable: true, code: 'SMTP_451' });
    expect(outcome.ok === false && outcome.message).toContain('Mailbox busy, try later');
  });

  it('answers a 5xx reply as a permanent failure, with the server’s words', async () => {
    const outcome = await provider.send(outbound('perm-ada@example.com', PAYLOAD), signal);
    expect(outcome).toMatchObject({ ok: false, retryable: false, code: 'SMTP_550' });
    expect(outcome.ok === false && outcome.message).toContain('No such user here');
  });

  it('answers wrong credentials as retryable (an operator can fix them), not as a bounce', async () => {
    const wrong = createSmtpProvider({ url: `smtp://herald:nope@127.0.0.1:${smtp.port}`, poolSize: 1, tlsCa: TLS.cert });
    try {
      expect(await wrong.send(outbound('ada@example.com', PAYLOAD), signal)).toMatchObject({
        ok: false,
        retryable: true,
        code: 'SMTP_AUTH',
      });
    } finally {
      await wrong.close();
    }
  });

  it('refuses to send to a server whose certificate it cannot trust', async () => {
    const untrusting = createSmtpProvider({ url: `smtp://herald:x@127.0.0.1:${smtp.port}`, poolSize: 1 });
    try {
      const outcome = await untrusting.send(outbound('ada@example.com', PAYLOAD), signal);
      expect(outcome).toMatchObject({ ok: false, retryable: true });
      expect(smtp.received.some((m) => !m.secure)).toBe(false);
    } finally {
      await untrusting.close();
    }
  });

  it('answers a server that is not there as retryable', async () => {
    const closed = await startSmtpServer();
    await closed.close();
    const nowhere = createSmtpProvider({ url: `smtp://herald:x@127.0.0.1:${closed.port}`, poolSize: 1 });
    try {
      const outcome = await nowhere.send(outbound('ada@example.com', PAYLOAD), signal);
      expect(outcome).toMatchObject({ ok: false, retryable: true, code: 'SMTP_UNREACHABLE' });
      // The socket's words name the relay's address: the operator's (detail), not the account's.
      expect(outcome).toMatchObject({ detail: expect.stringContaining(`127.0.0.1:${closed.port}`) });
      expect(!outcome.ok && outcome.message).not.toContain('127.0.0.1');
    } finally {
      await nowhere.close();
    }
  });
});

describeEachDialect('email through SMTP, end to end', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let provider: ReturnType<typeof createSmtpProvider>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    smtp = await startSmtpServer();
    provider = createSmtpProvider({
      url: `smtp://herald:${encodeURIComponent(TEST_PROVIDER_SECRETS.smtpPassword)}@127.0.0.1:${smtp.port}`,
      poolSize: 2,
      tlsCa: TLS.cert,
    });
    t.providers.email = provider;
  });
  afterAll(async () => {
    await provider.close();
    await smtp.close();
    await t.close();
  });

  it('hands an accepted email to the SMTP server; it is sent, and failed for good on a 5xx with credits released and the address suppressed', async () => {
    const account = await t.createAccount({ credits: 10 });
    const token = await t.tokenFor(account);
    const ok = await t.call('POST', '/v1/email/send', token, {
      to: 'ada@example.com',
      from: 'billing@acme.example',
      subject: 'Hi',
      text: 'Hello',
    });
    const refused = await t.call('POST', '/v1/email/send', token, {
      to: 'perm-bob@example.com',
      from: 'billing@acme.example',
      subject: 'Hi',
      text: 'Hello',
    });
    await t.drain();
    const get = async (id: string) => (await t.call('GET', `/v1/messages/${id}`, token)).json().data;
    expect((await get(ok.json().data.message_id)).status).toBe('sent');
    const failed = await get(refused.json().data.message_id);
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe('SMTP_550');
    expect(failed.credits_used).toBe(0);
    expect(smtp.received.some((m) => m.to.includes('ada@example.com'))).toBe(true);
    expect((await t.call('GET', '/v1/account/balance', token)).json().data).toEqual({ credits: 9.9, reserved: 0, available: 9.9 });
    // A 550 from a real SMTP server is a hard bounce: the address is suppressed (docs/suppression.md), ada's is not.
    const suppressed = (await t.call('GET', '/v1/suppressions?channel=email', token)).json().data.suppressions;
    expect(suppressed).toMatchObject([{ recipient: 'perm-bob@example.com', reason: 'hard_bounce', source: 'email_bounce' }]);
  });

  it('carries Herald’s own one-click unsubscribe link (RFC 8058); its POST suppresses the address, its GET only asks', async () => {
    const account = await t.createAccount({ credits: 10 });
    const token = await t.tokenFor(account);
    const send = (to: string) => t.call('POST', '/v1/email/send', token, { to, from: 'news@acme.example', subject: 'News', text: 'Hello' });
    const sent = await send('reader@example.com');
    await t.drain();
    const raw = (smtp.received.find((m) => m.to.includes('reader@example.com'))?.raw ?? '').replace(/\r\n[ \t]+/g, ' ');
    const link = /List-Unsubscribe: <(http:\/\/herald\.test(\/t\/u\/[^>]+))>/.exec(raw);
    expect(link?.[2]).toMatch(new RegExp(`^/t/u/${sent.json().data.message_id}\\.[A-Za-z0-9_-]{43}$`));
    // One-click (List-Unsubscribe-Post) is offered only on an https link, as RFC 8058 requires: PUBLIC_URL here is http.
    expect(raw).not.toContain('List-Unsubscribe-Post');
    const path = link?.[2] ?? '';

    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post">');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await t.call('GET', '/v1/suppressions', token)).json().data.suppressions).toEqual([]);

    const forged = await t.app.inject({ method: 'POST', url: `${path.slice(0, -3)}xyz`, payload: 'List-Unsubscribe=One-Click' });
    expect(forged.statusCode).toBe(404);
    const oneClick = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('reader@example.com will not get emails from this sender any more.');
    expect((await t.call('GET', '/v1/suppressions', token)).json().data.suppressions).toMatchObject([
      { channel: 'email', recipient: 'reader@example.com', reason: 'opt_out', source: 'email_unsubscribe' },
    ]);
    expect((await send('reader@example.com')).json().error.code).toBe('RECIPIENT_SUPPRESSED');
    // A second click is harmless.
    expect(
      (await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--' }))
        .statusCode,
    ).toBe(200);
  });

  it('a refused sender fails the email without suppressing its recipient: only the recipient’s own refusal is a hard bounce', async () => {
    const account = await t.createAccount({ credits: 10 });
    const token = await t.tokenFor(account);
    const sent = await t.call('POST', '/v1/email/send', token, {
      to: 'innocent@example.com',
      from: 'refused-sender@acme.example',
      subject: 'Hi',
      text: 'Hello',
    });
    await t.drain();
    const failed = (await t.call('GET', `/v1/messages/${sent.json().data.message_id}`, token)).json().data;
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'SMTP_SENDER_553' } });
    expect((await t.call('GET', '/v1/suppressions', token)).json().data.suppressions).toEqual([]);
  });
});
