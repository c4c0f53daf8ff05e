import Type from 'typebox';
import { Nullable, Timestamp } from '../../http/envelope.js';
import { MessageErrorSchema, MessageStatusSchema } from '../../http/message-view.js';
import { FORMATS } from '../../http/validation.js';

/**
 * `POST /v1/sms/send` (field rules: docs/messages-and-credits.md). Phone validity beyond the E.164
 * shape is checked by the use case (INVALID_PHONE).
 */
export const SendSmsBody = Type.Object(
  {
    to: Type.String({
      format: FORMATS.phone,
      maxLength: 32,
      errorMessage: 'must be a valid phone number in E.164 format',
      description: 'Recipient in E.164, e.g. `+14155552671`; a number that does not exist is 422 INVALID_PHONE.',
      examples: ['+14155552671'],
    }),
    message: Type.String({
      minLength: 1,
      maxLength: 1600,
      description: 'Text, 1 to 1600 characters. GSM-7 text: 160 per segment, 153 each when split; otherwise UCS-2: 70 / 67.',
    }),
    sender: Type.Optional(
      Type.String({
        pattern: '^([A-Za-z0-9]{1,11}|\\+[1-9][0-9]{6,14})$',
        errorMessage: 'must be 1 to 11 letters or digits, or an E.164 number',
        description:
          'An alphanumeric sender id (up to 11 letters or digits, a short code), or a number in E.164: one of the account’s numbers, so recipients can reply (docs/inbound.md).',
      }),
    ),
    scheduled_at: Type.Optional(
      Type.String({
        format: FORMATS.dateTime,
        maxLength: 64,
        errorMessage: 'must be an ISO 8601 date-time',
        description: 'ISO 8601 date-time; without an offset it is UTC. At most 60 s in the past and 35 days ahead.',
      }),
    ),
    callback_url: Type.Optional(
      Type.String({
        maxLength: 2048,
        pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+[^\\s]*$',
        errorMessage: 'must be an absolute http(s) URL',
        description: "Absolute http(s) URL told about this message's events.",
      }),
    ),
  },
  {
    title: 'SendSmsRequest',
    additionalProperties: false,
    examples: [{ to: '+14155552671', message: 'Your code is 123456', sender: 'Acme', callback_url: 'https://example.com/herald/events' }],
  },
);
export type SendSmsBody = Type.Static<typeof SendSmsBody>;

export const SmsAccepted = Type.Object(
  {
    message_id: Type.String({ description: '`msg_sms_<id>`' }),
    to: Type.String(),
    status: Type.Literal('queued'),
    segments: Type.Integer(),
    credits_used: Type.Number(),
    created_at: Timestamp,
    scheduled_at: Type.Optional(Timestamp),
  },
  { title: 'SmsAccepted' },
);

export const SmsDetail = Type.Object(
  {
    message_id: Type.String(),
    channel: Type.Literal('sms'),
    to: Type.String(),
    message: Type.String(),
    sender: Nullable(Type.String()),
    status: MessageStatusSchema,
    segments: Type.Integer(),
    credits_used: Type.Number(),
    created_at: Timestamp,
    scheduled_at: Nullable(Timestamp),
    sent_at: Nullable(Timestamp),
    delivered_at: Nullable(Timestamp),
    error: MessageErrorSchema,
    route: Nullable(
      Type.String({
        description:
          'The SMS route (SMSC) that took the message, `default` with a single SMPP_URL (docs/routing.md); null until one took it, with the sandbox, and when its hand-over is unconfirmed.',
      }),
    ),
  },
  { title: 'SmsDetail' },
);

export const SendSmsBulkBody = Type.Object(
  {
    recipients: Type.Array(Type.String({ maxLength: 32 }), {
      minItems: 1,
      maxItems: 1000,
      description:
        'E.164 numbers, 1 to 1000. Repeats collapse to one; invalid and suppressed ones are listed in `rejected` while the rest are sent (all suppressed: 422 RECIPIENT_SUPPRESSED).',
    }),
    message: SendSmsBody.properties.message,
    sender: SendSmsBody.properties.sender,
    scheduled_at: SendSmsBody.properties.scheduled_at,
    callback_url: SendSmsBody.properties.callback_url,
  },
  {
    title: 'SendSmsBulkRequest',
    additionalProperties: false,
    examples: [{ recipients: ['+14155552671', '+447911123456'], message: 'The store opens at 9 tomorrow.', sender: 'Acme' }],
  },
);
export type SendSmsBulkBody = Type.Static<typeof SendSmsBulkBody>;

export const SmsBulkAccepted = Type.Object(
  {
    batch_id: Type.String({ description: '`bat_<id>`' }),
    messages: Type.Array(Type.Object({ message_id: Type.String(), to: Type.String(), status: Type.Literal('queued') })),
    rejected: Type.Array(
      Type.Object({
        to: Type.String(),
        error: Type.Object({
          code: Type.Union([Type.Literal('INVALID_PHONE'), Type.Literal('RECIPIENT_SUPPRESSED')], {
            description: 'INVALID_PHONE: not E.164; RECIPIENT_SUPPRESSED: on the account suppression list (docs/suppression.md).',
          }),
          message: Type.String(),
        }),
      }),
    ),
    segments: Type.Integer({ description: 'Segments of the text, the same for every recipient.' }),
    credits_used: Type.Number({ description: 'Total reserved for all accepted recipients.' }),
    scheduled_at: Type.Optional(Timestamp),
  },
  { title: 'SmsBulkAccepted' },
);

export const PreviewSmsBody = Type.Object(
  {
    message: SendSmsBody.properties.message,
    to: Type.Optional(SendSmsBody.properties.to),
    recipients: Type.Optional(SendSmsBulkBody.properties.recipients),
    // A send's body can be previewed as it is: these are checked as the send checks their form, and do not change the price.
    sender: SendSmsBody.properties.sender,
    scheduled_at: SendSmsBody.properties.scheduled_at,
    callback_url: SendSmsBody.properties.callback_url,
  },
  {
    title: 'PreviewSmsRequest',
    additionalProperties: false,
    description:
      'The text, and either the `to` of one send or the `recipients` of a bulk send (neither: one recipient). `sender`, `scheduled_at` and ' +
      '`callback_url` may be given, so a send body can be previewed as it is; they do not change the price.',
    examples: [{ to: '+14155552671', message: 'Your code is 123456 – valid for 10 minutes' }],
  },
);
export type PreviewSmsBody = Type.Static<typeof PreviewSmsBody>;

export const SmsPreview = Type.Object(
  {
    encoding: Type.Union([Type.Literal('GSM-7'), Type.Literal('UCS-2')], {
      description: 'GSM-7 when every character is in the GSM 03.38 alphabet, otherwise UCS-2.',
    }),
    segments: Type.Integer({ description: 'Parts the text travels in: the segments a send charges for.' }),
    characters: Type.Integer({ description: 'Characters of the text, counted in Unicode code points.' }),
    units: Type.Integer({ description: 'Septets (GSM-7, an extension character such as € takes 2) or UTF-16 code units (UCS-2).' }),
    units_per_segment: Type.Integer({ description: 'Room of each part: 160 / 153 septets, or 70 / 67 code units when split.' }),
    non_gsm_characters: Type.Array(
      Type.Object({
        character: Type.String(),
        position: Type.Integer({ description: '0-based, in Unicode code points.' }),
      }),
      { description: 'Each character that made the text UCS-2, with its position; empty for GSM-7.' },
    ),
    credits_per_message: Type.Number({ description: 'What each recipient costs: segments × the segment price.' }),
    recipients: Type.Integer({ description: 'Recipients the send would accept (1 without `recipients`, 0 when that `to` is suppressed).' }),
    rejected: SmsBulkAccepted.properties.rejected,
    credits: Type.Number({ description: 'The whole send: credits_per_message × recipients.' }),
    available: Type.Number({ description: 'Credits available now (balance − reserved).' }),
    affordable: Type.Boolean({ description: 'Whether `available` covers `credits` now; the send reserves all of it or nothing (402).' }),
  },
  { title: 'SmsPreview' },
);
