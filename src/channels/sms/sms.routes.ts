import type { FastifyInstance } from 'fastify';
import { toIso, toIsoOrNull } from '../../core/clock.js';
import { microsToCredits } from '../../core/credits.js';
import { findChannelMessage } from '../../core/messages/find-message.js';
import type { Message } from '../../core/messages/message.js';
import { requirePrincipal } from '../../http/auth.js';
import { type ChannelRoutes, sendDepsOf } from '../../http/channel-routes.js';
import { commonErrors, Envelope, ErrorEnvelope } from '../../http/envelope.js';
import { MessageIdParams, presentAccepted, presentProgress } from '../../http/message-view.js';
import { sendRequest } from '../../http/request-origin.js';
import { type SendDeps, sendSms } from './send-sms.js';
import { type BulkResult, sendSmsBulk } from './send-sms-bulk.js';
import {
  type SendSmsBody,
  SendSmsBody as SendSmsBodySchema,
  type SendSmsBulkBody,
  SendSmsBulkBody as SendSmsBulkBodySchema,
  SmsAccepted,
  SmsBulkAccepted,
  SmsDetail,
} from './sms.schema.js';

/** Send an SMS and read it back (docs/channels.md). */
export async function smsRoutes(app: FastifyInstance, deps: SendDeps): Promise<void> {
  app.post<{ Body: SendSmsBody }>(
    '/v1/sms/send',
    {
      config: { scope: 'sms:send' },
      schema: {
        summary: 'Send an SMS',
        operationId: 'sendSms',
        description:
          'Reserves the cost (1 credit per segment by default) and queues the message. ' +
          'Errors: 422 VALIDATION_ERROR / INVALID_PHONE, 402 INSUFFICIENT_CREDITS.',
        tags: ['SMS'],
        security: [{ oauth2: ['sms:send'] }],
        body: SendSmsBodySchema,
        response: { 200: Envelope(SmsAccepted), 402: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request, reply) => {
      const present = (message: Message) => ({
        success: true as const,
        data: Object.assign(presentAccepted(message), {
          segments: message.segments ?? 0,
          ...(message.scheduledAt !== null ? { scheduled_at: toIso(message.scheduledAt) } : {}),
        }),
      });
      const principal = requirePrincipal(request);
      return present(await sendSms(deps, principal.accountId, request.body, sendRequest(request, reply, 200, present)));
    },
  );

  app.post<{ Body: SendSmsBulkBody }>(
    '/v1/sms/bulk',
    {
      config: { scope: 'sms:send' },
      schema: {
        summary: 'Send one SMS to many recipients',
        operationId: 'sendSmsBulk',
        description:
          'Up to 1000 recipients in one request and one transaction. Repeated numbers collapse to one; invalid numbers are ' +
          'listed in `rejected` while the valid ones are queued under one `batch_id`. The cost of every accepted recipient ' +
          'is reserved together: without enough credits nothing is created (402). All recipients invalid: 422 INVALID_PHONE.',
        tags: ['SMS'],
        security: [{ oauth2: ['sms:send'] }],
        body: SendSmsBulkBodySchema,
        response: { 200: Envelope(SmsBulkAccepted), 402: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request, reply) => {
      const present = (result: BulkResult) => {
        const first = result.messages[0];
        return {
          success: true as const,
          data: {
            batch_id: result.batchId,
            messages: result.messages.map((m) => ({ message_id: m.id, to: m.to, status: 'queued' as const })),
            rejected: result.rejected,
            segments: first?.segments ?? 0,
            credits_used: microsToCredits(result.messages.reduce((sum, m) => sum + m.costMicros, 0)),
            ...(first && first.scheduledAt !== null ? { scheduled_at: toIso(first.scheduledAt) } : {}),
          },
        };
      };
      const principal = requirePrincipal(request);
      return present(await sendSmsBulk(deps, principal.accountId, request.body, sendRequest(request, reply, 200, present)));
    },
  );

  app.get<{ Params: { message_id: string } }>(
    '/v1/sms/:message_id',
    {
      config: { scope: 'sms:read' },
      schema: {
        summary: 'Get an SMS',
        description:
          "An SMS of the account by its id: its text, status, segments, credits used, times and error. Another account's id answers 404 NOT_FOUND.",
        operationId: 'getSms',
        tags: ['SMS'],
        security: [{ oauth2: ['sms:read'] }],
        params: MessageIdParams,
        response: { 200: Envelope(SmsDetail), 404: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const message = await findChannelMessage(deps.store, 'sms', request.params.message_id, requirePrincipal(request).accountId);
      return {
        success: true as const,
        data: {
          message_id: message.id,
          channel: 'sms' as const,
          to: message.to,
          message: message.body ?? '',
          sender: message.sender,
          segments: message.segments ?? 0,
          scheduled_at: toIsoOrNull(message.scheduledAt),
          ...presentProgress(message),
        },
      };
    },
  );
}

/** SMS in the API: its routes under /v1 (a callback_url is checked by the SSRF guard). */
export const smsChannelRoutes: ChannelRoutes = {
  async v1(v1, context) {
    await v1.register(smsRoutes, sendDepsOf(context));
  },
};
