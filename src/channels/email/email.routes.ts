import type { FastifyInstance } from 'fastify';
import { toIso } from '../../core/clock.js';
import type { SendDeps } from '../../core/messages/accept-messages.js';
import { findChannelMessage } from '../../core/messages/find-message.js';
import type { Message } from '../../core/messages/message.js';
import { requirePrincipal } from '../../http/auth.js';
import { type ChannelRoutes, sendDepsOf } from '../../http/channel-routes.js';
import { commonErrors, Envelope, ErrorEnvelope } from '../../http/envelope.js';
import { toApiError } from '../../http/error-handler.js';
import { MessageIdParams, presentAccepted, presentProgress, presentVerdict } from '../../http/message-view.js';
import { sendRequest } from '../../http/request-origin.js';
import { EmailAccepted, EmailDetail, EmailEvents, EmailPreview, SendEmailBody } from './email.schema.js';
import { previewEmail } from './preview-email.js';
import { base64DecodedBytes, type EmailPayload, sendEmail } from './send-email.js';
import { createEmailTracking } from './tracking.js';
import { trackingRoutes } from './tracking.routes.js';

/** The email size limit when the configuration gives none: 10 MiB. */
export const DEFAULT_EMAIL_MAX_BYTES = 10 * 1024 * 1024;

export interface EmailRoutesOptions extends SendDeps {
  /** Base of the tracking URLs put into emails. */
  publicUrl: string;
  /** EMAIL_MAX_BYTES. */
  maxBytes: number;
  /** BODY_LIMIT_BYTES, the limit of every other route. */
  bodyLimitBytes: number;
}

/**
 * The request body a send may have. Attachments arrive base64-encoded (a third larger) inside
 * JSON (escaping adds a little more), so the global body limit, made for small requests, must not
 * be what stops an email within EMAIL_MAX_BYTES: twice the email limit covers both.
 */
export const emailBodyLimit = (maxBytes: number, bodyLimitBytes: number): number => Math.max(bodyLimitBytes, 2 * maxBytes);

/** Send an email, read it and its events (docs/email.md). */
export async function emailRoutes(app: FastifyInstance, options: EmailRoutesOptions): Promise<void> {
  const tracking = createEmailTracking(options);
  const deps = Object.assign({}, options, { tracking });

  app.post(
    '/v1/email/send',
    {
      config: { scope: 'email:send' },
      bodyLimit: emailBodyLimit(options.maxBytes, options.bodyLimitBytes),
      // Schema problems are merged with the email's own rules (from, html/text, base64) into one answer.
      attachValidation: true,
      schema: {
        summary: 'Send an email',
        operationId: 'sendEmail',
        description:
          'Reserves the cost (0.1 credit by default) and queues the email. `to`, `from`, `subject` and at least one ' +
          'of `html`/`text` are required. Opens and clicks can be tracked; see the events endpoint. ' +
          'Errors: 422 VALIDATION_ERROR, 413 PAYLOAD_TOO_LARGE (subject, bodies and decoded attachments over ' +
          'EMAIL_MAX_BYTES, 10 MiB by default), 402 INSUFFICIENT_CREDITS.',
        tags: ['Email'],
        security: [{ oauth2: ['email:send'] }],
        body: SendEmailBody,
        response: { 200: Envelope(EmailAccepted), 402: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const schemaError = request.validationError ? toApiError(request.validationError) : undefined;
      if (schemaError && schemaError.code !== 'VALIDATION_ERROR') throw schemaError;
      const present = (message: Message) => ({ success: true as const, data: presentAccepted(message) });
      const send = sendRequest(request, reply, 200, present);
      return present(await sendEmail(deps, principal.accountId, request.body, schemaError?.details ?? [], send));
    },
  );

  app.post(
    '/v1/email/preview',
    {
      config: { scope: 'email:send', changesNothing: true },
      bodyLimit: emailBodyLimit(options.maxBytes, options.bodyLimitBytes),
      attachValidation: true,
      schema: {
        summary: 'Preview an email',
        operationId: 'previewEmail',
        description:
          'What sending this email (the body of POST /v1/email/send) would do, without sending or charging: its price, its ' +
          'size against EMAIL_MAX_BYTES, which of `to` and cc are suppressed, whether `from` may be used, whether the available ' +
          "credits cover it, and the refusal the send would answer (size, `from`, suppression list, credits), from the send's own " +
          'checks. 422 VALIDATION_ERROR for a body the send would refuse as malformed.',
        tags: ['Email'],
        security: [{ oauth2: ['email:send'] }],
        body: SendEmailBody,
        response: { 200: Envelope(EmailPreview), 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const schemaError = request.validationError ? toApiError(request.validationError) : undefined;
      if (schemaError && schemaError.code !== 'VALIDATION_ERROR') throw schemaError;
      const preview = await previewEmail(deps, requirePrincipal(request).accountId, request.body, schemaError?.details ?? []);
      return {
        success: true as const,
        data: {
          size_bytes: preview.sizeBytes,
          max_bytes: preview.maxBytes,
          suppressed: preview.suppressed,
          from_allowed: preview.fromAllowed,
          ...presentVerdict(preview),
        },
      };
    },
  );

  app.get<{ Params: { message_id: string } }>(
    '/v1/email/:message_id',
    {
      config: { scope: 'email:read' },
      schema: {
        summary: 'Get an email',
        operationId: 'getEmail',
        description:
          'What was sent (addresses, subject, which bodies, attachments by name and size; not the bodies, which may be ' +
          'megabytes) and its status. Ids of other channels are 404. What happened to it, opens and clicks included: ' +
          '`GET /v1/email/{message_id}/events`.',
        tags: ['Email'],
        security: [{ oauth2: ['email:read'] }],
        params: MessageIdParams,
        response: { 200: Envelope(EmailDetail), 404: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const message = await findChannelMessage(options.store, 'email', request.params.message_id, requirePrincipal(request).accountId);
      const stored = await options.store.messages.payload(message.id);
      const payload = (stored ? JSON.parse(stored) : {}) as Partial<EmailPayload>;
      return {
        success: true as const,
        data: {
          message_id: message.id,
          channel: 'email' as const,
          to: message.to,
          from: payload.from ?? message.sender ?? '',
          from_name: payload.from_name ?? null,
          subject: payload.subject ?? '',
          reply_to: payload.reply_to ?? null,
          cc: payload.cc ?? [],
          has_html: payload.html !== undefined,
          has_text: payload.text !== undefined,
          attachments: (payload.attachments ?? []).map((attachment) => ({
            filename: attachment.filename,
            content_type: attachment.content_type,
            size_bytes: base64DecodedBytes(attachment.content),
          })),
          track_opens: payload.track_opens ?? false,
          track_clicks: payload.track_clicks ?? false,
          ...presentProgress(message),
        },
      };
    },
  );

  app.get<{ Params: { message_id: string } }>(
    '/v1/email/:message_id/events',
    {
      config: { scope: 'email:read' },
      schema: {
        summary: 'Get the events of an email',
        operationId: 'listEmailEvents',
        description:
          'Everything that happened to an email, oldest first: queued, sent, delivered, bounced, failed (with the ' +
          'status), and opened, clicked (with `user_agent`, `ip`, and `url` for clicks) and complained.',
        tags: ['Email'],
        security: [{ oauth2: ['email:read'] }],
        params: MessageIdParams,
        response: { 200: Envelope(EmailEvents), 404: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const message = await findChannelMessage(options.store, 'email', request.params.message_id, requirePrincipal(request).accountId);
      const events = await options.store.emailEvents.list(message.id);
      return {
        success: true as const,
        data: {
          message_id: message.id,
          events: events.map((event) => ({
            type: event.type,
            timestamp: toIso(event.occurredAt),
            ...(event.data ? { data: event.data } : {}),
          })),
        },
      };
    },
  );
}

/**
 * Email in the API: its routes under /v1 (emails up to `maxBytes`, EMAIL_MAX_BYTES, 10 MiB unless
 * set) and the open and click tracking routes that recipients' mail clients call.
 */
export function emailChannelRoutes(settings: { maxBytes?: number | undefined } = {}): ChannelRoutes {
  return {
    async v1(v1, context) {
      await v1.register(
        emailRoutes,
        Object.assign(sendDepsOf(context), {
          publicUrl: context.publicUrl,
          maxBytes: settings.maxBytes ?? DEFAULT_EMAIL_MAX_BYTES,
          bodyLimitBytes: context.bodyLimitBytes,
        }),
      );
    },
    async open(app, context) {
      await app.register(trackingRoutes, { store: context.store, clock: context.clock, publicUrl: context.publicUrl });
    },
  };
}
