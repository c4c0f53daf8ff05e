import Type from 'typebox';
import { EVENT_TYPES } from '../../core/events/event-types.js';
import { Timestamp } from '../envelope.js';
import { InboundMessageSchema, MessageStatusSchema } from '../message-view.js';

/**
 * What Herald posts to a webhook or a callback_url (docs/webhooks.md, "What is posted"), as the
 * API reference's `webhooks` and `callbacks` describe it. The body is built in
 * core/events/emit-event.ts; a test validates real deliveries against this schema.
 */
const ACCOUNT_EVENT_TYPES: readonly string[] = ['message.received', 'suppression.created', 'suppression.deleted'];

const MessageEvent = Type.Object(
  {
    id: Type.String({ description: '`evt_<id>`: the same for every retry and replay of the event; deduplicate by it.' }),
    type: Type.Union(
      EVENT_TYPES.filter((type) => !ACCOUNT_EVENT_TYPES.includes(type)).map((type) => Type.Literal(type)),
      { description: 'The kind of event (docs/webhooks.md, "Event kinds").' },
    ),
    created_at: Timestamp,
    data: Type.Object({
      message_id: Type.String(),
      channel: Type.String({ description: 'The channel of the message: `sms`, `whatsapp`, `email`, `telegram`.' }),
      to: Type.String(),
      status: MessageStatusSchema,
      sequence: Type.Integer({ minimum: 1, description: "Counts the message's events (1, 2...): sort by it when order matters." }),
      error: Type.Optional(
        Type.Object(
          { code: Type.String(), message: Type.String() },
          { description: 'Why it failed (`message.failed`), or HANDOVER_UNCONFIRMED on a `message.sent` whose hand-over was interrupted.' },
        ),
      ),
      user_agent: Type.Optional(Type.String({ description: "email.opened and email.clicked: the reader's user agent." })),
      ip: Type.Optional(Type.String({ description: 'email.opened and email.clicked: the address the request came from.' })),
      url: Type.Optional(Type.String({ description: 'email.clicked: the link followed.' })),
    }),
  },
  { title: 'MessageEvent' },
);

const ReceivedEvent = Type.Object(
  {
    id: Type.String({ description: '`evt_<id>`: the same for every retry and replay of the event; deduplicate by it.' }),
    type: Type.Literal('message.received'),
    created_at: Timestamp,
    data: InboundMessageSchema,
  },
  {
    title: 'MessageReceivedEvent',
    description: 'A recipient wrote to the account (docs/inbound.md): the message as `GET /v1/messages/{id}` shows it.',
  },
);

const SuppressionEvent = Type.Object(
  {
    id: Type.String({ description: '`evt_<id>`: the same for every retry and replay of the event; deduplicate by it.' }),
    type: Type.Union([Type.Literal('suppression.created'), Type.Literal('suppression.deleted')]),
    created_at: Timestamp,
    data: Type.Object({
      channel: Type.String(),
      recipient: Type.String(),
      reason: Type.String({ description: '`opt_out`, `hard_bounce`, `complaint`, `blocked` or `manual`.' }),
      source: Type.String({
        description:
          'What made the change: `api`, `dashboard`, `inbound` (a STOP or START keyword), `email_bounce`, `email_complaint`, `email_unsubscribe`, `telegram_blocked`, `whatsapp_opt_out`.',
      }),
      created_at: Timestamp,
    }),
  },
  {
    title: 'SuppressionEvent',
    description: "A recipient was put on the account's suppression list or taken off it (docs/suppression.md).",
  },
);

const TestEvent = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('webhook.test'),
    created_at: Timestamp,
    data: Type.Object({ webhook_id: Type.String() }),
  },
  { title: 'WebhookTestEvent', description: 'Sent only by `POST /v1/webhooks/{webhook_id}/test`.' },
);

export const WebhookEventSchema = Type.Union([MessageEvent, ReceivedEvent, SuppressionEvent, TestEvent], { title: 'WebhookEvent' });

/** The headers of every delivery (docs/webhooks.md, "Headers and signatures"), as header parameters. */
export const DELIVERY_HEADERS = [
  ['webhook-id', 'The event id (Standard Webhooks).'],
  ['webhook-timestamp', 'Unix seconds when the delivery was signed.'],
  [
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per secret in force, space-separated.',
  ],
  ['X-Service-Timestamp', 'Unix seconds when the delivery was signed.'],
  ['X-Service-Signature', '`v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`, one per secret in force, comma-separated.'],
] as const;
