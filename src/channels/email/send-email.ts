import { MICROS_PER_CREDIT } from '../../core/credits.js';
import { ApiError, type FieldProblem } from '../../core/errors.js';
import { newMessageId } from '../../core/ids.js';
import { acceptOne, type MessageDraft, type SendDeps, type SendRequest } from '../../core/messages/accept-messages.js';
import type { Message } from '../../core/messages/message.js';
import { type PriceList, type PriceSetting, priceOf } from '../../core/pricing.js';
import type { SendEmailBody } from './email.schema.js';
import type { EmailTracking } from './tracking.js';

/** An email costs 0.1 credits by default. */
export const EMAIL_PRICE: PriceSetting = { key: 'email', variable: 'PRICE_EMAIL', defaultMicros: 0.1 * MICROS_PER_CREDIT };

export interface SendEmailDeps extends SendDeps {
  tracking: EmailTracking;
  /** EMAIL_MAX_BYTES: the largest email accepted (see emailSizeBytes). */
  maxBytes: number;
}

/** What the stored message hands to an email provider: every part needed to build the MIME message. */
export interface EmailPayload {
  from: string;
  from_name?: string;
  subject: string;
  /** As it is to be sent: with the tracking pixel and tracked links when asked for. */
  html?: string;
  text?: string;
  reply_to?: string;
  cc?: string[];
  attachments?: Array<{ filename: string; content: string; content_type: string }>;
  track_opens: boolean;
  track_clicks: boolean;
  /** Herald's signed one-click unsubscribe URL for this email (List-Unsubscribe, RFC 8058). */
  list_unsubscribe?: string;
}

export const DEFAULT_ATTACHMENT_TYPE = 'application/octet-stream';

/**
 * Strict base64 (RFC 4648 §4): the standard alphabet, `=` padding, no whitespace, no stray bits.
 * Decoding and encoding again gives back the same text only for such input, since Node's decoder
 * skips what it does not understand.
 */
export function isStrictBase64(text: string): boolean {
  return text.length % 4 === 0 && Buffer.from(text, 'base64').toString('base64') === text;
}

/** Bytes that strict base64 text decodes to, computed without decoding. */
export const base64DecodedBytes = (text: string): number => (text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);

/**
 * The size EMAIL_MAX_BYTES limits: the subject and bodies in UTF-8 plus the attachments' decoded
 * bytes, as the caller gave them. Transfer encoding (base64 inflates attachments by a third on the
 * wire) and the tracking Herald adds do not count against the caller.
 */
export function emailSizeBytes(input: Pick<SendEmailBody, 'subject' | 'html' | 'text' | 'attachments'>): number {
  const text = [input.subject, input.html ?? '', input.text ?? ''].reduce((sum, part) => sum + Buffer.byteLength(part), 0);
  return (input.attachments ?? []).reduce((sum, file) => sum + base64DecodedBytes(file.content), text);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The rules no single field's schema can state. The body may have failed its schema too, so
 * nothing is assumed about its shape.
 */
export function emailContentProblems(body: unknown): FieldProblem[] {
  if (!isObject(body)) return [];
  const problems: FieldProblem[] = [];
  if (body.from === undefined) {
    problems.push({ field: 'from', message: 'is required: this account has no default sender address' });
  }
  if (body.html === undefined && body.text === undefined) {
    problems.push({ field: 'html', message: 'or text is required: an email needs at least one body' });
  }
  const attachments = Array.isArray(body.attachments) ? body.attachments : [];
  attachments.forEach((file: unknown, index) => {
    const field = `attachments.${index}.content`;
    if (!isObject(file) || typeof file.content !== 'string' || file.content === '') return;
    if (!isStrictBase64(file.content)) {
      problems.push({ field, message: 'must be valid base64 (standard alphabet with = padding, no line breaks)' });
    }
  });
  return problems;
}

function invalid(problems: FieldProblem[]): ApiError {
  const [only] = problems;
  const message =
    problems.length === 1 && only ? `Invalid field '${only.field}': ${only.message}.` : `${problems.length} fields are invalid.`;
  return new ApiError('VALIDATION_ERROR', message, { details: problems });
}

/** The stored parts of an email, its HTML with the tracking asked for. */
async function emailPayload(input: SendEmailBody, messageId: string, tracking: EmailTracking): Promise<EmailPayload> {
  const trackOpens = input.track_opens ?? false;
  const trackClicks = input.track_clicks ?? false;
  return {
    from: input.from as string,
    from_name: input.from_name,
    subject: input.subject,
    html: input.html === undefined ? undefined : await tracking.decorate(input.html, messageId, { opens: trackOpens, clicks: trackClicks }),
    text: input.text,
    reply_to: input.reply_to,
    cc: input.cc,
    attachments: input.attachments?.map((file) => ({
      filename: file.filename,
      content: file.content,
      content_type: file.content_type ?? DEFAULT_ATTACHMENT_TYPE,
    })),
    track_opens: trackOpens,
    track_clicks: trackClicks,
    // Every copy carries the header, and a link names one address: with cc, a cc reader's Unsubscribe
    // would opt out the addressee, so an email with cc carries none.
    ...(input.cc?.length ? {} : { list_unsubscribe: await tracking.unsubscribeUrl(messageId) }),
  };
}

/**
 * The body of an email send, checked: every field problem at once (those the schema found, passed
 * in, and the email's own rules) is one 422. What is left may still be too large (emailTooLarge).
 */
export function checkEmailBody(body: unknown, schemaProblems: readonly FieldProblem[] = []): SendEmailBody {
  // One problem per field: what the schema already said about a field is not said twice.
  const reported = new Set(schemaProblems.map((p) => p.field));
  const problems = [...schemaProblems, ...emailContentProblems(body).filter((p) => !reported.has(p.field))];
  if (problems.length > 0) throw invalid(problems);
  return body as SendEmailBody;
}

/** The refusal (413) of an email of `size` bytes (emailSizeBytes) over EMAIL_MAX_BYTES; undefined when it fits. */
export function emailTooLarge(size: number, maxBytes: number): ApiError | undefined {
  if (size <= maxBytes) return undefined;
  return new ApiError(
    'PAYLOAD_TOO_LARGE',
    `This email has ${size} bytes of subject, bodies and decoded attachments, more than the limit of ${maxBytes} bytes.`,
  );
}

/** An email's message as it is accepted, but for its id and parts (emailPayload): its recipients (cc too), sender and price. */
export const emailDraft = (prices: PriceList, input: SendEmailBody): MessageDraft => ({
  channel: 'email',
  to: input.to,
  alsoTo: input.cc,
  sender: input.from as string,
  replyTo: input.reply_to,
  body: input.subject,
  costMicros: priceOf(prices, EMAIL_PRICE.key),
});

/**
 * Accepts an email: refuses one with field problems (422, checkEmailBody) or over the size limit
 * (413), adds the tracking asked for, and in one transaction reserves its cost and stores it as
 * `queued` with its parts as the payload.
 */
export async function sendEmail(
  deps: SendEmailDeps,
  accountId: string,
  body: unknown,
  schemaProblems: readonly FieldProblem[] = [],
  request: SendRequest<Message> = {},
): Promise<Message> {
  const input = checkEmailBody(body, schemaProblems);
  const tooLarge = emailTooLarge(emailSizeBytes(input), deps.maxBytes);
  if (tooLarge) throw tooLarge;
  // The id is made first: the tracking links in the HTML carry it.
  const id = newMessageId('email', deps.clock.now());
  const payload = await emailPayload(input, id, deps.tracking);
  return acceptOne(deps, accountId, Object.assign(emailDraft(deps.prices, input), { id, payload: { ...payload } }), request);
}
