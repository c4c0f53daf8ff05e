import Type from 'typebox';
import { toIso, toIsoOrNull } from '../../core/clock.js';
import { ALL_EVENTS, EVENT_TYPES } from '../../core/events/event-types.js';
import { DELIVERY_STATUSES, type LoggedDelivery, type Webhook } from '../../core/ports.js';
import { MAX_WEBHOOKS_PER_ACCOUNT } from '../../webhooks/manage-webhooks.js';
import { MAX_REPLAY_PER_CALL } from '../../webhooks/replay-deliveries.js';
import { Nullable, Timestamp } from '../envelope.js';
import { FORMATS } from '../validation.js';

/** Webhook receivers' request schemas and the views they are answered with (docs/webhooks.md). */

const EventKind = Type.Union(
  [...EVENT_TYPES, ALL_EVENTS].map((kind) => Type.Literal(kind)),
  { description: 'An event kind, or `*` for all of them.' },
);

export const RegisterWebhookBody = Type.Object(
  {
    url: Type.String({
      maxLength: 2048,
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+[^\\s]*$',
      errorMessage: 'must be an absolute http(s) URL',
      description:
        'Absolute http(s) URL that receives the events. Refused (422) when its host is, or resolves to, a loopback, private, ' +
        'link-local, CGNAT, multicast, reserved or cloud-metadata address, unless the server runs with ' +
        '`WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true`. Checked again before every delivery.',
      examples: ['https://example.com/herald/events'],
    }),
    events: Type.Array(EventKind, {
      minItems: 1,
      maxItems: 20,
      description: 'The kinds to receive, e.g. `["message.delivered", "message.failed"]`, or `["*"]` for all.',
    }),
    description: Type.Optional(Type.String({ maxLength: 500, description: 'A note for people, up to 500 characters.' })),
  },
  {
    title: 'RegisterWebhookRequest',
    additionalProperties: false,
    examples: [
      { url: 'https://example.com/herald/events', events: ['message.delivered', 'message.failed'], description: 'Order notifications' },
    ],
  },
);
export type RegisterWebhookBody = Type.Static<typeof RegisterWebhookBody>;

// No length bound of their own: an id that names nothing is 404 at any length, as every other id
// in a path (the router refuses a segment over 200 characters with 400).
export const WebhookIdParams = Type.Object({ webhook_id: Type.String({ description: '`wh_<id>`' }) });
export const DeliveryParams = Type.Object({
  webhook_id: Type.String({ description: '`wh_<id>`' }),
  delivery_id: Type.String({ description: '`whd_<id>`' }),
});

export const WebhookSchema = Type.Object(
  {
    webhook_id: Type.String({ description: '`wh_<id>`' }),
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Nullable(Type.String()),
    active: Type.Boolean({ description: 'False once disabled (410 Gone, or 3 days of failed deliveries); see `disabled_reason`.' }),
    disabled_reason: Nullable(Type.String({ description: 'Why the webhook was disabled; null while active.' })),
    created_at: Timestamp,
  },
  { title: 'Webhook' },
);

export const WebhookList = Type.Object({
  webhooks: Type.Array(WebhookSchema, { description: `Oldest first; at most ${MAX_WEBHOOKS_PER_ACCOUNT} per account.` }),
});

export const WebhookDeleted = Type.Object({ webhook_id: Type.String(), deleted: Type.Literal(true) });

export const SigningSecretSchema = Type.Object(
  {
    secret: Type.String({ description: '`whsec_` and the base64 of 32 random bytes; the HMAC key is the decoded part.' }),
    previous_secret_expires_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'After a rotation: until when the previous secret still signs beside this one.' }),
    ),
  },
  { title: 'WebhookSigningSecret' },
);

const DeliveryStatusSchema = Type.Union(
  DELIVERY_STATUSES.map((status) => Type.Literal(status)),
  {
    description:
      '`pending` (waiting for its first attempt or a retry), `succeeded` (a 2xx), `failed` (gave up, or the webhook was disabled), ' +
      '`canceled` (the webhook was deleted first).',
  },
);

export const DeliverySchema = Type.Object(
  {
    delivery_id: Type.String({ description: '`whd_<id>`' }),
    event_id: Type.String({ description: '`evt_<id>`; the same for every delivery and replay of one event (the `webhook-id` header).' }),
    event_type: Type.String(),
    status: DeliveryStatusSchema,
    attempts: Type.Integer({ description: 'Attempts made so far.' }),
    last_status_code: Nullable(
      Type.Integer({ description: "The receiver's HTTP status on the last attempt; null when it did not answer." }),
    ),
    last_error: Nullable(
      Type.String({ description: 'Why the last attempt failed (timeout, connection refused, HTTP 500, refused by the SSRF guard ...).' }),
    ),
    last_latency_ms: Nullable(Type.Integer()),
    last_attempt_at: Nullable(Timestamp),
    next_attempt_at: Nullable(Type.String({ format: 'date-time', description: 'When the next attempt is due; null once finished.' })),
    created_at: Timestamp,
  },
  { title: 'WebhookDelivery' },
);

export const DeliveriesQuery = Type.Object(
  {
    status: Type.Optional(DeliveryStatusSchema),
    // Optional with a default (Ajv fills it in), so the OpenAPI document does not call them required.
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Results per page, 1 to 100.' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'Results to skip.' })),
  },
  { additionalProperties: false },
);
export type DeliveriesQuery = Type.Static<typeof DeliveriesQuery>;

export const DeliveryList = Type.Object({
  deliveries: Type.Array(DeliverySchema),
  pagination: Type.Object({
    total: Type.Integer({ description: 'Deliveries matching the filter.' }),
    limit: Type.Integer(),
    offset: Type.Integer(),
    has_more: Type.Boolean({ description: 'Whether a page follows this one.' }),
  }),
});

export const ReplaySinceQuery = Type.Object(
  {
    since: Type.String({
      format: FORMATS.dateTime,
      maxLength: 64,
      errorMessage: 'must be an ISO 8601 date-time',
      description: 'Failed deliveries made at or after this time are re-sent. ISO 8601; without an offset it is UTC.',
    }),
  },
  { additionalProperties: false },
);

export const ReplaySinceResultSchema = Type.Object({
  queued: Type.Integer({ description: `Deliveries queued by this call, one per event, at most ${MAX_REPLAY_PER_CALL}.` }),
  has_more: Type.Boolean({ description: 'More failed deliveries remain; call again with the same `since` to queue them.' }),
});

export function presentWebhook(webhook: Webhook) {
  return {
    webhook_id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    active: webhook.active,
    disabled_reason: webhook.disabledReason,
    created_at: toIso(webhook.createdAt),
  };
}

export function presentDelivery(delivery: LoggedDelivery) {
  return {
    delivery_id: delivery.id,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    last_latency_ms: delivery.lastLatencyMs,
    last_attempt_at: toIsoOrNull(delivery.lastAttemptAt),
    next_attempt_at: toIsoOrNull(delivery.nextAttemptAt),
    created_at: toIso(delivery.createdAt),
  };
}
