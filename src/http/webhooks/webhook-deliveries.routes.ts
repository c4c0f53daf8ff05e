import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock.js';
import { parseIsoDateTime } from '../../core/datetime.js';
import { validationError } from '../../core/errors.js';
import type { LoggedDelivery, Store } from '../../core/ports.js';
import {
  listWebhookDeliveries,
  MAX_REPLAY_PER_CALL,
  type ReplaySinceResult,
  replayDelivery,
  replayFailedSince,
  sendTestEvent,
} from '../../webhooks/replay-deliveries.js';
import { requirePrincipal } from '../auth.js';
import { commonErrors, Envelope, ErrorEnvelope } from '../envelope.js';
import { keptAnswer } from '../idempotency.js';
import {
  DeliveriesQuery,
  DeliveryList,
  DeliveryParams,
  DeliverySchema,
  presentDelivery,
  ReplaySinceQuery,
  ReplaySinceResultSchema,
  WebhookIdParams,
} from './webhooks.schema.js';

const SCOPE = { scope: 'webhooks:manage' } as const;
const SECURITY = [{ oauth2: ['webhooks:manage'] }];
const TAGS = ['Webhooks'];

/**
 * The delivery log of a webhook and the ways to send again: one delivery, every failure since a
 * time, or a test event. Re-sending answers 202: the deliveries are queued, not yet made; their
 * outcome shows in the log.
 */
export async function webhookDeliveriesRoutes(app: FastifyInstance, deps: { store: Store; clock: Clock }): Promise<void> {
  app.get<{ Params: { webhook_id: string }; Querystring: DeliveriesQuery }>(
    '/v1/webhooks/:webhook_id/deliveries',
    {
      config: SCOPE,
      schema: {
        summary: 'List deliveries',
        operationId: 'listWebhookDeliveries',
        description:
          "The webhook's deliveries, newest first: the event, attempts made, the last status code, error and latency, and the " +
          'next retry. Filter by `status`. Deliveries to a `callback_url` are not listed here.',
        tags: TAGS,
        security: SECURITY,
        params: WebhookIdParams,
        querystring: DeliveriesQuery,
        response: { 200: Envelope(DeliveryList), 404: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const { status, limit = 20, offset = 0 } = request.query;
      const page = await listWebhookDeliveries(deps.store, requirePrincipal(request).accountId, request.params.webhook_id, {
        status,
        limit,
        offset,
      });
      return {
        success: true as const,
        data: {
          deliveries: page.deliveries.map(presentDelivery),
          pagination: { total: page.total, limit, offset, has_more: offset + page.deliveries.length < page.total },
        },
      };
    },
  );

  app.post<{ Params: { webhook_id: string; delivery_id: string } }>(
    '/v1/webhooks/:webhook_id/deliveries/:delivery_id/replay',
    {
      config: SCOPE,
      schema: {
        summary: 'Replay a delivery',
        operationId: 'replayWebhookDelivery',
        description:
          "Sends the delivery's event to the webhook again now, as a new delivery (202, the new delivery) with its own attempts " +
          'and retries; the old one stays in the log unchanged. The event keeps its id, so receivers can deduplicate. A delivery ' +
          'of another webhook: 404. A disabled webhook: 409 WEBHOOK_DISABLED.',
        tags: TAGS,
        security: SECURITY,
        params: DeliveryParams,
        response: { 202: Envelope(DeliverySchema), 404: ErrorEnvelope, 409: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request, reply) => {
      const { webhook_id, delivery_id } = request.params;
      const present = (delivery: LoggedDelivery) => ({ success: true as const, data: presentDelivery(delivery) });
      const answer = keptAnswer(request, reply, 202, present);
      const delivery = await replayDelivery(deps, requirePrincipal(request).accountId, webhook_id, delivery_id, answer);
      return reply.code(202).send(present(delivery));
    },
  );

  app.post<{ Params: { webhook_id: string }; Querystring: { since: string } }>(
    '/v1/webhooks/:webhook_id/replay',
    {
      config: SCOPE,
      schema: {
        summary: 'Replay failed deliveries since a time',
        operationId: 'replayWebhookDeliveries',
        description:
          'Re-sends, as new deliveries, every event whose delivery to this webhook failed and was made at or after `since`, ' +
          `oldest first, at most ${MAX_REPLAY_PER_CALL} per call (\`has_more\` says to call again). Events already re-sent ` +
          '(a pending or succeeded delivery exists) are left out, so calling twice sends nothing twice. A disabled webhook: ' +
          '409 WEBHOOK_DISABLED; enable it first.',
        tags: TAGS,
        security: SECURITY,
        params: WebhookIdParams,
        querystring: ReplaySinceQuery,
        response: { 202: Envelope(ReplaySinceResultSchema), 404: ErrorEnvelope, 409: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request, reply) => {
      const since = parseIsoDateTime(request.query.since);
      if (since === undefined) throw validationError([{ field: 'since', message: 'must be an ISO 8601 date-time' }]);
      const present = (result: ReplaySinceResult) => ({
        success: true as const,
        data: { queued: result.queued, has_more: result.hasMore },
      });
      const answer = keptAnswer(request, reply, 202, present);
      const result = await replayFailedSince(deps, requirePrincipal(request).accountId, request.params.webhook_id, since, answer);
      return reply.code(202).send(present(result));
    },
  );

  app.post<{ Params: { webhook_id: string } }>(
    '/v1/webhooks/:webhook_id/test',
    {
      config: SCOPE,
      schema: {
        summary: 'Send a test event',
        operationId: 'sendWebhookTestEvent',
        description:
          'Queues a signed `webhook.test` event (`data: {webhook_id}`) to this webhook only, whatever kinds it subscribes to, ' +
          'through the same queue, signing, retries and log as every event. Answers 202 with the delivery; follow it in ' +
          '`GET /v1/webhooks/{webhook_id}/deliveries`. A disabled webhook: 409 WEBHOOK_DISABLED.',
        tags: TAGS,
        security: SECURITY,
        params: WebhookIdParams,
        response: { 202: Envelope(DeliverySchema), 404: ErrorEnvelope, 409: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request, reply) => {
      const present = (delivery: LoggedDelivery) => ({ success: true as const, data: presentDelivery(delivery) });
      const answer = keptAnswer(request, reply, 202, present);
      const delivery = await sendTestEvent(deps, requirePrincipal(request).accountId, request.params.webhook_id, answer);
      return reply.code(202).send(present(delivery));
    },
  );
}
