import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
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
      { name: 'relay1', connected: false, last_error: expect.stringMatching(/^SMTP_UNREACHABLE: /) },
      { name: 'relay2', connected: true, last_error: null },
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
  });
});
