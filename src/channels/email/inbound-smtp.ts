import { type AddressInfo, isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createSecureContext } from 'node:tls';
import ipaddr from 'ipaddr.js';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { BoundedMap } from '../../core/bounded-map.js';
import type { Provider } from '../../core/delivery/provider.js';
import type { HealthLogger } from '../../core/delivery/provider-health.js';
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
  /** INBOUND_SMTP_MAX_BUFFERED_BYTES: message bytes held in memory across all sessions at once; past it, 451. */
  maxBufferedBytes: number;
  /** INBOUND_SMTP_MAX_PARSES: messages parsed at once; the others wait their turn (their bytes still counted). */
  maxParses: number;
  /** INBOUND_SMTP_MAX_CONNECTIONS_PER_IP: sessions one client (an IPv4 address, an IPv6 /64) may hold at once; more get 421. */
  maxConnectionsPerIp: number;
  /** INBOUND_SMTP_MAX_RECIPIENTS: recipients taken per message; more get 452 4.5.3. */
  maxRecipients: number;
  /** INBOUND_SMTP_MAX_REFUSED_RECIPIENTS: recipients no account has a session may name; the next RCPT TO gets 421 and the session ends. */
  maxRefusedRecipients: number;
  /** INBOUND_SMTP_TLS_CERT and _KEY: PEM, for STARTTLS; none offered without them. */
  tls?: { cert: string; key: string } | undefined;
}

/** The default of INBOUND_SMTP_MAX_BYTES: 10 MiB, as EMAIL_MAX_BYTES. */
export const DEFAULT_INBOUND_SMTP_MAX_BYTES = 10 * 1024 * 1024;
/** How long a client's unknown recipients count against it, across its sessions. */
const REFUSAL_WINDOW_MS = 10 * 60_000;
/** A client may name unknown recipients for this many sessions' worth (of _MAX_REFUSED_RECIPIENTS) per window. */
const CLIENT_REFUSAL_SESSIONS = 5;

/** Connections served at once; more are refused (421) until one ends. */
export const INBOUND_SMTP_MAX_CLIENTS = 200;
/** The defaults of the listener's limits, for a given INBOUND_SMTP_MAX_BYTES (docs/email.md, "Limits"). */
export function defaultInboundSmtpLimits(maxBytes: number): InboundSmtpLimits {
  return {
    // Four messages of the largest size in hand at once (40 MiB by default).
    maxBufferedBytes: 4 * maxBytes,
    maxParses: 2,
    // Postfix's default concurrency towards one destination: a mail server of this machine relaying
    // to Herald (all its connections from one address) is not refused at its defaults.
    maxConnectionsPerIp: 20,
    // RFC 5321 4.5.3.1.8: a server must take at least 100.
    maxRecipients: 100,
    // As Postfix's smtpd_hard_error_limit.
    maxRefusedRecipients: 20,
  };
}
export type InboundSmtpLimits = Pick<
  InboundSmtpSettings,
  'maxBufferedBytes' | 'maxParses' | 'maxConnectionsPerIp' | 'maxRecipients' | 'maxRefusedRecipients'
>;

const INBOUND_SMTP_KEYS = [
  'INBOUND_SMTP_HOST',
  'INBOUND_SMTP_MAX_BYTES',
  'INBOUND_SMTP_MAX_BUFFERED_BYTES',
  'INBOUND_SMTP_MAX_PARSES',
  'INBOUND_SMTP_MAX_CONNECTIONS_PER_IP',
  'INBOUND_SMTP_MAX_RECIPIENTS',
  'INBOUND_SMTP_MAX_REFUSED_RECIPIENTS',
  'INBOUND_SMTP_TLS_CERT',
  'INBOUND_SMTP_TLS_KEY',
];

/**
 * INBOUND_SMTP_PORT (none: no listener), INBOUND_SMTP_HOST (127.0.0.1, as HOST and METRICS_HOST:
 * nothing listens beyond this machine unless the operator says so), INBOUND_SMTP_MAX_BYTES, the
 * limits (INBOUND_SMTP_MAX_BUFFERED_BYTES, _MAX_PARSES, _MAX_CONNECTIONS_PER_IP, _MAX_RECIPIENTS,
 * _MAX_REFUSED_RECIPIENTS), and INBOUND_SMTP_TLS_CERT with INBOUND_SMTP_TLS_KEY (both or neither),
 * checked to load at start.
 */
export function inboundSmtpSettings(env: SettingsReader): InboundSmtpSettings | undefined {
  if (env.text('INBOUND_SMTP_PORT') === undefined) {
    for (const key of INBOUND_SMTP_KEYS) {
      if (env.text(key) !== undefined) env.fail(key, 'needs INBOUND_SMTP_PORT (the inbound SMTP listener is off without it)');
    }
    return undefined;
  }
  const port = env.integer('INBOUND_SMTP_PORT', 25, 1, 65535);
  const host = env.text('INBOUND_SMTP_HOST') ?? '127.0.0.1';
  if (isIP(host) === 0) env.fail('INBOUND_SMTP_HOST', `must be an IP address of this machine, 0.0.0.0 or :: for all (got "${host}")`);
  const maxBytes = env.integer('INBOUND_SMTP_MAX_BYTES', DEFAULT_INBOUND_SMTP_MAX_BYTES, 1024, 100 * 1024 * 1024);
  const defaults = defaultInboundSmtpLimits(maxBytes);
  const maxBufferedBytes = env.integer('INBOUND_SMTP_MAX_BUFFERED_BYTES', defaults.maxBufferedBytes, 1024, 4 * 1024 * 1024 * 1024);
  if (maxBufferedBytes < maxBytes) {
    env.fail(
      'INBOUND_SMTP_MAX_BUFFERED_BYTES',
      `must be at least INBOUND_SMTP_MAX_BYTES (${maxBytes}): a message of the largest size must fit (got "${maxBufferedBytes}")`,
    );
  }
  const limits: InboundSmtpLimits = {
    maxBufferedBytes,
    maxParses: env.integer('INBOUND_SMTP_MAX_PARSES', defaults.maxParses, 1, 64),
    maxConnectionsPerIp: env.integer('INBOUND_SMTP_MAX_CONNECTIONS_PER_IP', defaults.maxConnectionsPerIp, 1, INBOUND_SMTP_MAX_CLIENTS),
    maxRecipients: env.integer('INBOUND_SMTP_MAX_RECIPIENTS', defaults.maxRecipients, 1, 1000),
    maxRefusedRecipients: env.integer('INBOUND_SMTP_MAX_REFUSED_RECIPIENTS', defaults.maxRefusedRecipients, 1, 1000),
  };
  const [certSet, keySet] = [env.text('INBOUND_SMTP_TLS_CERT') !== undefined, env.text('INBOUND_SMTP_TLS_KEY') !== undefined];
  if (certSet !== keySet)
    env.fail(certSet ? 'INBOUND_SMTP_TLS_KEY' : 'INBOUND_SMTP_TLS_CERT', 'is required with the other (STARTTLS needs both)');
  if (!certSet) return Object.assign({ host, port, maxBytes }, limits);
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
  return Object.assign({ host, port, maxBytes }, limits, { tls });
}

/** How long close() lets sessions under way finish before they are told 421 and cut. */
const CLOSE_GRACE_MS = 5_000;
/** The least time between two log lines of one kind of refusal (each line counts those since the last). */
const REFUSAL_LOG_INTERVAL_MS = 60_000;

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
  const server = new SMTPServer({
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

/** A message read whole and held in memory, counted against the bytes of all sessions until released. */
interface HeldMessage {
  bytes: number;
  /** The message; once only, so that nothing here keeps it once parsed. */
  take(): Buffer;
  /** Gives its bytes back to the bound (once). */
  release(): void;
}

/**
 * The message whole; 'too_big' once it goes beyond `maxBytes`, 'busy' once `buffer` cannot hold
 * its next chunk: what it held is released at once, and the rest is read and dropped, so the
 * session can answer.
 */
function readWithin(stream: SMTPServerDataStream, maxBytes: number, buffer: ByteBudget): Promise<HeldMessage | 'too_big' | 'busy'> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let held = 0;
    let refused: 'too_big' | 'busy' | undefined;
    let settled = false;
    const drop = () => {
      buffer.release(held);
      held = 0;
      chunks = [];
    };
    stream.on('data', (chunk: Buffer) => {
      if (refused) return;
      if (held + chunk.length > maxBytes) refused = 'too_big';
      else if (!buffer.take(chunk.length)) refused = 'busy';
      if (refused) return drop();
      held += chunk.length;
      chunks.push(chunk);
    });
    stream.on('end', () => {
      settled = true;
      // smtp-server answers 552 itself for a message over the size, whatever is answered here.
      if (stream.sizeExceeded) refused = 'too_big';
      if (refused) {
        drop();
        return resolve(refused);
      }
      let raw: Buffer | undefined = Buffer.concat(chunks, held);
      let bytes = held;
      chunks = [];
      held = 0;
      resolve({
        bytes,
        take() {
          const taken = raw ?? Buffer.alloc(0);
          raw = undefined;
          return taken;
        },
        release() {
          raw = undefined;
          buffer.release(bytes);
          bytes = 0;
        },
      });
    });
    stream.on('error', (error) => {
      drop();
      if (!settled) reject(error);
      settled = true;
    });
    // The client went away mid-message without an error: nothing is held for it.
    stream.on('close', () => {
      if (settled) return;
      drop();
      settled = true;
      reject(new Error('The connection closed before the message was received in full'));
    });
  });
}

/** Bytes held by all sessions together, never more than `limit`. */
interface ByteBudget {
  /** Counts `bytes` in when they fit; false (nothing counted) when they do not. */
  take(bytes: number): boolean;
  release(bytes: number): void;
  used(): number;
}

function byteBudget(limit: number): ByteBudget {
  let used = 0;
  return {
    take(bytes) {
      if (used + bytes > limit) return false;
      used += bytes;
      return true;
    },
    release(bytes) {
      used = Math.max(0, used - bytes);
    },
    used: () => used,
  };
}

/** Runs at most `limit` tasks at once; the others wait their turn, first come first served. */
type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

function limiter(limit: number): Limiter {
  let running = 0;
  const waiting: Array<() => void> = [];
  const done = () => {
    const next = waiting.shift();
    // The slot goes straight to the next task, or is freed.
    if (next) next();
    else running--;
  };
  return async (task) => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      done();
    }
  };
}

/**
 * One kind of event logged at most once every REFUSAL_LOG_INTERVAL_MS: the first at once, then the
 * next one after the interval, each line with `count`, how many there were since the line before.
 */
function throttled(logger: HealthLogger, level: 'info' | 'warn', message: string): (fields: Record<string, unknown>) => void {
  let last = Number.NEGATIVE_INFINITY;
  let count = 0;
  return (fields) => {
    count++;
    const now = performance.now();
    if (now - last < REFUSAL_LOG_INTERVAL_MS) return;
    logger[level](Object.assign({ channel: 'email', count }, fields), message);
    last = now;
    count = 0;
  };
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
