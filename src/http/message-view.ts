import Type from 'typebox';
import { toIso, toIsoOrNull } from '../core/clock.js';
import { microsToCredits } from '../core/credits.js';
import { creditsUsedMicros, MESSAGE_STATUSES, type Message, type StatusChange } from '../core/messages/message.js';
import { commonErrors, ErrorEnvelope, Nullable, Timestamp } from './envelope.js';

export const MessageStatusSchema = Type.Union(
  MESSAGE_STATUSES.map((s) => Type.Literal(s)),
  { description: 'queued → sent → delivered (→ read on WhatsApp), or failed / canceled. Never goes back.' },
);
/** One of the channels served (the catalogue's names, core/channels.ts). */
export const channelSchema = (channels: readonly string[]) => Type.Union(channels.map((c) => Type.Literal(c)));

export const MessageErrorSchema = Nullable(
  Type.Object(
    { code: Type.String(), message: Type.String() },
    {
      description:
        'Why the message failed; with status `queued`, why it waits: the answer of the provider that put it back (`SMPP_NOT_BOUND` while the SMSC is unreachable, `TEMPORARY_FAILURE`...), until it is sent; with status `sent`, `HANDOVER_UNCONFIRMED` when its hand-over was interrupted and whether the provider took it is unknown (it is not sent again); null otherwise.',
    },
  ),
);

export const StatusChangeSchema = Type.Object(
  {
    status: MessageStatusSchema,
    timestamp: Timestamp,
    detail: Type.Optional(Type.String({ description: 'Context such as a provider code.' })),
  },
  { title: 'StatusChange' },
);

/** One message in the same shape whatever its channel: GET /v1/messages/{id} and the list (docs/messages-and-credits.md). */
export const universalMessageSchema = (channels: readonly string[]) =>
  Type.Object({
    message_id: Type.String(),
    direction: Type.Literal('outbound', { description: 'Sent by the account; received messages are `inbound` (InboundMessage).' }),
    channel: channelSchema(channels),
    to: Type.String(),
    status: MessageStatusSchema,
    status_history: Type.Array(StatusChangeSchema),
    credits_used: Type.Number(),
    created_at: Timestamp,
    scheduled_at: Nullable(Timestamp),
    error: MessageErrorSchema,
    route: Nullable(
      Type.String({
        description:
          'The route that took the message, on a channel with several: an SMSC of SMS_ROUTES, `default` with a single SMPP_URL (docs/routing.md); null until one took it, and on other channels.',
      }),
    ),
  });

/** A message a recipient sent to the account (docs/inbound.md): core/inbound/inbound-message.ts builds it. */
export const InboundMessageSchema = Type.Object(
  {
    message_id: Type.String({ description: '`msg_<channel>_<id>`, like the messages the account sends.' }),
    direction: Type.Literal('inbound'),
    channel: Type.String({ description: 'The channel it came on: `sms`, `whatsapp`, `email`, `telegram`.' }),
    from: Type.String({ description: 'Who wrote: E.164 for SMS and WhatsApp, the chat id for Telegram, the address for email.' }),
    to: Type.String({ description: "The account's number, sender id, bot (`@username`) or email address it was sent to." }),
    text: Type.String({ description: "The message's text (SMS parts joined; an email's plain-text body)." }),
    details: Type.Record(Type.String(), Type.Unknown(), {
      description:
        "What the channel adds: `subject`, `message_id` (the email's Message-ID), `in_reply_to`, `references`, `attachments` (counted, not kept) and `truncated` for email; `username`, `first_name` and `chat_type` for Telegram; `type`, `profile_name`, `payload` (the button or list item chosen), `context_id` (the wamid answered) and `in_reply_to` (Herald's id of that message, when this account sent it) for WhatsApp; `parts` for a long SMS.",
    }),
    received_at: Timestamp,
    created_at: Timestamp,
  },
  { title: 'InboundMessage' },
);

export function presentUniversal(message: Message, history: StatusChange[]) {
  return {
    message_id: message.id,
    direction: 'outbound' as const,
    channel: message.channel,
    to: message.to,
    status: message.status,
    status_history: history.map((h) => ({
      status: h.status,
      timestamp: toIso(h.occurredAt),
      ...(h.detail ? { detail: h.detail } : {}),
    })),
    credits_used: microsToCredits(creditsUsedMicros(message)),
    created_at: toIso(message.createdAt),
    scheduled_at: toIsoOrNull(message.scheduledAt),
    error: message.error,
    route: message.route,
  };
}

/** The error responses of every send route. */
export const sendErrors = { 402: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors } as const;

/** The 200 of every send route: the message as accepted, `queued`, with its id and cost. */
export const presentAccepted = (message: Message) => ({
  message_id: message.id,
  to: message.to,
  status: 'queued' as const,
  credits_used: microsToCredits(message.costMicros),
  created_at: toIso(message.createdAt),
});

/** The schema of what presentProgress shows: the properties every channel's detail ends with. */
export const ProgressProperties = {
  status: MessageStatusSchema,
  credits_used: Type.Number(),
  created_at: Timestamp,
  sent_at: Nullable(Timestamp),
  delivered_at: Nullable(Timestamp),
  error: MessageErrorSchema,
};

/** What every channel's read endpoint shows of a message's progress. */
export const presentProgress = (message: Message) => ({
  status: message.status,
  credits_used: microsToCredits(creditsUsedMicros(message)),
  created_at: toIso(message.createdAt),
  sent_at: toIsoOrNull(message.sentAt),
  delivered_at: toIsoOrNull(message.deliveredAt),
  error: message.error,
});

/** The path parameter of every route about one message, whatever its channel. */
export const MessageIdParams = Type.Object({
  message_id: Type.String({ description: 'A message id, `msg_<channel>_<id>`.' }),
});

/** The properties every send preview ends with (email, Telegram): what the send would answer now. */
export const PreviewVerdictProperties = {
  credits: Type.Number({ description: 'What the send costs.' }),
  available: Type.Number({ description: 'Credits available now (balance − reserved).' }),
  affordable: Type.Boolean({ description: 'Whether `available` covers `credits` now.' }),
  sendable: Type.Boolean({ description: 'Whether the send would be accepted now (`refusal` is null).' }),
  refusal: Nullable(
    Type.Object(
      { code: Type.String(), message: Type.String() },
      { description: "The first of the send's checks that would refuse it, with the send's code and message; null when none would." },
    ),
  ),
};

/** What presentVerdict shows of a preview: its price, the balance, and the refusal the send would answer. */
export const presentVerdict = (preview: {
  costMicros: number;
  availableMicros: number;
  affordable: boolean;
  refusal: { code: string; message: string } | null;
}) => ({
  credits: microsToCredits(preview.costMicros),
  available: microsToCredits(preview.availableMicros),
  affordable: preview.affordable,
  sendable: preview.refusal === null,
  refusal: preview.refusal,
});
