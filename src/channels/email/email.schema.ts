import Type from 'typebox';
import { EMAIL_EVENT_TYPES } from '../../core/ports.js';
import { Nullable, Timestamp } from '../../http/envelope.js';
import { PreviewVerdictProperties, ProgressProperties } from '../../http/message-view.js';
import { EMAIL_ADDRESS_MAX_LENGTH, EMAIL_ADDRESS_PATTERN } from './email-address.js';

/** Most cc recipients one email may have. */
export const MAX_CC = 50;
/** Most attachments one email may carry. */
export const MAX_ATTACHMENTS = 100;
/** RFC 5322's line limit; a longer subject would have to be folded by every relay on the way. */
export const MAX_SUBJECT_LENGTH = 998;

/** Text that ends up in a mail header: a line break would let a caller inject headers of their own. */
const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001F\\u007F]*$';
/** A plain file name: no directories, no control characters, not `.` or `..`. */
const FILE_NAME = '^(?!\\.{1,2}$)[^\\u0000-\\u001F\\u007F/\\\\]+$';
/** `type/subtype` per RFC 6838, optionally with `; name=value` parameters. */
const MIME_TYPE =
  '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}' +
  '(?:\\s*;\\s*[A-Za-z0-9!#$&^_.+-]+=(?:[A-Za-z0-9!#$&^_.+-]+|"[^"\\\\\\r\\n]*"))*$';

const Address = (description: string) =>
  Type.String({
    maxLength: EMAIL_ADDRESS_MAX_LENGTH,
    pattern: EMAIL_ADDRESS_PATTERN,
    errorMessage: 'must be a valid email address, e.g. ada@example.com',
    description,
    examples: ['ada@example.com'],
  });

export const EmailAttachment = Type.Object(
  {
    filename: Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: FILE_NAME,
      errorMessage: 'must be a file name without path separators or control characters',
      description: 'Shown to the recipient, e.g. `invoice.pdf`.',
    }),
    content: Type.String({
      minLength: 1,
      description: 'The file, base64-encoded (RFC 4648 standard alphabet, with `=` padding, no line breaks).',
    }),
    content_type: Type.Optional(
      Type.String({
        maxLength: 255,
        pattern: MIME_TYPE,
        errorMessage: 'must be a MIME type such as application/pdf',
        description: 'MIME type, e.g. `application/pdf`; `application/octet-stream` when left out.',
      }),
    ),
  },
  { title: 'EmailAttachment', additionalProperties: false },
);

/**
 * The body of POST /v1/email/send (docs/email.md, "Field rules"). What one field cannot say is checked by the use case and reported with
 * these problems in one answer: `from` (required: accounts have no default sender yet), at least
 * one of `html`/`text`, base64 of attachments, and the total size (413 above EMAIL_MAX_BYTES).
 */
export const SendEmailBody = Type.Object(
  {
    to: Address('Recipient address.'),
    from: Type.Optional(Address('Sender address. Required: accounts have no default sender yet.')),
    from_name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        pattern: NO_CONTROL_CHARACTERS,
        errorMessage: 'must not contain line breaks or control characters',
        description: 'Sender display name, e.g. `Acme Billing`.',
      }),
    ),
    subject: Type.String({
      minLength: 1,
      maxLength: MAX_SUBJECT_LENGTH,
      pattern: NO_CONTROL_CHARACTERS,
      errorMessage: 'must not contain line breaks or control characters',
      description: `Subject line, 1 to ${MAX_SUBJECT_LENGTH} characters.`,
    }),
    html: Type.Optional(Type.String({ minLength: 1, description: 'HTML body. At least one of `html` and `text` is required.' })),
    text: Type.Optional(Type.String({ minLength: 1, description: 'Plain-text body. At least one of `html` and `text` is required.' })),
    reply_to: Type.Optional(Address('Where replies go.')),
    cc: Type.Optional(Type.Array(Address('A cc recipient.'), { maxItems: MAX_CC, description: `Up to ${MAX_CC} cc addresses.` })),
    attachments: Type.Optional(Type.Array(EmailAttachment, { maxItems: MAX_ATTACHMENTS, description: `Up to ${MAX_ATTACHMENTS} files.` })),
    track_opens: Type.Optional(
      Type.Boolean({ description: 'Add a 1×1 open-tracking image to the HTML body (no effect on text-only emails).' }),
    ),
    track_clicks: Type.Optional(Type.Boolean({ description: 'Send the http(s) links of the HTML body through Herald to record clicks.' })),
  },
  {
    title: 'SendEmailRequest',
    additionalProperties: false,
    examples: [
      {
        to: 'ada@example.com',
        from: 'orders@acme.example',
        from_name: 'Acme',
        subject: 'Your order has shipped',
        text: 'Your order #1042 is on its way.',
        html: '<p>Your order <b>#1042</b> is on its way.</p>',
      },
    ],
  },
);
export type SendEmailBody = Type.Static<typeof SendEmailBody>;

export const EmailAccepted = Type.Object(
  {
    message_id: Type.String({ description: '`msg_email_<id>`' }),
    to: Type.String(),
    status: Type.Literal('queued'),
    credits_used: Type.Number(),
    created_at: Timestamp,
  },
  { title: 'EmailAccepted' },
);

export const EmailDetail = Type.Object(
  {
    message_id: Type.String({ description: '`msg_email_<id>`' }),
    channel: Type.Literal('email'),
    to: Type.String(),
    from: Type.String(),
    from_name: Nullable(Type.String()),
    subject: Type.String(),
    reply_to: Nullable(Type.String()),
    cc: Type.Array(Type.String()),
    has_html: Type.Boolean({
      description: 'Whether an HTML body was sent (the bodies themselves are not returned: they may be megabytes).',
    }),
    has_text: Type.Boolean(),
    attachments: Type.Array(
      Type.Object({ filename: Type.String(), content_type: Type.String(), size_bytes: Type.Integer({ description: 'Decoded size.' }) }),
    ),
    track_opens: Type.Boolean(),
    track_clicks: Type.Boolean(),
    ...ProgressProperties,
  },
  { title: 'EmailDetail' },
);

export const EmailEventSchema = Type.Object({
  type: Type.Union(
    EMAIL_EVENT_TYPES.map((type) => Type.Literal(type)),
    { description: 'queued, sent, delivered, bounced and failed follow the status; opened, clicked and complained are events only.' },
  ),
  timestamp: Timestamp,
  data: Type.Optional(
    Type.Object(
      {
        user_agent: Type.Optional(Nullable(Type.String())),
        ip: Type.Optional(Type.String()),
        url: Type.Optional(Type.String({ description: 'The link clicked.' })),
        code: Type.Optional(Type.String({ description: 'Why it bounced or failed, e.g. `BOUNCED`.' })),
        message: Type.Optional(Type.String()),
      },
      { description: '`{user_agent, ip}` for opened and clicked, plus `url` for clicked; `{code, message}` for bounced and failed.' },
    ),
  ),
});

export const EmailEvents = Type.Object({
  message_id: Type.String(),
  events: Type.Array(EmailEventSchema, { description: 'Oldest first.' }),
});

/** What an email send would do (docs/email.md, "Preview before sending"). */
export const EmailPreview = Type.Object(
  {
    size_bytes: Type.Integer({ description: 'Subject, bodies and decoded attachments in bytes, as the send counts them.' }),
    max_bytes: Type.Integer({ description: 'EMAIL_MAX_BYTES: the send refuses a larger email (413 PAYLOAD_TOO_LARGE).' }),
    suppressed: Type.Array(Type.String(), {
      description: "The recipients (`to` and cc) on the account's email suppression list; the send refuses any of them.",
    }),
    from_allowed: Type.Boolean({
      description: "Whether `from` may be used: false when it (or its @domain) is another account's address, whose replies go there.",
    }),
    ...PreviewVerdictProperties,
  },
  { title: 'EmailPreview' },
);
