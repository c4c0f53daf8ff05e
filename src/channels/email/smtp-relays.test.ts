import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboundMessage } from '../../core/delivery/provider.js';
import { loadConfig } from '../../main/config.js';
import { createSmtpRelays } from './smtp-relays.js';

/** An SMTP relay on loopback without TLS or AUTH, refusing recipients by local part (busy… 451, gone… 550). */
async function startRelay(): Promise<{ url: string; received: string[][]; close: () => Promise<void> }> {
  const received: string[][] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      if (address.address.startsWith('busy')) return callback(Object.assign(new Error('4.3.2 Try again later'), { responseCode: 451 }));
      if (address.address.startsWith('gone')) return callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }));
      return callback();
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        received.push(session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
    logger: false,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * A relay on loopback that breaks off (a raw socket, not an SMTP server library, to break off
 * exactly there): `after-dot` reads the whole message, its final `.` included, and drops the
 * connection without a reply; `at-data` drops it on the DATA command, before its 354; `at-once`
 * drops it as soon as it is opened; `not-smtp` greets as an SSH server does (a wrong port).
 * `received` counts the messages read whole.
 */
async function startBrokenRelay(
  mode: 'after-dot' | 'silent-after-dot' | 'at-data' | 'at-once' | 'not-smtp',
): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    if (mode === 'at-once') return void socket.destroy();
    if (mode === 'not-smtp') return void socket.write('SSH-2.0-OpenSSH_9.6\r\n');
    socket.write('220 relay.test ESMTP\r\n');
    let buffered = '';
    let content = false;
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      if (content) {
        if (!buffered.includes('\r\n.\r\n')) return;
        received++;
        // Hangs: reads on, answers nothing, keeps the connection open.
        if (mode === 'silent-after-dot') return;
        return void socket.destroy();
      }
      for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
        const verb = buffered.slice(0, 4).toUpperCase();
        buffered = buffered.slice(end + 2);
        if (verb === 'EHLO') socket.write('250-relay.test\r\n250 8BITMIME\r\n');
        else if (verb !== 'DATA') socket.write('250 OK\r\n');
        else if (mode === 'at-data') return void socket.destroy();
        else {
          content = true;
          return void socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const email = (to: string): OutboundMessage => ({
  id: `msg_email_${to.replace(/\W/g, '').padEnd(26, '0').slice(0, 26)}`,
  accountId: 'acc_x',
  channel: 'email',
  to,
  sender: null,
  body: null,
  payload: { from: 'billing@acme.example', subject: 'Invoice', text: 'Your invoice' },
  segments: null,
  attempt: 1,
});
const signal = () => AbortSignal.timeout(10_000);

describe('email through several SMTP relays', () => {
  let first: Awaited<ReturnType<typeof startRelay>>;
  let second: Awaited<ReturnType<typeof startRelay>>;
  beforeAll(async () => {
    [first, second] = await Promise.all([startRelay(), startRelay()]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('moves a message to the next relay when one cannot be reached or answers 4xx, never after a 5xx', async () => {
    const down = `smtp://127.0.0.1:${await closedPort()}`;
    const unreachable = createSmtpRelays({ url: down, poolSize: 1, fallbacks: [second.url] });
    expect(await unreachable.send(email('ann@example.com'), signal())).toMatchObject({ ok: true, route: 'relay2' });
    expect(unreachable.routes?.()).toEqual([
      { name: 'relay1', connected: false, last_error: expect.stringMatching(/^SMTP_UNREACHABLE: /), last_error_code: 'SMTP_UNREACHABLE' },
      { name: 'relay2', connected: true, last_error: null, last_error_code: null },
    ]);
    await unreachable.close?.();

    const relays = createSmtpRelays({ url: first.url, poolSize: 1, fallbacks: [second.url] });
    expect(await relays.send(email('bob@example.com'), signal())).toMatchObject({ ok: true, route: 'relay1' });
    expect(await relays.send(email('busy@example.com'), signal())).toMatchObject({ ok: false, code: 'SMTP_451', retryable: true });
    expect(await relays.send(email('gone@example.com'), signal())).toMatchObject({ ok: false, code: 'SMTP_550', retryable: false });
    await relays.close?.();
    expect(first.received).toEqual([['bob@example.com']]);
    // busy@ was refused 451 by both relays (the same server rules), gone@ only by the first.
    expect(second.received).toEqual([['ann@example.com']]);
  });

  it('keeps a single SMTP_URL as one provider, and reads SMTP_URL_2... in order, naming a bad one', () => {
    const smtpOf = (env: Record<string, string>) => {
      const settings = loadConfig(env).channels.find(({ module }) => module.name === 'email')?.settings;
      return (settings as { provider: { smtp?: object } } | undefined)?.provider.smtp;
    };
    const base = { EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtp://u:p@one.example.com' };
    expect(smtpOf(base)).not.toHaveProperty('fallbacks');
    expect(createSmtpRelays({ url: 'smtp://u:p@one.example.com', poolSize: 1 }).routes).toBeUndefined();
    expect(
      smtpOf(Object.assign({}, base, { SMTP_URL_2: 'smtps://u:p@two.example.com', SMTP_URL_3: 'smtp://three.example.com' })),
    ).toMatchObject({
      fallbacks: ['smtps://u:p@two.example.com', 'smtp://three.example.com'],
    });
    expect(() => loadConfig(Object.assign({}, base, { SMTP_URL_2: 'http://u:hunter2@two.example.com' }))).toThrow(
      /^SMTP_URL_2: must start with smtp:\/\/ or smtps:\/\/$/,
    );
    expect(() => loadConfig(Object.assign({}, base, { SMTP_URL_3: 'smtp://u:hunter2@three.example.com' }))).toThrow(
      /^SMTP_URL_3: is set without SMTP_URL_2/,
    );
    // A malformed %-escape would otherwise throw a bare URIError when the relay is made.
    for (const [key, url] of [
      ['SMTP_URL_2', 'smtp://u:hunter2%zz@two.example.com'],
      ['SMTP_URL', 'smtp://u%:hunter2@one.example.com'],
    ]) {
      expect(() => loadConfig(Object.assign({}, base, { [key as string]: url }))).toThrow(
        new RegExp(`^${key}: has a malformed %-escape in its user or password`),
      );
    }
  });
});

describe('email relays: failed over only when the first relay certainly has nothing', () => {
  it('holds an email in doubt on its relay when the connection drops after the whole message was written, before the 250: the next relay gets nothing', async () => {
    const [broken, next] = await Promise.all([startBrokenRelay('after-dot'), startRelay()]);
    const relays = createSmtpRelays({ url: broken.url, poolSize: 1, fallbacks: [next.url] });
    try {
      const message = email('ann@example.com');
      const outcome = await relays.send(message, signal());
      expect(outcome).toMatchObject({ ok: false, retryable: true, code: 'PROVIDER_UNREACHABLE', maybeAccepted: true });
      expect(broken.received()).toBe(1);
      expect(next.received).toEqual([]);
      // Sent again (EMAIL_RECOVERY=resend), it goes to the relay that may have it, never to the next.
      expect(await relays.send(message, signal())).toMatchObject({ ok: false, maybeAccepted: true });
      expect(broken.received()).toBe(2);
      expect(next.received).toEqual([]);
    } finally {
      await relays.close?.();
      await Promise.all([broken.close(), next.close()]);
    }
  });

  it('moves an email to the next relay, which gets it once, when the first broke off before the content left: at DATA, at once, or not speaking SMTP', async () => {
    const next = await startRelay();
    try {
      for (const mode of ['at-data', 'at-once', 'not-smtp'] as const) {
        const broken = await startBrokenRelay(mode);
        const relays = createSmtpRelays({ url: broken.url, poolSize: 1, fallbacks: [next.url] });
        try {
          const outcome = await relays.send(email(`${mode}@example.com`), signal());
          expect(outcome, mode).toMatchObject({ ok: true, route: 'relay2' });
          expect(relays.routes?.()[0], mode).toMatchObject({ name: 'relay1', last_error: expect.stringMatching(/^SMTP_UNREACHABLE: /) });
          expect(broken.received(), mode).toBe(0);
        } finally {
          await relays.close?.();
          await broken.close();
        }
      }
      expect(next.received).toEqual([['at-data@example.com'], ['at-once@example.com'], ['not-smtp@example.com']]);
    } finally {
      await next.close();
    }
  });

  it('holds an email in doubt when the relay falls silent after the final dot: answered at its socket timeout, the next relay gets nothing', async () => {
    const [silent, next] = await Promise.all([startBrokenRelay('silent-after-dot'), startRelay()]);
    const relays = createSmtpRelays({ url: silent.url, poolSize: 1, socketTimeoutMs: 500, fallbacks: [next.url] });
    try {
      const outcome = await relays.send(email('slow@example.com'), signal());
      expect(outcome).toMatchObject({ ok: false, retryable: true, code: 'PROVIDER_UNREACHABLE', maybeAccepted: true });
      expect(silent.received()).toBe(1);
      expect(next.received).toEqual([]);
    } finally {
      await relays.close?.();
      await Promise.all([silent.close(), next.close()]);
    }
  });

  it('hands nothing over once closed (a stopping worker): withdrawn at once, not in doubt', async () => {
    const relay = await startRelay();
    const relays = createSmtpRelays({ url: relay.url, poolSize: 1 });
    await relays.close?.();
    try {
      const outcome = await relays.send(email('late@example.com'), signal());
      expect(outcome).toMatchObject({ ok: false, retryable: true, code: 'HANDOVER_WITHDRAWN' });
      expect(outcome).not.toHaveProperty('maybeAccepted');
      expect(relay.received).toEqual([]);
    } finally {
      await relay.close();
    }
  });

  it('holds an email in doubt, not failed over, when the relay refused its addressee 4xx but took it for its cc: the cc gets it once', async () => {
    const [first, second] = await Promise.all([startRelay(), startRelay()]);
    const relays = createSmtpRelays({ url: first.url, poolSize: 1, fallbacks: [second.url] });
    try {
      const message = email('busy@example.com');
      message.payload = Object.assign({}, message.payload, { cc: ['books@acme.example'] });
      expect(await relays.send(message, signal())).toMatchObject({ ok: false, retryable: true, code: 'SMTP_451', maybeAccepted: true });
      expect(first.received).toEqual([['books@acme.example']]);
      expect(second.received).toEqual([]);
    } finally {
      await relays.close?.();
      await Promise.all([first.close(), second.close()]);
    }
  });
});
