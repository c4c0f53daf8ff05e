import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { BoundedMap } from '../../core/bounded-map.js';
import type { Provider } from '../../core/delivery/provider.js';
import { addressForms, addressKey } from '../../core/inbound/addresses.js';
import { loadOnUse } from '../../core/load-on-use.js';
import type { ProviderDeps } from '../channel-module.js';
import { prepareMailReading, readInboundMail } from './inbound-email.js';
import { INBOUND_SMTP_MAX_CLIENTS, type InboundSmtpSettings } from './inbound-smtp.settings.js';
import { type ByteBudget, byteBudget, type Limiter, limiter, readWithin, throttled } from './inbound-smtp-bounds.js';

/** How long a client's unknown recipients count against it, across its sessions. */
const REFUSAL_WINDOW_MS = 10 * 60_000;
/** A client may name unknown recipients for this many sessions' worth (of _MAX_REFUSED_RECIPIENTS) per window. */
const CLIENT_REFUSAL_SESSIONS = 5;

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
  /** Message bytes held in memory now, across all sessions (at most INBOUND_SMTP_MAX_BUFFERED_BYTES). */
  bufferedBytes(): number;
}

/** smtp-server, loaded by the first listener (INBOUND_SMTP_PORT). */
const loadSmtpServer = loadOnUse<typeof import('smtp-server')>('smtp-server');

/** What the listener keeps of a session while it lasts. */
interface SessionState {
  /** The client it counts against (INBOUND_SMTP_MAX_CONNECTIONS_PER_IP); none once refused. */
  client?: string | undefined;
  /** Recipients no account has it named. */
  refused: number;
}

/**
 * An MX for the accounts' email addresses (channel_addresses): no AUTH, no relaying. RCPT TO is
 * taken only for an address some account has (550 otherwise), so Herald never accepts mail it
 * cannot place; the message is read once whole within `maxBytes` (552 beyond, nothing kept), one
 * received message per recipient is handed to `onInbound`, and 250 is answered only once every one
 * of them is stored (550 when none of its recipients is an account's any more). A failure to store
 * answers 451: the sender keeps the message and tries again, and its Message-ID makes the copies
 * stored the first time count once.
 *
 * Memory and work are bounded whatever the clients do: message bytes in memory across all sessions
 * (451 past `maxBufferedBytes`, the rest of that message read and dropped), messages parsed at once
 * (`maxParses`), sessions per client (421 past `maxConnectionsPerIp`) and in all (421 past
 * INBOUND_SMTP_MAX_CLIENTS), recipients per message (452 past `maxRecipients`, without a look-up)
 * and recipients no account has per session (421 and the end of the session past
 * `maxRefusedRecipients`).
 */
export function createInboundSmtpListener(
  settings: InboundSmtpSettings,
  deps: Pick<ProviderDeps, 'store' | 'clock' | 'logger' | 'onInbound'>,
): InboundSmtpListener {
  const { logger } = deps;
  prepareMailReading();
  const buffer = byteBudget(settings.maxBufferedBytes);
  const parsing = limiter(settings.maxParses);
  const sessions = new WeakMap<SMTPServerSession, SessionState>();
  const stateOf = (session: SMTPServerSession): SessionState => {
    const known = sessions.get(session);
    if (known) return known;
    const state: SessionState = { refused: 0 };
    sessions.set(session, state);
    return state;
  };
  const perClient = new Map<string, number>();
  // Unknown (or uncheckable) recipients per client across its sessions, in windows of
  // REFUSAL_WINDOW_MS: reconnecting does not buy a prober more look-ups.
  const refusalsOf = new BoundedMap<string, { count: number; since: number }>(10_000);
  const clientRefusals = (client: string | undefined) => {
    const now = deps.clock.now();
    const key = client ?? '?';
    let entry = refusalsOf.get(key);
    if (!entry || now - entry.since > REFUSAL_WINDOW_MS) {
      entry = { count: 0, since: now };
      refusalsOf.set(key, entry);
    }
    return entry;
  };
  // A prober's recipients or connections cost one log line a minute, not one each.
  const log = {
    refusedRecipient: throttled(logger, 'info', 'inbound SMTP: refused recipients no account has'),
    cutSession: throttled(logger, 'warn', 'inbound SMTP: ended sessions that named too many recipients no account has'),
    refusedClient: throttled(logger, 'warn', 'inbound SMTP: refused connections past INBOUND_SMTP_MAX_CONNECTIONS_PER_IP'),
    busy: throttled(logger, 'warn', 'inbound SMTP: answered 451 to messages past INBOUND_SMTP_MAX_BUFFERED_BYTES in memory'),
  };
  const server = new (loadSmtpServer().SMTPServer)({
    size: settings.maxBytes,
    rejectOversized: true,
    // An MX takes mail from anyone for its own addresses: no AUTH; STARTTLS only with a certificate.
    disabledCommands: settings.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(settings.tls ? { key: settings.tls.key, cert: settings.tls.cert } : {}),
    // 550 5.1.1, 451 4.3.0, 552 5.3.4: the sender's bounce then says what went wrong (RFC 3463).
    hideENHANCEDSTATUSCODES: false,
    // Answered 452 4.5.3 by smtp-server itself, before onRcptTo: no look-up.
    maxRecipients: settings.maxRecipients,
    maxClients: INBOUND_SMTP_MAX_CLIENTS,
    closeTimeout: CLOSE_GRACE_MS,
    // The client's name is never used: no reverse DNS lookup per connection.
    disableReverseLookup: true,
    // smtp-server's own log names senders and recipients: Herald logs what operators need itself.
    logger: false,
    onConnect(session, callback) {
      const client = clientOf(session.remoteAddress);
      const open = perClient.get(client) ?? 0;
      if (open >= settings.maxConnectionsPerIp) {
        log.refusedClient({ remote: client });
        return callback(reply(421, 'Too many connections from your address, try again later'));
      }
      perClient.set(client, open + 1);
      stateOf(session).client = client;
      callback();
    },
    onClose(session) {
      const client = sessions.get(session)?.client;
      sessions.delete(session);
      if (client === undefined) return;
      const open = (perClient.get(client) ?? 1) - 1;
      if (open > 0) perClient.set(client, open);
      else perClient.delete(client);
    },
    onRcptTo(address, session, callback) {
      const state = stateOf(session);
      const byClient = clientRefusals(state.client);
      if (state.refused >= settings.maxRefusedRecipients || byClient.count >= settings.maxRefusedRecipients * CLIENT_REFUSAL_SESSIONS) {
        // 421 ends the session (smtp-server closes it): no more look-ups for it.
        log.cutSession({ remote: session.remoteAddress, refused: state.refused });
        return callback(reply(421, 'Too many unknown recipients, closing'));
      }
      deps.store.inbound.accountOfAddress('email', addressForms(address.address)).then(
        (accountId) => {
          if (accountId) return callback();
          state.refused++;
          byClient.count++;
          // Any address the client named (a prober's may be anyone's): logged throttled, at info.
          log.refusedRecipient({ to: addressKey(address.address) });
          callback(reply(550, 'No such recipient here'));
        },
        (error: unknown) => {
          state.refused++;
          byClient.count++;
          logger.warn({ channel: 'email', err: error }, 'inbound SMTP: could not look a recipient up; answered 451');
          callback(reply(451, 'Cannot check the recipient now, try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      takeMessage(stream, session, settings.maxBytes, { buffer, parsing, log: log.busy }, deps).then(
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
    bufferedBytes: () => buffer.used(),
  };
}

/** What bounds the messages of all sessions together. */
interface SharedLimits {
  buffer: ByteBudget;
  parsing: Limiter;
  log: (fields: Record<string, unknown>) => void;
}

/**
 * Reads one message (552 beyond `maxBytes`, 451 when the bytes of all sessions would pass their
 * bound: nothing more of it is held either way) and stores a copy for each recipient its address
 * still belongs to; an SMTP error to answer, or undefined for 250 once every copy is stored.
 */
async function takeMessage(
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  maxBytes: number,
  limits: SharedLimits,
  deps: Pick<ProviderDeps, 'clock' | 'logger' | 'onInbound'>,
): Promise<Error | undefined> {
  const whole = await readWithin(stream, maxBytes, limits.buffer);
  if (whole === 'too_big') return reply(552, `Message exceeds the maximum size of ${maxBytes} bytes`);
  if (whole === 'busy') {
    limits.log({ bufferedBytes: limits.buffer.used() });
    return reply(451, 'Too much mail in hand, try again later');
  }
  const { bytes } = whole;
  const recipients = session.envelope.rcptTo.map((r) => addressKey(r.address));
  const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
  let read: Awaited<ReturnType<typeof readInboundMail>>;
  try {
    // The bytes count against the bound until parsed (waiting their turn included): the text kept of them is small.
    read = await limits.parsing(() => readInboundMail(whole.take(), { mailFrom, recipients }, deps.clock.now()));
  } catch (error) {
    deps.logger.warn({ channel: 'email', bytes, err: error }, 'inbound SMTP: could not parse a message; refused');
    return reply(554, 'The message could not be parsed');
  } finally {
    whole.release();
  }
  if (!read.ok) return reply(554, 'The message names no sender (no From header and a null MAIL FROM)');
  let stored = 0;
  let unrouted = 0;
  try {
    // One after the other: a failure stops at once, and the sender's retry finds the stored ones duplicates.
    // Each recipient's account is looked up again just before its copy is stored (receiveMessage): an
    // address released since RCPT TO gets nothing.
    for (const message of read.messages) {
      const { outcome } = await deps.onInbound(message);
      if (outcome === 'stored') stored++;
      else if (outcome === 'unrouted') unrouted++;
    }
  } catch (error) {
    deps.logger.warn(
      { channel: 'email', recipients: recipients.length, stored, err: error },
      'inbound SMTP: could not store a message; answered 451 (the sender retries)',
    );
    return reply(451, 'Could not store the message, try again later');
  }
  // Every address given away since RCPT TO: refused as at RCPT TO, so the sender bounces it.
  if (unrouted === read.messages.length) return reply(550, 'No such recipient here');
  deps.logger.info({ channel: 'email', bytes, recipients: recipients.length, stored, unrouted }, 'inbound SMTP: message received');
  return undefined;
}

/** Who a connection counts against: its IPv4 address, or the /64 of its IPv6 one (one network's share). */
function clientOf(remoteAddress: string): string {
  if (!ipaddr.isValid(remoteAddress)) return remoteAddress;
  const address = ipaddr.process(remoteAddress);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
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
