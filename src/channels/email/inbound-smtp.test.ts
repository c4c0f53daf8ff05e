import { connect } from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { testLogger } from '../../../test/logs.js';
import { freePort } from '../../../test/ports.js';
import { selfSignedCertificate } from '../../../test/tls.js';
import { until } from '../../../test/wait.js';
import { startReceiver } from '../../../test/webhook-receiver.js';
import { assignAddress, releaseAddress } from '../../core/inbound/addresses.js';
import type { ReceivedMessage } from '../../core/inbound/inbound-message.js';
import type { Store } from '../../core/ports.js';
import { loadConfig } from '../../main/config.js';
import { verifyWebhook } from '../../webhooks/verify.js';
import type { EmailSettings } from './email.module.js';
import { createInboundSmtpListener } from './inbound-smtp.js';
import { DEFAULT_INBOUND_SMTP_MAX_BYTES, defaultInboundSmtpLimits, type InboundSmtpSettings } from './inbound-smtp.settings.js';

const INBOUND_SMTP_MAX_RECIPIENTS = defaultInboundSmtpLimits(DEFAULT_INBOUND_SMTP_MAX_BYTES).maxRecipients;

/** A listener's settings on a port of the system's choosing: the defaults for `maxBytes`, and `limits`. */
const listenerSettings = (maxBytes: number, limits: Partial<InboundSmtpSettings> = {}): InboundSmtpSettings =>
  Object.assign({ host: '127.0.0.1', port: 0, maxBytes }, defaultInboundSmtpLimits(maxBytes), limits);

/** What nodemailer's SMTP client throws for a refusal. */
interface SmtpRefusal {
  responseCode?: number;
  response?: string;
  command?: string;
}

/** A sending MTA: one SMTP connection per message, plain text unless `tls` is given (STARTTLS required). */
const client = (port: number, tls?: { ca: string }) =>
  nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ...(tls ? { requireTLS: true, tls: { ca: tls.ca, servername: 'localhost' } } : { ignoreTLS: true }),
  });

/** The email module's INBOUND_SMTP_* settings as a process reads them from `env`. */
const inboundSettingsOf = (env: Record<string, string>) =>
  (loadConfig(env).channels.find((c) => c.module.name === 'email')?.settings as EmailSettings | undefined)?.inbound;

const refusalOf = (promise: Promise<unknown>): Promise<SmtpRefusal> =>
  promise.then(
    () => {
      throw new Error('the message was accepted');
    },
    (error: SmtpRefusal) => error,
  );

/**
 * Email replies end to end: a nodemailer client speaks SMTP to the email module's own provider
 * (INBOUND_SMTP_PORT set, started as a dispatching process starts it), on each database.
 */
describeEachDialect('inbound SMTP listener (docs/email.md, "Receiving replies")', (dialect) => {
  const MAX_BYTES = 64 * 1024;
  let t: TestApp;
  let port: number;
  let mta: ReturnType<typeof client>;
  let account: Awaited<ReturnType<TestApp['createAccount']>>;
  let token: string;

  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp(dialect, { env: { INBOUND_SMTP_PORT: String(port), INBOUND_SMTP_MAX_BYTES: String(MAX_BYTES) } });
    account = await t.createAccount();
    token = await t.tokenFor(account);
    await assignAddress(t.store, { accountId: account.account.id, channel: 'email', address: 'replies@example.com', at: t.clock.now() });
    t.providers.email.start?.();
    mta = client(port);
    await until(() => mta.verify().catch(() => false), 'the inbound SMTP listener');
  });
  afterAll(async () => {
    mta?.close();
    await t?.providers.email.close?.();
    await t?.close();
  });

  let writers = 0;
  /** A writer of its own per test, so each test finds its messages by `from`. */
  const writer = () => `Writer${++writers}.${dialect}@Customer.example`;
  const inboundFrom = async (from: string, bearer = token) =>
    (await t.call('GET', '/v1/messages?direction=inbound&channel=email&limit=100', bearer))
      .json()
      .data.messages.filter((m: { from: string }) => m.from === from.toLowerCase());

  it('stores a reply once answered 250, listed as inbound and readable at GET /v1/messages/{id}', async () => {
    const from = writer();
    const info = await mta.sendMail({
      from: `"A Customer" <${from}>`,
      to: 'Replies@Example.com',
      subject: 'Re: Your invoice #42',
      text: '  Yes, paid this morning.\n\n> Your invoice #42 is due.\n',
      messageId: `<reply-1.${dialect}@customer.example>`,
      inReplyTo: '<msg_email_01@acme.example>',
      references: ['<msg_email_00@acme.example>', '<msg_email_01@acme.example>'],
      attachments: [{ filename: 'receipt.txt', content: 'paid' }],
    });
    expect(info.response).toMatch(/^250 /);
    // Answered only once stored: nothing to wait for.
    const [listed, ...more] = await inboundFrom(from);
    expect(more).toEqual([]);
    expect(listed).toMatchObject({
      direction: 'inbound',
      channel: 'email',
      from: from.toLowerCase(),
      to: 'replies@example.com',
      text: 'Yes, paid this morning.\n\n> Your invoice #42 is due.',
      details: {
        subject: 'Re: Your invoice #42',
        message_id: `<reply-1.${dialect}@customer.example>`,
        in_reply_to: '<msg_email_01@acme.example>',
        references: ['<msg_email_00@acme.example>', '<msg_email_01@acme.example>'],
        attachments: 1,
      },
      received_at: new Date(t.clock.now()).toISOString(),
    });
    expect(listed.message_id).toMatch(/^msg_email_/);
    const read = await t.call('GET', `/v1/messages/${listed.message_id}`, token);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(listed);
  });

  it('fires a signed message.received event with the message as GET shows it', async () => {
    const receiver = await startReceiver(() => 204);
    const other = await t.createAccount();
    const otherToken = await t.tokenFor(other);
    await assignAddress(t.store, { accountId: other.account.id, channel: 'email', address: 'support@example.net', at: t.clock.now() });
    try {
      const registered = await t.call('POST', '/v1/webhooks', otherToken, { url: `${receiver.url}/in`, events: ['message.received'] });
      expect(registered.statusCode).toBe(201);
      const secret = (await t.call('GET', '/v1/webhooks/secret', otherToken)).json().data.secret;
      const from = writer();
      await mta.sendMail({ from, to: 'support@example.net', subject: 'Help', text: 'It broke.' });
      await t.drain();
      await receiver.waitFor(1, 5_000);
      const [delivery] = receiver.received;
      const event = JSON.parse(delivery?.body ?? '{}');
      expect(event.type).toBe('message.received');
      const [message] = await inboundFrom(from, otherToken);
      expect(event.data).toEqual(message);
      expect(message).toMatchObject({ text: 'It broke.', to: 'support@example.net' });
      expect(verifyWebhook({ secret, body: delivery?.body ?? '', headers: delivery?.headers ?? {} })).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a recipient no account has with 550 at RCPT TO, and keeps nothing', async () => {
    const from = writer();
    const refusal = await refusalOf(mta.sendMail({ from, to: 'nobody@example.com', subject: 'Hi', text: 'Anyone?' }));
    expect(refusal.command).toBe('RCPT TO');
    expect(refusal.responseCode).toBe(550);
    expect(refusal.response).toMatch(/^550 5\.1\.1 /);
    expect(await inboundFrom(from)).toEqual([]);
  });

  it('takes any address of a domain given as @domain, and stores one copy per accepted recipient', async () => {
    const other = await t.createAccount();
    const otherToken = await t.tokenFor(other);
    await assignAddress(t.store, { accountId: other.account.id, channel: 'email', address: '@replies.example.org', at: t.clock.now() });
    const from = writer();
    // Two recipients of two accounts in one transaction, and one refused: the message goes to the two.
    const info = await mta.sendMail({
      from,
      to: ['Team-7@Replies.Example.org', 'replies@example.com', 'stranger@example.org'],
      subject: 'To all',
      text: 'Hello both.',
    });
    // (nodemailer writes domains in lower case.)
    expect(info.accepted).toEqual(['Team-7@replies.example.org', 'replies@example.com']);
    expect(info.rejected).toEqual(['stranger@example.org']);
    expect(await inboundFrom(from, otherToken)).toMatchObject([{ to: 'team-7@replies.example.org', text: 'Hello both.' }]);
    expect(await inboundFrom(from)).toMatchObject([{ to: 'replies@example.com', text: 'Hello both.' }]);
  });

  it('refuses a message over INBOUND_SMTP_MAX_BYTES with 552 and keeps nothing', async () => {
    const from = writer();
    const refusal = await refusalOf(mta.sendMail({ from, to: 'replies@example.com', subject: 'Big', text: 'x'.repeat(MAX_BYTES + 1) }));
    expect(refusal.responseCode).toBe(552);
    expect(refusal.response).toMatch(/^552 5\.3\.4 /);
    expect(await inboundFrom(from)).toEqual([]);
    // The session is still good for the next message.
    await mta.sendMail({ from, to: 'replies@example.com', subject: 'Small', text: 'Shorter.' });
    expect(await inboundFrom(from)).toMatchObject([{ text: 'Shorter.' }]);
  });

  it('stores a message sent twice with one Message-ID once', async () => {
    const from = writer();
    const mail = {
      from,
      to: 'replies@example.com',
      subject: 'Re: Hi',
      text: 'Sent twice.',
      messageId: `<twice.${dialect}@customer.example>`,
    };
    await mta.sendMail(mail);
    await mta.sendMail(mail);
    expect(await inboundFrom(from)).toHaveLength(1);
  });

  it('gives the text of an HTML-only message', async () => {
    const from = writer();
    await mta.sendMail({
      from,
      to: 'replies@example.com',
      subject: 'Re: Hi',
      html: '<html><body><p>Hello <b>there</b>,</p><p>See you at 3.</p><script>ignored()</script></body></html>',
    });
    const [message] = await inboundFrom(from);
    expect(message.text).toMatch(/^Hello there,\s+See you at 3\.$/);
  });

  it('takes the envelope sender when the message has no From header', async () => {
    const from = writer();
    const raw = `To: replies@example.com\r\nSubject: No From\r\nMessage-ID: <nofrom.${dialect}@customer.example>\r\n\r\nFrom the envelope.\r\n`;
    await mta.sendMail({ envelope: { from, to: ['replies@example.com'] }, raw });
    expect(await inboundFrom(from)).toMatchObject([{ text: 'From the envelope.', details: { subject: 'No From' } }]);
  });

  it(`refuses recipients past ${INBOUND_SMTP_MAX_RECIPIENTS} with 452 and stores the message for those taken`, async () => {
    const from = writer();
    const to = Array.from({ length: INBOUND_SMTP_MAX_RECIPIENTS + 2 }, (_, i) => `r${i}@example.com`);
    to[0] = 'replies@example.com';
    // Only replies@ is an account's: the others are refused 550 and do not count; so count them in with @domain.
    const other = await t.createAccount();
    await assignAddress(t.store, { accountId: other.account.id, channel: 'email', address: '@example.com', at: t.clock.now() });
    const info = await mta.sendMail({ from, to, subject: 'Many', text: 'To many.', messageId: `<many.${dialect}@customer.example>` });
    expect(info.accepted).toHaveLength(INBOUND_SMTP_MAX_RECIPIENTS);
    expect(info.rejected).toHaveLength(2);
    const errors = (info as unknown as { rejectedErrors: SmtpRefusal[] }).rejectedErrors;
    expect(errors.map((e) => e.responseCode)).toEqual([452, 452]);
    // One message per account: the account's other addresses carry the same Message-ID.
    expect(await inboundFrom(from)).toHaveLength(1);
    expect(await inboundFrom(from, await t.tokenFor(other))).toHaveLength(1);
  });
});

describeEachDialect('inbound SMTP listener, failures and STARTTLS', (dialect) => {
  let t: TestApp;
  let account: Awaited<ReturnType<TestApp['createAccount']>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    account = await t.createAccount();
    await assignAddress(t.store, { accountId: account.account.id, channel: 'email', address: 'replies@example.com', at: t.clock.now() });
  });
  afterAll(() => t?.close());

  it('answers 451 while the message cannot be stored, and the resend stores it once', async () => {
    let failures = 1;
    const listener = createInboundSmtpListener(listenerSettings(1024 * 1024), {
      store: t.store,
      clock: t.clock,
      logger: testLogger('inbound-smtp'),
      onInbound: async (received: ReceivedMessage) => {
        if (failures-- > 0) throw new Error('database unavailable');
        return t.receive(received);
      },
    });
    listener.start();
    const port = await until(async () => listener.address()?.port, 'the listener');
    const mta = client(port);
    try {
      const mail = {
        from: 'retry@customer.example',
        to: 'replies@example.com',
        subject: 'Re',
        text: 'Again.',
        messageId: '<retry@customer.example>',
      };
      const refusal = await refusalOf(mta.sendMail(mail));
      expect(refusal.responseCode).toBe(451);
      expect(refusal.response).toMatch(/^451 4\.3\.0 /);
      expect((await mta.sendMail(mail)).response).toMatch(/^250 /);
      expect((await mta.sendMail(mail)).response).toMatch(/^250 /);
      const token = await t.tokenFor(account);
      const listed = (await t.call('GET', '/v1/messages?direction=inbound&channel=email', token)).json().data.messages;
      expect(listed.filter((m: { from: string }) => m.from === 'retry@customer.example')).toHaveLength(1);
    } finally {
      mta.close();
      await listener.close();
    }
  });

  it('logs a port another process holds and carries on without listening', async () => {
    const warnings: string[] = [];
    const deps = {
      store: t.store,
      clock: t.clock,
      logger: { info() {}, warn: (_: object, message: string) => warnings.push(message) },
      onInbound: (received: ReceivedMessage) => t.receive(received),
    };
    const first = createInboundSmtpListener(listenerSettings(1024), deps);
    first.start();
    const port = await until(async () => first.address()?.port, 'the first listener');
    const second = createInboundSmtpListener(Object.assign(listenerSettings(1024), { port }), deps);
    try {
      second.start();
      await until(async () => warnings.length > 0, 'the warning');
      expect(warnings).toEqual([expect.stringMatching(/^inbound SMTP listener could not listen/)]);
      expect(second.address()).toBeUndefined();
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('offers STARTTLS with INBOUND_SMTP_TLS_CERT and _KEY, and takes mail over it', async () => {
    const certificate = selfSignedCertificate();
    const port = await freePort();
    const settings = inboundSettingsOf({
      INBOUND_SMTP_PORT: String(port),
      INBOUND_SMTP_TLS_CERT: certificate.certFile,
      INBOUND_SMTP_TLS_KEY: certificate.keyFile,
    });
    if (!settings) throw new Error('no inbound SMTP settings');
    expect(settings).toMatchObject({ host: '127.0.0.1', port, maxBytes: 10 * 1024 * 1024 });
    const listener = createInboundSmtpListener(settings, {
      store: t.store,
      clock: t.clock,
      logger: testLogger('inbound-smtp'),
      onInbound: (received) => t.receive(received),
    });
    listener.start();
    await until(async () => listener.address(), 'the listener');
    const mta = client(port, { ca: certificate.cert });
    try {
      const info = await mta.sendMail({ from: 'tls@customer.example', to: 'replies@example.com', subject: 'Re', text: 'Encrypted.' });
      expect(info.response).toMatch(/^250 /);
    } finally {
      mta.close();
      await listener.close();
    }
  });
});

/** A reply of the server: its code and whole text (the last line of a multi-line one). */
interface Reply {
  code: number;
  text: string;
}

/**
 * A sending MTA at the SMTP level, on its own connection: each command waits for its reply, and
 * `closed` resolves once the server has ended the session.
 */
async function rawSmtp(port: number) {
  const socket = connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  socket.on('error', () => {});
  let pending = '';
  const replies: Reply[] = [];
  let wake: (() => void) | undefined;
  let isClosed = false;
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      isClosed = true;
      wake?.();
      resolve();
    }),
  );
  socket.on('data', (data: string) => {
    pending += data;
    for (let end = pending.indexOf('\r\n'); end >= 0; end = pending.indexOf('\r\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 2);
      // "250-..." goes on; "250 ..." ends the reply.
      if (/^\d{3}(?: |$)/.test(line)) replies.push({ code: Number(line.slice(0, 3)), text: line });
    }
    wake?.();
  });
  const next = async (): Promise<Reply> => {
    for (;;) {
      const reply = replies.shift();
      if (reply) return reply;
      if (isClosed) throw new Error('the server closed the connection');
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  return {
    /** The greeting, or the refusal of the connection. */
    greeting: next,
    command: (line: string) => {
      socket.write(`${line}\r\n`);
      return next();
    },
    write: (text: string) => socket.write(text),
    next,
    closed,
    isClosed: () => isClosed,
    end: () => socket.destroy(),
  };
}

type RawSmtp = Awaited<ReturnType<typeof rawSmtp>>;

/** Greeted, EHLO and MAIL FROM answered 250. */
async function openTransaction(port: number, from: string): Promise<RawSmtp> {
  const smtp = await rawSmtp(port);
  expect((await smtp.greeting()).code).toBe(220);
  expect((await smtp.command('EHLO mta.customer.example')).code).toBe(250);
  expect((await smtp.command(`MAIL FROM:<${from}>`)).code).toBe(250);
  return smtp;
}

/** A message of about `bodyBytes` bytes in lines of 76 characters, for DATA (without its final dot). */
const messageOf = (from: string, to: string, subject: string, bodyBytes: number): string =>
  `From: ${from}\r\nTo: ${to}\r\nSubject: ${subject}\r\n\r\n${`${'y'.repeat(76)}\r\n`.repeat(Math.ceil(bodyBytes / 78))}`;

/** The store, counting the recipient look-ups the listener makes (each one is a query). */
function countingLookups(store: Store): { store: Store; lookups: () => number } {
  let lookups = 0;
  const inbound: Store['inbound'] = Object.assign(Object.create(store.inbound), {
    accountOfAddress: (...args: Parameters<Store['inbound']['accountOfAddress']>) => {
      lookups++;
      return store.inbound.accountOfAddress(...args);
    },
  });
  return { store: Object.assign(Object.create(store), { inbound }), lookups: () => lookups };
}

/** What clients cannot make the listener hold or do, each limit set small so that a test reaches it. */
describeEachDialect('inbound SMTP listener limits', (dialect) => {
  let t: TestApp;
  let token: string;
  const listeners: Array<ReturnType<typeof createInboundSmtpListener>> = [];
  const sessions: RawSmtp[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const account = await t.createAccount();
    token = await t.tokenFor(account);
    await assignAddress(t.store, { accountId: account.account.id, channel: 'email', address: 'replies@example.com', at: t.clock.now() });
    await assignAddress(t.store, { accountId: account.account.id, channel: 'email', address: '@many.example', at: t.clock.now() });
  });
  afterAll(async () => {
    for (const session of sessions) session.end();
    for (const listener of listeners) await listener.close();
    await t?.close();
  });

  /** A listener of its own with these limits; the port it listens on, and it. */
  const listen = async (maxBytes: number, limits: Partial<InboundSmtpSettings> = {}, store: Store = t.store) => {
    const listener = createInboundSmtpListener(listenerSettings(maxBytes, limits), {
      store,
      clock: t.clock,
      logger: testLogger('inbound-smtp'),
      onInbound: (received) => t.receive(received),
    });
    listeners.push(listener);
    listener.start();
    const port = await until(async () => listener.address()?.port, 'the listener');
    return { port, listener };
  };
  const session = async (port: number) => {
    const smtp = await rawSmtp(port);
    sessions.push(smtp);
    return smtp;
  };
  const transaction = async (port: number, from: string) => {
    const smtp = await openTransaction(port, from);
    sessions.push(smtp);
    return smtp;
  };
  const inboundFrom = async (from: string) =>
    (await t.call('GET', '/v1/messages?direction=inbound&channel=email&limit=100', token))
      .json()
      .data.messages.filter((m: { from: string }) => m.from === from);

  it('refuses a connection past INBOUND_SMTP_MAX_CONNECTIONS_PER_IP with 421, and takes one again once another ends', async () => {
    const { port } = await listen(64 * 1024, { maxConnectionsPerIp: 2 });
    const [first, second] = [await session(port), await session(port)];
    expect((await first.greeting()).code).toBe(220);
    expect((await second.greeting()).code).toBe(220);
    const third = await session(port);
    const refused = await third.greeting();
    expect(refused.code).toBe(421);
    expect(refused.text).toMatch(/^421 Too many connections from your address/);
    await third.closed;
    // The two taken still work.
    expect((await second.command('EHLO mta.customer.example')).code).toBe(250);
    first.end();
    await first.closed;
    const greeted = await until(async () => {
      const next = await session(port);
      const greeting = await next.greeting();
      return greeting.code === 220 ? greeting : false;
    }, 'a connection taken again');
    expect(greeted.code).toBe(220);
  });

  it('ends a session with 421 once it has named INBOUND_SMTP_MAX_REFUSED_RECIPIENTS recipients no account has, without looking more up', async () => {
    const counted = countingLookups(t.store);
    const { port } = await listen(64 * 1024, { maxRefusedRecipients: 3 }, counted.store);
    const smtp = await transaction(port, `prober.${dialect}@spam.example`);
    for (const name of ['alice', 'bob', 'carol']) {
      expect((await smtp.command(`RCPT TO:<${name}@example.com>`)).text).toMatch(/^550 5\.1\.1 /);
    }
    // Even an address an account has: the session is over.
    const cut = await smtp.command('RCPT TO:<replies@example.com>');
    expect(cut.code).toBe(421);
    expect(cut.text).toMatch(/^421 4\.4\.2 Too many unknown recipients/);
    await smtp.closed;
    expect(counted.lookups()).toBe(3);
  });

  it('counts unknown recipients per client across sessions: reconnecting buys a prober at most five sessions of look-ups in ten minutes', async () => {
    const counted = countingLookups(t.store);
    const { port } = await listen(64 * 1024, { maxRefusedRecipients: 2, maxConnectionsPerIp: 50 }, counted.store);
    const answers: number[] = [];
    for (let round = 0; round < 7; round++) {
      const smtp = await transaction(port, `prober${round}.${dialect}@spam.example`);
      for (const name of ['alice', 'bob']) {
        const { code } = await smtp.command(`RCPT TO:<${name}${round}@example.com>`);
        answers.push(code);
        if (code === 421) break; // the server closes the session
      }
      smtp.end();
      await smtp.closed;
    }
    // 5 sessions × 2 refusals looked up; then 421 at once without a look-up, however often it comes back.
    expect(answers).toEqual([...Array<number>(10).fill(550), 421, 421]);
    expect(counted.lookups()).toBe(10);
    // Ten minutes on, it may try again.
    t.clock.advance(10 * 60_000 + 1);
    const later = await transaction(port, `prober.later.${dialect}@spam.example`);
    expect((await later.command('RCPT TO:<dave@example.com>')).code).toBe(550);
  });

  it('refuses recipients past INBOUND_SMTP_MAX_RECIPIENTS with 452 4.5.3 without looking them up, and stores the message', async () => {
    const counted = countingLookups(t.store);
    const { port } = await listen(64 * 1024, { maxRecipients: 3 }, counted.store);
    const mta = client(port);
    const from = `many.${dialect}@customer.example`;
    try {
      const to = ['a', 'b', 'c', 'd', 'e'].map((name) => `${name}@many.example`);
      const info = await mta.sendMail({
        from,
        to,
        subject: 'Many',
        text: 'To many.',
        messageId: `<limits-many.${dialect}@customer.example>`,
      });
      expect(info.accepted).toEqual(to.slice(0, 3));
      expect(info.rejected).toEqual(to.slice(3));
      const errors = (info as unknown as { rejectedErrors: SmtpRefusal[] }).rejectedErrors;
      expect(errors.map((e) => e.response)).toEqual([expect.stringMatching(/^452 4\.5\.3 /), expect.stringMatching(/^452 4\.5\.3 /)]);
    } finally {
      mta.close();
    }
    expect(counted.lookups()).toBe(3);
    // One account, one Message-ID: one message.
    expect(await inboundFrom(from)).toHaveLength(1);
  });

  it('answers 550 5.1.1 after DATA, and stores nothing, when the address was released since RCPT TO', async () => {
    const { port } = await listen(64 * 1024);
    const account = await t.createAccount();
    const other = await t.tokenFor(account);
    const address = `leaving.${dialect}@gone.example`;
    await assignAddress(t.store, { accountId: account.account.id, channel: 'email', address, at: t.clock.now() });
    const from = `late.${dialect}@customer.example`;
    const smtp = await transaction(port, from);
    expect((await smtp.command(`RCPT TO:<${address}>`)).code).toBe(250);
    expect(await releaseAddress(t.store, { channel: 'email', address, at: t.clock.now() })).toBe(account.account.id);
    expect((await smtp.command('DATA')).code).toBe(354);
    const answer = await smtp.command(`${messageOf(from, address, 'Late', 200)}.`);
    expect(answer.text).toMatch(/^550 5\.1\.1 /);
    const listed = (await t.call('GET', '/v1/messages?direction=inbound&channel=email', other)).json().data.messages;
    expect(listed).toEqual([]);
    // With another recipient still an account's, the message is that one's alone.
    expect((await smtp.command(`MAIL FROM:<${from}>`)).code).toBe(250);
    await assignAddress(t.store, { accountId: account.account.id, channel: 'email', address, at: t.clock.now() });
    expect((await smtp.command(`RCPT TO:<${address}>`)).code).toBe(250);
    expect((await smtp.command('RCPT TO:<replies@example.com>')).code).toBe(250);
    await releaseAddress(t.store, { channel: 'email', address, at: t.clock.now() });
    expect((await smtp.command('DATA')).code).toBe(354);
    expect((await smtp.command(`${messageOf(from, address, 'Partly late', 200)}.`)).code).toBe(250);
    expect((await t.call('GET', '/v1/messages?direction=inbound&channel=email', other)).json().data.messages).toEqual([]);
    expect(await inboundFrom(from)).toMatchObject([{ to: 'replies@example.com', details: { subject: 'Partly late' } }]);
  });

  it('answers 451 4.3.0 to a message the INBOUND_SMTP_MAX_BUFFERED_BYTES of all sessions cannot hold, and takes it once there is room', async () => {
    const { port, listener } = await listen(64 * 1024, { maxBufferedBytes: 64 * 1024 });
    // One session holds 40 KiB of a message it has not finished.
    const first = `holder.${dialect}@customer.example`;
    const holder = await transaction(port, first);
    expect((await holder.command('RCPT TO:<replies@example.com>')).code).toBe(250);
    expect((await holder.command('DATA')).code).toBe(354);
    holder.write(messageOf(first, 'replies@example.com', 'Held', 40 * 1024));
    await until(async () => listener.bufferedBytes() >= 40 * 1024, 'the first message in memory');
    // Another one's 40 KiB would pass the 64 KiB of all sessions: refused, nothing more held.
    const second = `waiting.${dialect}@customer.example`;
    const mta = client(port);
    try {
      const mail = { from: second, to: 'replies@example.com', subject: 'Waits', text: 'z'.repeat(40 * 1024) };
      const refusal = await refusalOf(mta.sendMail(mail));
      expect(refusal.responseCode).toBe(451);
      expect(refusal.response).toMatch(/^451 4\.3\.0 /);
      expect(listener.bufferedBytes()).toBeLessThan(64 * 1024);
      expect(await inboundFrom(second)).toEqual([]);
      // The first ends and is stored; its bytes are given back, and the second's resend is taken.
      expect((await holder.command('.')).code).toBe(250);
      expect(listener.bufferedBytes()).toBe(0);
      expect((await mta.sendMail(mail)).response).toMatch(/^250 /);
      expect(listener.bufferedBytes()).toBe(0);
    } finally {
      mta.close();
    }
    expect(await inboundFrom(first)).toMatchObject([{ details: { subject: 'Held' } }]);
    expect(await inboundFrom(second)).toMatchObject([{ details: { subject: 'Waits' } }]);
  });

  it('gives back the bytes of a message whose client went away mid-DATA, and stores nothing of it', async () => {
    const { port, listener } = await listen(256 * 1024, { maxBufferedBytes: 256 * 1024 });
    const from = `gone.${dialect}@customer.example`;
    const smtp = await transaction(port, from);
    expect((await smtp.command('RCPT TO:<replies@example.com>')).code).toBe(250);
    expect((await smtp.command('DATA')).code).toBe(354);
    smtp.write(messageOf(from, 'replies@example.com', 'Cut off', 200 * 1024));
    await until(async () => listener.bufferedBytes() >= 200 * 1024, 'the message in memory');
    // The connection drops before the final dot.
    smtp.end();
    await smtp.closed;
    await until(
      async () => listener.bufferedBytes() === 0,
      () => `the bytes given back (${listener.bufferedBytes()} held)`,
    );
    expect(await inboundFrom(from)).toEqual([]);
  });

  it('refuses a message going past INBOUND_SMTP_MAX_BYTES with 552 5.3.4 at the end of DATA, holding none of it, and the session goes on', async () => {
    const { port, listener } = await listen(16 * 1024, { maxBufferedBytes: 16 * 1024 });
    const from = `big.${dialect}@customer.example`;
    const smtp = await transaction(port, from);
    expect((await smtp.command('RCPT TO:<replies@example.com>')).code).toBe(250);
    expect((await smtp.command('DATA')).code).toBe(354);
    // No SIZE declared: only the stream tells. Ten times the limit, none of it kept.
    const refused = await smtp.command(`${messageOf(from, 'replies@example.com', 'Too big', 160 * 1024)}.`);
    expect(refused.text).toMatch(/^552 5\.3\.4 /);
    expect(listener.bufferedBytes()).toBe(0);
    expect(await inboundFrom(from)).toEqual([]);
    expect((await smtp.command(`MAIL FROM:<${from}>`)).code).toBe(250);
    expect((await smtp.command('RCPT TO:<replies@example.com>')).code).toBe(250);
    expect((await smtp.command('DATA')).code).toBe(354);
    expect((await smtp.command(`${messageOf(from, 'replies@example.com', 'Fits', 8 * 1024)}.`)).code).toBe(250);
    expect(await inboundFrom(from)).toMatchObject([{ details: { subject: 'Fits' } }]);
  });
});

describe('inbound SMTP settings', () => {
  it('is off without INBOUND_SMTP_PORT, and its other settings need it', () => {
    expect(inboundSettingsOf({})).toBeUndefined();
    expect(() => loadConfig({ INBOUND_SMTP_HOST: '0.0.0.0' })).toThrow(/^INBOUND_SMTP_HOST: needs INBOUND_SMTP_PORT/);
    expect(inboundSettingsOf({ INBOUND_SMTP_PORT: '2525', INBOUND_SMTP_HOST: '0.0.0.0' })).toEqual({
      host: '0.0.0.0',
      port: 2525,
      maxBytes: 10 * 1024 * 1024,
      maxBufferedBytes: 40 * 1024 * 1024,
      maxParses: 2,
      maxConnectionsPerIp: 20,
      maxRecipients: 100,
      maxRefusedRecipients: 20,
    });
    expect(() => loadConfig({ INBOUND_SMTP_PORT: '2525', INBOUND_SMTP_HOST: 'mx.example.com' })).toThrow(
      /^INBOUND_SMTP_HOST: must be an IP/,
    );
    expect(() => loadConfig({ INBOUND_SMTP_PORT: '2525', INBOUND_SMTP_TLS_CERT: '/etc/ssl/mx.pem' })).toThrow(
      /^INBOUND_SMTP_TLS_KEY: is required/,
    );
  });

  it('reads the limits from INBOUND_SMTP_MAX_*, and refuses a value out of range naming its variable', () => {
    expect(
      inboundSettingsOf({
        INBOUND_SMTP_PORT: '2525',
        INBOUND_SMTP_MAX_BYTES: '65536',
        INBOUND_SMTP_MAX_PARSES: '1',
        INBOUND_SMTP_MAX_CONNECTIONS_PER_IP: '3',
        INBOUND_SMTP_MAX_RECIPIENTS: '50',
        INBOUND_SMTP_MAX_REFUSED_RECIPIENTS: '5',
      }),
    ).toMatchObject({
      maxBytes: 65536,
      // Four messages of the largest size unless set.
      maxBufferedBytes: 4 * 65536,
      maxParses: 1,
      maxConnectionsPerIp: 3,
      maxRecipients: 50,
      maxRefusedRecipients: 5,
    });
    expect(inboundSettingsOf({ INBOUND_SMTP_PORT: '2525', INBOUND_SMTP_MAX_BUFFERED_BYTES: '20971520' })).toMatchObject({
      maxBufferedBytes: 20 * 1024 * 1024,
    });
    expect(() => loadConfig({ INBOUND_SMTP_MAX_RECIPIENTS: '50' })).toThrow(/^INBOUND_SMTP_MAX_RECIPIENTS: needs INBOUND_SMTP_PORT/);
    const refused = (variable: string, value: string) => () => loadConfig({ INBOUND_SMTP_PORT: '2525', [variable]: value });
    expect(refused('INBOUND_SMTP_MAX_CONNECTIONS_PER_IP', '0')).toThrow(
      /^INBOUND_SMTP_MAX_CONNECTIONS_PER_IP: must be a whole number from 1 to 200 \(got "0"\)$/,
    );
    expect(refused('INBOUND_SMTP_MAX_PARSES', 'many')).toThrow(/^INBOUND_SMTP_MAX_PARSES: must be a whole number/);
    expect(refused('INBOUND_SMTP_MAX_RECIPIENTS', '1.5')).toThrow(/^INBOUND_SMTP_MAX_RECIPIENTS: must be a whole number/);
    expect(refused('INBOUND_SMTP_MAX_REFUSED_RECIPIENTS', '-1')).toThrow(/^INBOUND_SMTP_MAX_REFUSED_RECIPIENTS: must be a whole number/);
    expect(refused('INBOUND_SMTP_MAX_BUFFERED_BYTES', '1048576')).toThrow(
      /^INBOUND_SMTP_MAX_BUFFERED_BYTES: must be at least INBOUND_SMTP_MAX_BYTES \(10485760\)/,
    );
  });

  it('refuses a certificate and key that do not belong together, without echoing the key', () => {
    const [one, two] = [selfSignedCertificate(), selfSignedCertificate()];
    expect(() => loadConfig({ INBOUND_SMTP_PORT: '2525', INBOUND_SMTP_TLS_CERT: one.certFile, INBOUND_SMTP_TLS_KEY: two.keyFile })).toThrow(
      /^INBOUND_SMTP_TLS_KEY: and INBOUND_SMTP_TLS_CERT do not make a TLS certificate \([A-Z0-9_]+\)$/,
    );
  });
});
