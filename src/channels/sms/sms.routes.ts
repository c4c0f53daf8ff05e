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
import { previewSms } from './preview-sms.js';
import { type SendDeps, sendSms } from './send-sms.js';
import { type BulkResult, sendSmsBulk } from './send-sms-bulk.js';
import {
  type PreviewSmsBody,
  PreviewSmsBody as PreviewSmsBodySchema,
  type SendSmsBody,
  SendSmsBody as SendSmsBodySchema,
  type SendSmsBulkBody,
  SendSmsBulkBody as SendSmsBulkBodySchema,
  SmsAccepted,
  SmsBulkAccepted,
  SmsDetail,
  SmsPreview,
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

  app.post<{ Body: PreviewSmsBody }>(
    '/v1/sms/preview',
    {
      config: { scope: 'sms:send', changesNothing: true },
      schema: {
        summary: 'Preview an SMS',
        operationId: 'previewSms',
        description:
          'What sending this text would do, without sending or charging: its encoding and segments, the characters that made ' +
          'it UCS-2 and where they are, its cost, and whether the available credits cover it now. Recipients are checked ' +
          'as the send checks them: 422 INVALID_PHONE for a bad `to`; with `recipients`, as a bulk send sorts them.',
        tags: ['SMS'],
        security: [{ oauth2: ['sms:send'] }],
        body: PreviewSmsBodySchema,
        response: { 200: Envelope(SmsPreview), 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const preview = await previewSms(deps, requirePrincipal(request).accountId, request.body);
      return {
        success: true as const,
        data: {
          encoding: preview.encoding,
          segments: preview.segments,
          characters: preview.characters,
          units: preview.units,
          units_per_segment: preview.unitsPerSegment,
          non_gsm_characters: preview.outsideGsm7,
          credits_per_message: microsToCredits(preview.costMicros),
          recipients: preview.recipients,
          rejected: preview.rejected,
          credits: microsToCredits(preview.totalMicros),
          available: microsToCredits(preview.availableMicros),
          affordable: preview.affordable,
        },
      };
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
          route: message.route,
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
