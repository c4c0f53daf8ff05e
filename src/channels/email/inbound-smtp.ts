import { type AddressInfo, isIP } from 'node:net';
import { createSecureContext } from 'node:tls';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Provider } from '../../core/delivery/provider.js';
import { addressForms, addressKey } from '../../core/inbound/addresses.js';
import type { ProviderDeps, SettingsReader } from '../channel-module.js';
import { readInboundMail } from './inbound-email.js';

/** INBOUND_SMTP_*: Herald's MX for reply addresses (docs/email.md, "Receiving replies"). */
export interface InboundSmtpSettings {
  /** INBOUND_SMTP_HOST: the address listened on, 127.0.0.1 unless the operator opens it to the internet. */
  host: string;
  /** INBOUND_SMTP_PORT. */
  port: number;
  /** INBOUND_SMTP_MAX_BYTES: the largest message taken, advertised as SIZE and enforced on the stream. */
  maxBytes: number;
  /** INBOUND_SMTP_TLS_CERT and _KEY: PEM, for STARTTLS; none offered without them. */
  tls?: { cert: string; key: string } | undefined;
}

/** The default of INBOUND_SMTP_MAX_BYTES: 10 MiB, as EMAIL_MAX_BYTES. */
export const DEFAULT_INBOUND_SMTP_MAX_BYTES = 10 * 1024 * 1024;

/**
 * INBOUND_SMTP_PORT (none: no listener), INBOUND_SMTP_HOST (127.0.0.1, as HOST and METRICS_HOST:
 * nothing listens beyond this machine unless the operator says so), INBOUND_SMTP_MAX_BYTES, and
 * INBOUND_SMTP_TLS_CERT with INBOUND_SMTP_TLS_KEY (both or neither), checked to load at start.
 */
export function inboundSmtpSettings(env: SettingsReader): InboundSmtpSettings | undefined {
  if (env.text('INBOUND_SMTP_PORT') === undefined) {
    for (const key of ['INBOUND_SMTP_HOST', 'INBOUND_SMTP_MAX_BYTES', 'INBOUND_SMTP_TLS_CERT', 'INBOUND_SMTP_TLS_KEY']) {
      if (env.text(key) !== undefined) env.fail(key, 'needs INBOUND_SMTP_PORT (the inbound SMTP listener is off without it)');
    }
    return undefined;
  }
  const port = env.integer('INBOUND_SMTP_PORT', 25, 1, 65535);
  const host = env.text('INBOUND_SMTP_HOST') ?? '127.0.0.1';
  if (isIP(host) === 0) env.fail('INBOUND_SMTP_HOST', `must be an IP address of this machine, 0.0.0.0 or :: for all (got "${host}")`);
  const maxBytes = env.integer('INBOUND_SMTP_MAX_BYTES', DEFAULT_INBOUND_SMTP_MAX_BYTES, 1024, 100 * 1024 * 1024);
  const [certSet, keySet] = [env.text('INBOUND_SMTP_TLS_CERT') !== undefined, env.text('INBOUND_SMTP_TLS_KEY') !== undefined];
  if (certSet !== keySet)
    env.fail(certSet ? 'INBOUND_SMTP_TLS_KEY' : 'INBOUND_SMTP_TLS_CERT', 'is required with the other (STARTTLS needs both)');
  if (!certSet) return { host, port, maxBytes };
  const tls = { cert: env.pemFile('INBOUND_SMTP_TLS_CERT'), key: env.pemFile('INBOUND_SMTP_TLS_KEY') };
  try {
    createSecureContext(tls);
  } catch (error) {
    // The reason (a key that does not match, not PEM), never the key.
    env.fail(
      'INBOUND_SMTP_TLS_KEY',
      `and INBOUND_SMTP_TLS_CERT do not make a TLS certificate (${(error as NodeJS.ErrnoException).code ?? 'invalid'})`,
    );
  }
  return { host, port, maxBytes, tls };
}

/** More recipients than this in one transaction are refused with 452 (RFC 5321 4.5.3.1.8: at least 100 must be taken). */
export const INBOUND_SMTP_MAX_RECIPIENTS = 100;
/** Connections served at once; more are refused (421) until one ends. */
const MAX_CLIENTS = 200;
/** How long close() lets sessions under way finish before they are told 421 and cut. */
const CLOSE_GRACE_MS = 5_000;

/** An SMTP reply: smtp-server adds the enhanced status code (5.1.1, 4.3.0...) that goes with `code`. */
const reply = (code: number, message: string): Error & { responseCode: number } =>
  Object.assign(new Error(message), { responseCode: code });

export interface InboundSmtpListener {
  /** Listens; a port already taken is logged (another process of this host is the MX), never thrown. */
  start(): void;
  /** Stops listening; sessions under way get CLOSE_GRACE_MS to finish. */
  close(): Promise<void>;
  /** Where it listens once listening (port 0 picks one: tests). */
  address(): AddressInfo | undefined;
}

/**
 * An MX for the accounts' email addresses (channel_addresses): no AUTH, no relaying. RCPT TO is
 * taken only for an address some account has (550 otherwise), so Herald never accepts mail it
 * cannot place; the message is read once whole within `maxBytes` (552 beyond, nothing kept), one
 * received message per recipient is handed to `onInbound`, and 250 is answered only once every one
 * of them is stored. A failure to store answers 451: the sender keeps the message and tries again,
 * and its Message-ID makes the copies stored the first time count once.
 */
export function createInboundSmtpListener(
  settings: InboundSmtpSettings,
  deps: Pick<ProviderDeps, 'store' | 'clock' | 'logger' | 'onInbound'>,
): InboundSmtpListener {
  const { logger } = deps;
  const server = new SMTPServer({
    size: settings.maxBytes,
    rejectOversized: true,
    // An MX takes mail from anyone for its own addresses: no AUTH; STARTTLS only with a certificate.
    disabledCommands: settings.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(settings.tls ? { key: settings.tls.key, cert: settings.tls.cert } : {}),
    // 550 5.1.1, 451 4.3.0, 552 5.3.4: the sender's bounce then says what went wrong (RFC 3463).
    hideENHANCEDSTATUSCODES: false,
    maxRecipients: INBOUND_SMTP_MAX_RECIPIENTS,
    maxClients: MAX_CLIENTS,
    closeTimeout: CLOSE_GRACE_MS,
    // The client's name is never used: no reverse DNS lookup per connection.
    disableReverseLookup: true,
    // smtp-server's own log names senders and recipients: Herald logs what operators need itself.
    logger: false,
    onRcptTo(address, _session, callback) {
      deps.store.inbound.accountOfAddress('email', addressForms(address.address)).then(
        (accountId) => {
          if (accountId) return callback();
          // The recipient is one of the operator's own domains' addresses, never the writer's.
          logger.info({ channel: 'email', to: addressKey(address.address) }, 'inbound SMTP: refused a recipient no account has');
          callback(reply(550, 'No such recipient here'));
        },
        (error: unknown) => {
          logger.warn({ channel: 'email', err: error }, 'inbound SMTP: could not look a recipient up; answered 451');
          callback(reply(451, 'Cannot check the recipient now, try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      takeMessage(stream, session, settings.maxBytes, deps).then(
        (answer) => (answer ? callback(answer) : callback(null, 'Stored')),
        (error: unknown) => callback(error instanceof Error ? error : reply(451, String(error))),
      );
    },
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    // A socket reset or a failed TLS handshake ends one session; a listen failure ends the listener.
    if (error.syscall === 'listen') {
      logger.warn(
        { channel: 'email', host: settings.host, port: settings.port, code: error.code },
        'inbound SMTP listener could not listen: no email replies reach this process (is another Herald process of this host the MX?)',
      );
    }
  });

  let listening = false;
  return {
    start() {
      if (listening) return;
      listening = true;
      server.listen(settings.port, settings.host, () => {
        logger.info(
          { channel: 'email', host: settings.host, port: (server.server.address() as AddressInfo).port, starttls: !!settings.tls },
          'inbound SMTP listener started',
        );
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!listening) return resolve();
        listening = false;
        server.close(() => resolve());
      }),
    address: () => (server.server.listening ? (server.server.address() as AddressInfo) : undefined),
  };
}

/**
 * Reads one message (cut off at `maxBytes`: smtp-server then answers 552 itself) and stores a copy
 * for each recipient; an SMTP error to answer, or undefined for 250 once every copy is stored.
 */
async function takeMessage(
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  maxBytes: number,
  deps: Pick<ProviderDeps, 'clock' | 'logger' | 'onInbound'>,
): Promise<Error | undefined> {
  const raw = await readWithin(stream, maxBytes);
  if (!raw) return reply(552, `Message exceeds the maximum size of ${maxBytes} bytes`);
  const recipients = session.envelope.rcptTo.map((r) => addressKey(r.address));
  const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
  let read: Awaited<ReturnType<typeof readInboundMail>>;
  try {
    read = await readInboundMail(raw, { mailFrom, recipients }, deps.clock.now());
  } catch (error) {
    deps.logger.warn({ channel: 'email', bytes: raw.length, err: error }, 'inbound SMTP: could not parse a message; refused');
    return reply(554, 'The message could not be parsed');
  }
  if (!read.ok) return reply(554, 'The message names no sender (no From header and a null MAIL FROM)');
  let stored = 0;
  try {
    // One after the other: a failure stops at once, and the sender's retry finds the stored ones duplicates.
    for (const message of read.messages) if ((await deps.onInbound(message)).outcome === 'stored') stored++;
  } catch (error) {
    deps.logger.warn(
      { channel: 'email', recipients: recipients.length, stored, err: error },
      'inbound SMTP: could not store a message; answered 451 (the sender retries)',
    );
    return reply(451, 'Could not store the message, try again later');
  }
  deps.logger.info({ channel: 'email', bytes: raw.length, recipients: recipients.length, stored }, 'inbound SMTP: message received');
  return undefined;
}

/** The message whole, or undefined once it goes beyond `maxBytes` (the rest is read and dropped, so the session can answer). */
function readWithin(stream: SMTPServerDataStream, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= maxBytes) chunks.push(chunk);
      else chunks.length = 0;
    });
    stream.on('end', () => resolve(stream.sizeExceeded || bytes > maxBytes ? undefined : Buffer.concat(chunks, bytes)));
    stream.on('error', reject);
  });
}

/**
 * The email provider, plus the inbound SMTP listener in processes that start providers (those that
 * dispatch): it listens from start() until close(). Processes that only serve HTTP never listen.
 */
export function receivingMail(provider: Provider, settings: InboundSmtpSettings | undefined, deps: ProviderDeps): Provider {
  if (!settings) return provider;
  const listener = createInboundSmtpListener(settings, deps);
  return Object.assign({}, provider, {
    start() {
      provider.start?.();
      listener.start();
    },
    async close() {
      await listener.close();
      await provider.close?.();
    },
  });
}
