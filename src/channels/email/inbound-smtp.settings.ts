import { isIP } from 'node:net';
import { createSecureContext } from 'node:tls';
import type { SettingsReader } from '../channel-module.js';

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
