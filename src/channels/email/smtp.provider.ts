import { Readable } from 'node:stream';
import type nodemailer from 'nodemailer';
import type { Provider, SendOutcome } from '../../core/delivery/provider.js';
import { loadOnUse } from '../../core/load-on-use.js';
import type { EmailPayload } from './send-email.js';

/** nodemailer, loaded by the first SMTP relay made (EMAIL_PROVIDER=smtp). */
const loadNodemailer = loadOnUse<typeof nodemailer>('nodemailer');

export interface SmtpSettings {
  /** `smtp://user:pass@host:587` (STARTTLS when the server offers it) or `smtps://...:465` (TLS from the start). */
  url: string;
  /** Connections kept open to the server. */
  poolSize: number;
  /** Messages per second the server accepts from us, if it limits. */
  maxPerSecond?: number | undefined;
  /**
   * A List-Unsubscribe target added to every email: `mailto:...` or `https://...`; `{message_id}` is
   * replaced by the message's id. An https target also gets `List-Unsubscribe-Post` (RFC 8058).
   */
  listUnsubscribe?: string | undefined;
  /** PEM certificate(s) to trust for the server's TLS, beside the system's (a private CA, a self-signed server). */
  tlsCa?: string | undefined;
  /** Silence from the server that ends a session, in ms (60 s). */
  socketTimeoutMs?: number | undefined;
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  /** The SMTP command the server answered (nodemailer): `MAIL FROM`, `RCPT TO`, `DATA`... */
  command?: string;
}

/**
 * The code of a permanent (5xx) refusal, naming what was refused. Only a refusal of the recipient
 * itself (at RCPT TO, and not a policy refusal, enhanced status 5.7.x) keeps the plain `SMTP_<code>`,
 * the code that puts the address on the suppression list when it says the mailbox does not exist
 * (email-events.ts). A refusal of the sender (MAIL FROM) or of the content (DATA, e.g. a DMARC or
 * spam refusal) says nothing about the recipient: one misconfigured `from` must not suppress everyone.
 */
function permanentCode(error: SmtpError, code: number, reply: string): string {
  const command = (error.command ?? '').toUpperCase();
  const policy = /\b5\.7\.\d{1,3}\b/.test(reply);
  if (command.startsWith('MAIL')) return `SMTP_SENDER_${code}`;
  if (command.startsWith('DATA') || command.startsWith('BDAT')) return `SMTP_CONTENT_${code}`;
  if (policy) return `SMTP_POLICY_${code}`;
  return `SMTP_${code}`;
}

/**
 * How far one hand-over got. The message's content leaves only after the server answered DATA with
 * 354 (nodemailer pipes it then, and not before); from then on a server may hold the message as
 * soon as it has read the final `.`, whether or not its 250 reaches us.
 */
export type SmtpStage = 'envelope' | 'content';

/**
 * A reply of the server to one of our commands, read whole. Not a connection that closed or broke
 * (nodemailer's `CONN`, even with a reply code read from the line it was cut off in), nor our own
 * error (`API`).
 */
function isReply(error: SmtpError): boolean {
  const command = (error.command ?? '').toUpperCase();
  return error.responseCode !== undefined && command !== '' && command !== 'CONN' && command !== 'API';
}

/**
 * An error of a hand-over as a send outcome. Before the content left (`envelope`: connecting, TLS,
 * EHLO, AUTH, MAIL FROM, RCPT TO, the DATA command itself), the server cannot hold the message:
 * a reply is 4xx try again later (failed over, with relays) or 5xx permanent, anything else is
 * `SMTP_UNREACHABLE`, not delivered. Once the content began to leave (`content`), only the server's
 * reply to it is an answer; a connection lost, cut off or timed out then (even after the final `.`,
 * before the 250) may have left the message with the server: in doubt (`maybeAccepted`), never
 * failed over nor sent again blind. The stage defaults to `content`: unsure, in doubt.
 */
export function outcomeOfSmtpError(error: SmtpError, stage: SmtpStage = 'content'): SendOutcome {
  const code = error.responseCode;
  const reply = (error.response ?? error.message).slice(0, 500);
  if (stage === 'content' && !isReply(error)) {
    return { ok: false, retryable: true, code: 'PROVIDER_UNREACHABLE', message: CUT_OFF, detail: reply, maybeAccepted: true };
  }
  // Our credentials are a configuration problem an operator fixes, never the recipient's bounce.
  if (error.code === 'EAUTH') {
    return { ok: false, retryable: true, code: 'SMTP_AUTH', message: 'The SMTP server refused our credentials.', detail: reply };
  }
  // Only replies to RCPT TO and to the content are about this email; the others (a 421, a refused
  // greeting, EHLO or MAIL FROM) are about our own link and may name our relay, login or address.
  const words = aboutTheEmail(error, code) ? { message: reply } : { message: LINK_REFUSED, detail: reply };
  if (code !== undefined && code >= 500)
    return Object.assign({ ok: false as const, retryable: false, code: permanentCode(error, code, reply) }, words);
  if (code !== undefined && code >= 400) return Object.assign({ ok: false as const, retryable: true, code: `SMTP_${code}` }, words);
  // Refused, unreachable, cut off or timed out before the content left: the server has nothing.
  return { ok: false, retryable: true, code: 'SMTP_UNREACHABLE', message: UNREACHABLE, detail: reply };
}

/** A reply to RCPT TO or to the content (DATA, BDAT, the final dot), other than a 421 (the server closing). */
function aboutTheEmail(error: SmtpError, code: number | undefined): boolean {
  const command = (error.command ?? '').toUpperCase();
  if (code === 421) return false;
  return command.startsWith('RCPT') || command.startsWith('DATA') || command.startsWith('BDAT');
}

const LINK_REFUSED = "The SMTP server refused our session (its reply is in the operator's logs).";

// What the account reads when no reply came: the socket's own words (a relay's host and port, a TLS
// failure) are the operator's, in `detail`.
const CUT_OFF = 'The connection to the SMTP server broke while the email was handed over; whether the server took it is unknown.';
const UNREACHABLE = 'The SMTP server could not be reached; the email waits and is tried again.';

/** The provider was closed (the worker is stopping): nothing was handed over. */
const CLOSED: SendOutcome = {
  ok: false,
  retryable: true,
  code: 'HANDOVER_WITHDRAWN',
  message: 'The email was not handed over: the worker is stopping.',
};

/** Where a send's stage is handed to the transport's stream plugin, in the mail's options. */
const STAGE = Symbol('herald.smtp.stage');
type StageOf = { stage: SmtpStage };

/** `source`, read only when its reader first asks for it: then `stage` becomes `content`. */
function watchedContent(source: Readable, stage: StageOf): Readable {
  async function* content() {
    stage.stage = 'content';
    yield* source;
  }
  return Readable.from(content(), { objectMode: false });
}

/**
 * Email through an SMTP server (nodemailer, pooled). 250 means the server took the message: the
 * email is `sent`. SMTP has no delivery receipt, so `delivered` never follows on its own; bounces
 * arrive later as mail to the envelope sender and are fed back as described in docs/email.md.
 */
export function createSmtpProvider(settings: SmtpSettings): Provider & { close(): void } {
  // Spelled out rather than passed as `url`: with a URL, nodemailer drops the `tls` options (a CA).
  const url = new URL(settings.url);
  const implicitTls = url.protocol === 'smtps:';
  const transport = loadNodemailer().createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : implicitTls ? 465 : 587,
    secure: implicitTls,
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    pool: true,
    maxConnections: settings.poolSize,
    // A connection that closes quietly mid-send fails the send instead of nodemailer sending it
    // again on its own, unseen (by default without end): whether to send it again is ours to say.
    maxRequeues: 0,
    // nodemailer's defaults (2 min to connect, 10 min of silence) would hold a send, and the
    // sends queued behind it for a pooled connection, that long on a silent relay.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: settings.socketTimeoutMs ?? 60_000,
    ...(settings.tlsCa ? { tls: { ca: settings.tlsCa } } : {}),
  } as Parameters<typeof nodemailer.createTransport>[0]);
  // The content's stream is read only once the server answered DATA with 354: watched, it tells each
  // send's stage (outcomeOfSmtpError). Any other reader of it would make every error in doubt.
  let closed = false;
  transport.use('stream', (mail, done) => {
    const stage = (mail.data as { [STAGE]?: StageOf })[STAGE];
    if (stage) {
      const create = mail.message.createReadStream.bind(mail.message);
      mail.message.createReadStream = (options) => watchedContent(create(options), stage);
    }
    done();
  });

  return {
    name: 'smtp',
    channel: 'email',
    ...(settings.maxPerSecond ? { maxPerSecond: settings.maxPerSecond } : {}),

    async send(message): Promise<SendOutcome> {
      // A closed pool never calls back: a send then would wait for ever.
      if (closed) return CLOSED;
      const email = message.payload as unknown as EmailPayload | null;
      if (!email) return { ok: false, retryable: false, code: 'MISSING_CONTENT', message: 'The email has no stored content.' };
      // The operator's own target when SMTP_LIST_UNSUBSCRIBE is set; otherwise Herald's signed
      // one-click link, which puts the address on the account's suppression list.
      const unsubscribe = settings.listUnsubscribe?.replaceAll('{message_id}', message.id) ?? email.list_unsubscribe;
      const domain = email.from.split('@')[1] ?? 'herald.invalid';
      const options = {
        messageId: `<${message.id}@${domain}>`,
        from: email.from_name ? { name: email.from_name, address: email.from } : email.from,
        to: message.to,
        ...(email.cc?.length ? { cc: email.cc } : {}),
        ...(email.reply_to ? { replyTo: email.reply_to } : {}),
        subject: email.subject,
        ...(email.text !== undefined ? { text: email.text } : {}),
        ...(email.html !== undefined ? { html: email.html } : {}),
        attachments: (email.attachments ?? []).map((a) => ({
          filename: a.filename,
          content: Buffer.from(a.content, 'base64'),
          contentType: a.content_type,
        })),
        headers: {
          'X-Herald-Message-Id': message.id,
          ...(unsubscribe ? { 'List-Unsubscribe': `<${unsubscribe}>` } : {}),
          ...(unsubscribe?.startsWith('https://') ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
        },
      };
      const watched: StageOf = { stage: 'envelope' };
      // The stage is read in the callback, as the error is reported: the content's stream may yet be
      // drained after an error (nodemailer does, to free it), which must not make that error in doubt.
      // Not raced against the send timeout: nodemailer cannot take a send back (it may be waiting
      // for a pooled connection, or be before the 354), so an answer before its own would leave it
      // going while a retry queues a second copy. The session timeouts above bound the wait.
      const sent = await new Promise<{ info: Awaited<ReturnType<typeof transport.sendMail>> } | { error: SmtpError; stage: SmtpStage }>(
        (resolve) => {
          transport.sendMail(Object.assign(options, { [STAGE]: watched }), (error, info) => {
            resolve(error ? { error: error as SmtpError, stage: watched.stage } : { info });
          });
        },
      );
      if ('error' in sent) return outcomeOfSmtpError(sent.error, sent.stage);
      const { info } = sent;
      // With cc recipients the server may take the message for them and refuse the addressee:
      // the addressee's answer (to RCPT TO) is the message's outcome.
      const refused = (info as { rejectedErrors?: SmtpError[] }).rejectedErrors?.find(
        (e) => (e as SmtpError & { recipient?: string }).recipient === message.to,
      );
      // The others (cc) have it already: sent again, on this relay or the next, they would get it twice.
      if (refused)
        return info.accepted.length > 0
          ? Object.assign(outcomeOfSmtpError(refused, 'envelope'), { maybeAccepted: true })
          : outcomeOfSmtpError(refused, 'envelope');
      if (info.rejected.includes(message.to)) {
        return { ok: false, retryable: false, code: 'SMTP_REJECTED', message: 'The SMTP server refused the recipient.' };
      }
      return { ok: true, providerMessageId: info.messageId };
    },

    close: () => {
      closed = true;
      transport.close();
    },
  };
}
