import type { FastifyInstance } from 'fastify';
import { toIso } from '../../core/clock.js';
import { microsToCredits } from '../../core/credits.js';
import type { SendDeps } from '../../core/messages/accept-messages.js';
import { findChannelMessage } from '../../core/messages/find-message.js';
import type { Message } from '../../core/messages/message.js';
import type { WhatsappTemplate } from '../../core/ports.js';
import { requirePrincipal } from '../../http/auth.js';
import { type ChannelRoutes, sendDepsOf } from '../../http/channel-routes.js';
import { commonErrors, Envelope, ErrorEnvelope } from '../../http/envelope.js';
import { MessageIdParams, presentAccepted, presentProgress, sendErrors } from '../../http/message-view.js';
import { sendRequest } from '../../http/request-origin.js';
import { previewWhatsapp } from './preview-whatsapp.js';
import { sendWhatsappSession, sendWhatsappTemplate, type WhatsappPayload } from './send-whatsapp.js';
import {
  PreviewWhatsappBody,
  SendSessionBody,
  SendTemplateBody,
  TemplateList,
  TemplateListQuery,
  WhatsappAccepted,
  WhatsappDetail,
  WhatsappPreview,
} from './whatsapp.schema.js';
import { whatsappWebhookRoutes } from './whatsapp-webhook.routes.js';

const accepted = (message: Message) => ({ success: true as const, data: presentAccepted(message) });

/** A template as the API lists it and the CLI's --json prints it (docs/whatsapp.md). */
export const presentTemplate = (template: WhatsappTemplate) => ({
  name: template.name,
  language: template.language,
  category: template.category,
  status: template.status,
  components: template.components.map((c) => {
    // Only the fields a component has (a button's kind and target, a media header's format).
    const view: Record<string, string> = { type: c.type, text: c.text };
    for (const key of ['format', 'sub_type', 'url', 'phone_number', 'example'] as const) if (c[key] !== undefined) view[key] = c[key];
    return view as { type: string; text: string };
  }),
  created_at: toIso(template.createdAt),
});

/** WhatsApp template and session messages, the account's templates, and a message read back (docs/whatsapp.md). */
export async function whatsappRoutes(app: FastifyInstance, deps: SendDeps): Promise<void> {
  app.post<{ Body: SendTemplateBody }>(
    '/v1/whatsapp/send',
    {
      config: { scope: 'whatsapp:send' },
      schema: {
        summary: 'Send a WhatsApp template message',
        operationId: 'sendWhatsappTemplate',
        description:
          'Sends an approved template, the only kind of message WhatsApp allows outside the 24 h session window. ' +
          'The template must exist for the account in `language` (422 TEMPLATE_NOT_FOUND, naming the languages it does exist in) and be ' +
          'APPROVED (422 TEMPLATE_NOT_APPROVED). Each header, body and button text needs as many parameters as it has distinct ' +
          '`{{n}}` placeholders (422 TEMPLATE_PARAMS_MISMATCH, saying expected and given). Costs 0.8 credits by default. ' +
          'Other errors: 422 VALIDATION_ERROR / INVALID_PHONE, 402 INSUFFICIENT_CREDITS.',
        tags: ['WhatsApp'],
        security: [{ oauth2: ['whatsapp:send'] }],
        body: SendTemplateBody,
        response: { 200: Envelope(WhatsappAccepted), ...sendErrors },
      },
    },
    async (request, reply) =>
      accepted(
        await sendWhatsappTemplate(deps, requirePrincipal(request).accountId, request.body, sendRequest(request, reply, 200, accepted)),
      ),
  );

  app.post<{ Body: SendSessionBody }>(
    '/v1/whatsapp/session',
    {
      config: { scope: 'whatsapp:send' },
      schema: {
        summary: 'Send a WhatsApp session message',
        operationId: 'sendWhatsappSession',
        description:
          "Sends free-form text, allowed only within 24 hours of the recipient's last message to the account " +
          '(422 SESSION_WINDOW_CLOSED otherwise, saying when the window closed; send a template instead). ' +
          'Costs 0.3 credits by default. Other errors: 422 VALIDATION_ERROR / INVALID_PHONE, 402 INSUFFICIENT_CREDITS.',
        tags: ['WhatsApp'],
        security: [{ oauth2: ['whatsapp:send'] }],
        body: SendSessionBody,
        response: { 200: Envelope(WhatsappAccepted), ...sendErrors },
      },
    },
    async (request, reply) =>
      accepted(
        await sendWhatsappSession(deps, requirePrincipal(request).accountId, request.body, sendRequest(request, reply, 200, accepted)),
      ),
  );

  app.get<{ Querystring: TemplateListQuery }>(
    '/v1/whatsapp/templates',
    {
      config: { scope: 'whatsapp:read' },
      schema: {
        summary: 'List WhatsApp templates',
        operationId: 'listWhatsappTemplates',
        description:
          "The account's templates, by name then language, optionally filtered. New accounts start with sandbox templates " +
          '(`welcome`, `verification_code`, `order_update`, `appointment_reminder`, and `spring_sale`, which is PENDING).',
        tags: ['WhatsApp'],
        security: [{ oauth2: ['whatsapp:read'] }],
        querystring: TemplateListQuery,
        response: { 200: Envelope(TemplateList), 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const { name, language, status } = request.query;
      const templates = (await deps.store.templates.list(requirePrincipal(request).accountId)).filter(
        (t) =>
          (name === undefined || t.name === name) &&
          (language === undefined || t.language === language) &&
          (status === undefined || t.status === status),
      );
      return { success: true as const, data: { templates: templates.map(presentTemplate) } };
    },
  );

  app.post<{ Body: PreviewWhatsappBody }>(
    '/v1/whatsapp/preview',
    {
      config: { scope: 'whatsapp:send', changesNothing: true },
      schema: {
        summary: 'Preview a WhatsApp message',
        operationId: 'previewWhatsapp',
        description:
          'What sending this template (the body of POST /v1/whatsapp/send) or session message (of POST /v1/whatsapp/session) would do, ' +
          'without sending or charging: its price, the text it would carry, the 24 h session window with `to`, whether `to` is ' +
          'suppressed, whether the available credits cover it, and the refusal the send would answer (a template check, the ' +
          "window, the suppression list, credits), from the send's own checks. 422 for a request the send would refuse as malformed " +
          '(INVALID_PHONE, VALIDATION_ERROR).',
        tags: ['WhatsApp'],
        security: [{ oauth2: ['whatsapp:send'] }],
        body: PreviewWhatsappBody,
        response: { 200: Envelope(WhatsappPreview), 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const preview = await previewWhatsapp(deps, requirePrincipal(request).accountId, request.body);
      const { window } = preview;
      return {
        success: true as const,
        data: {
          type: preview.type,
          message: preview.text,
          credits: microsToCredits(preview.costMicros),
          session_window: {
            open: window.open,
            closes_at: window.open ? toIso(window.closesAt) : null,
            closed_at: !window.open && window.closedAt !== undefined ? toIso(window.closedAt) : null,
          },
          suppressed: preview.suppressed,
          available: microsToCredits(preview.availableMicros),
          affordable: preview.affordable,
          sendable: preview.refusal === null,
          refusal: preview.refusal,
        },
      };
    },
  );

  app.get<{ Params: { message_id: string } }>(
    '/v1/whatsapp/:message_id',
    {
      config: { scope: 'whatsapp:read' },
      schema: {
        summary: 'Get a WhatsApp message',
        operationId: 'getWhatsappMessage',
        description: "What was sent (a template's body with its parameters filled in) and its status. Ids of other channels are 404.",
        tags: ['WhatsApp'],
        security: [{ oauth2: ['whatsapp:read'] }],
        params: MessageIdParams,
        response: { 200: Envelope(WhatsappDetail), 404: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const message = await findChannelMessage(deps.store, 'whatsapp', request.params.message_id, requirePrincipal(request).accountId);
      const stored = await deps.store.messages.payload(message.id);
      const payload = (stored ? JSON.parse(stored) : { type: 'text' }) as WhatsappPayload;
      return {
        success: true as const,
        data: {
          message_id: message.id,
          channel: 'whatsapp' as const,
          to: message.to,
          type: payload.type === 'template' ? ('template' as const) : ('session' as const),
          message: message.body ?? '',
          template: payload.type === 'template' ? payload.template : null,
          ...presentProgress(message),
        },
      };
    },
  );
}

/**
 * WhatsApp in the API: its routes under /v1 and, when it goes through the Cloud API, Meta's webhook
 * (verified by the app secret and the verify token, not by a bearer token).
 */
export function whatsappChannelRoutes(webhook?: { appSecret: string; verifyToken: string }): ChannelRoutes {
  return {
    async v1(v1, context) {
      await v1.register(whatsappRoutes, sendDepsOf(context));
    },
    async open(app, context) {
      if (webhook)
        await app.register(
          whatsappWebhookRoutes,
          Object.assign({ store: context.store, clock: context.clock, receive: context.receive }, webhook),
        );
    },
  };
}
