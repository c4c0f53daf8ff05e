import type { AddressObject, ParsedMail } from 'mailparser';
import type { ReceivedMessage } from '../../core/inbound/inbound-message.js';
import { cutText, INBOUND_MAX_TEXT } from '../../core/inbound/receive-messages.js';
import { loadOnUse } from '../../core/load-on-use.js';

/**
 * mailparser (and html-to-text with it), loaded by the inbound SMTP listener when it is made
 * (`prepareMailReading`): a server without one never loads it, one with it fails at its start,
 * not at its first message (which it would answer 554, bounced by the sender for good).
 */
const loadMailparser = loadOnUse<typeof import('mailparser')>('mailparser');

export function prepareMailReading(): void {
  loadMailparser();
}

/** HTML longer than this (characters) is not converted to text: html-to-text's time grows with it. */
const MAX_HTML_TO_CONVERT = 2_000_000;
/** RFC 5322's line limit: the most of a subject or a message id kept. */
const MAX_HEADER_CHARS = 998;
/** The most message ids of `References` kept, the latest ones (a long thread names every message before). */
const MAX_REFERENCES = 50;

/** What the SMTP session knew of a message before its content: the envelope, addresses lower-cased. */
export interface MailEnvelope {
  /** MAIL FROM; '' for the null sender of a bounce or an auto-reply. */
  mailFrom: string;
  /** Every recipient accepted at RCPT TO (each one some account's address). */
  recipients: readonly string[];
}

/** What a received email became: one message per recipient, or why it cannot be taken. */
export type ReadMail = { ok: true; messages: ReceivedMessage[] } | { ok: false; reason: 'no_sender' };

/**
 * Reads an email handed to the inbound SMTP listener (whole, within its size limit) as one
 * received message per accepted recipient. `from` is the From header's address (the envelope's
 * MAIL FROM when there is none), `text` the plain-text body, or the HTML converted to text when the
 * message has no plain part, trimmed and cut at INBOUND_MAX_TEXT. The Message-ID is the
 * provider's id, so the same email delivered again (after a 451, or to a second address of the
 * account) is stored once. Attachments are counted, never kept.
 */
export async function readInboundMail(raw: Buffer, envelope: MailEnvelope, receivedAt: number): Promise<ReadMail> {
  const mail = await loadMailparser().simpleParser(raw, {
    // Only the text is kept: no HTML made from the text, no images inlined into the HTML, no hashes.
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
    keepCidLinks: true,
    checksumAlgo: false,
    maxHtmlLengthToParse: MAX_HTML_TO_CONVERT,
  });
  const from = senderOf(mail.from) ?? (envelope.mailFrom === '' ? undefined : envelope.mailFrom.toLowerCase());
  if (!from) return { ok: false, reason: 'no_sender' };
  const { text, truncated } = bodyOf(mail);
  const messageId = headerText(mail.messageId);
  const details: Record<string, unknown> = {
    subject: headerText(mail.subject) ?? null,
    message_id: messageId ?? null,
    in_reply_to: headerText(mail.inReplyTo) ?? null,
    references: referencesOf(mail.references),
    attachments: mail.attachments.length,
  };
  if (truncated) details.truncated = true;
  const messages = envelope.recipients.map(
    (to): ReceivedMessage => ({ channel: 'email', from, to, text, receivedAt, providerMessageId: messageId, details }),
  );
  return { ok: true, messages };
}

/** The first address of the From header, lower-cased; undefined when it names none (a group, garbage). */
function senderOf(header: AddressObject | undefined): string | undefined {
  for (const entry of header?.value ?? []) {
    const address = entry.address?.trim().toLowerCase();
    if (address?.includes('@')) return address;
  }
  return undefined;
}

function bodyOf(mail: ParsedMail): { text: string; truncated: boolean } {
  const whole = (mail.text ?? '').replace(/\r\n/g, '\n').trim();
  if (whole.length <= INBOUND_MAX_TEXT) return { text: whole, truncated: false };
  return { text: cutText(whole, INBOUND_MAX_TEXT).trimEnd(), truncated: true };
}

/** A header's value, trimmed and cut at the line limit; undefined when absent or empty. */
function headerText(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, MAX_HEADER_CHARS) : undefined;
}

function referencesOf(references: string | string[] | undefined): string[] {
  const ids = (Array.isArray(references) ? references : references ? [references] : [])
    .map((id) => headerText(id))
    .filter((id): id is string => id !== undefined);
  return ids.slice(-MAX_REFERENCES);
}
