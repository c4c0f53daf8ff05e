import Type from 'typebox';
import { EVENT_TYPES } from '../../core/events/event-types.js';
import { Timestamp } from '../envelope.js';
import { MessageStatusSchema } from '../message-view.js';

/**
 * What Herald posts to a webhook or a callback_url (docs/webhooks.md, "What is posted"), as the
 * API reference's `webhooks` and `callbacks` describe it. The body is built in
 * core/events/emit-event.ts; a test validates real deliveries against this schema.
 */
const MessageEvent = Type.Object(
  {
    id: Type.String({ description: '`evt_<id>`: the same for every retry and replay of the event; deduplicate by it.' }),
    type: Type.Union(
      EVENT_TYPES.map((type) => Type.Literal(type)),
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

const TestEvent = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('webhook.test'),
    created_at: Timestamp,
    data: Type.Object({ webhook_id: Type.String() }),
  },
  { title: 'WebhookTestEvent', description: 'Sent only by `POST /v1/webhooks/{webhook_id}/test`.' },
);

export const WebhookEventSchema = Type.Union([MessageEvent, TestEvent], { title: 'WebhookEvent' });

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
