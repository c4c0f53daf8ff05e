import type { FastifyInstance } from 'fastify';
import type { SendDeps } from '../../core/messages/accept-messages.js';
import { findChannelMessage } from '../../core/messages/find-message.js';
import type { Message } from '../../core/messages/message.js';
import { requirePrincipal } from '../../http/auth.js';
import { type ChannelRoutes, sendDepsOf } from '../../http/channel-routes.js';
import { commonErrors, Envelope, ErrorEnvelope } from '../../http/envelope.js';
import { MessageIdParams, presentAccepted, presentProgress, presentVerdict, sendErrors } from '../../http/message-view.js';
import { sendRequest } from '../../http/request-origin.js';
import { previewTelegramMessage, previewTelegramPhoto, type TelegramPreview } from './preview-telegram.js';
import { sendTelegramMessage, sendTelegramPhoto, type TelegramPayload } from './send-telegram.js';
import {
  SendTelegramBody,
  SendTelegramPhotoBody,
  TelegramAccepted,
  TelegramDetail,
  TelegramPreview as TelegramPreviewSchema,
} from './telegram.schema.js';

const accepted = (message: Message) => ({ success: true as const, data: presentAccepted(message) });

const KEYBOARD_RULES =
  'An inline keyboard (`reply_markup.inline_keyboard`) has 1 to 100 rows of 1 to 8 buttons, at most 100 buttons in all; ' +
  'each button has `text` (1 to 64 characters) and exactly one of `callback_data` (1 to 64 bytes of UTF-8) or `url` (http, https or tg).';

/** Telegram text messages and photos through a bot, and a message read back (docs/telegram.md). */
export async function telegramRoutes(app: FastifyInstance, deps: SendDeps): Promise<void> {
  app.post<{ Body: SendTelegramBody }>(
    '/v1/telegram/send',
    {
      config: { scope: 'telegram:send' },
      schema: {
        summary: 'Send a Telegram message',
        operationId: 'sendTelegramMessage',
        description:
          `Sends text to a chat (\`to\` in the response is the chat_id). Costs 0.05 credits by default. ${KEYBOARD_RULES} ` +
          'Errors: 422 VALIDATION_ERROR (one detail per invalid field), 402 INSUFFICIENT_CREDITS.',
        tags: ['Telegram'],
        security: [{ oauth2: ['telegram:send'] }],
        body: SendTelegramBody,
        response: { 200: Envelope(TelegramAccepted), ...sendErrors },
      },
    },
    async (request, reply) =>
      accepted(
        await sendTelegramMessage(deps, requirePrincipal(request).accountId, request.body, sendRequest(request, reply, 200, accepted)),
      ),
  );

  app.post<{ Body: SendTelegramPhotoBody }>(
    '/v1/telegram/photo',
    {
      config: { scope: 'telegram:send' },
      schema: {
        summary: 'Send a Telegram photo',
        operationId: 'sendTelegramPhoto',
        description:
          'Sends a photo by URL, with an optional caption of up to 1024 characters. Costs 0.1 credits by default. ' +
          `${KEYBOARD_RULES} Errors: 422 VALIDATION_ERROR, 402 INSUFFICIENT_CREDITS.`,
        tags: ['Telegram'],
        security: [{ oauth2: ['telegram:send'] }],
        body: SendTelegramPhotoBody,
        response: { 200: Envelope(TelegramAccepted), ...sendErrors },
      },
    },
    async (request, reply) =>
      accepted(
        await sendTelegramPhoto(deps, requirePrincipal(request).accountId, request.body, sendRequest(request, reply, 200, accepted)),
      ),
  );

  const present = (preview: TelegramPreview) => ({
    success: true as const,
    data: {
      length: preview.length,
      limit: preview.limit,
      markup_parses: preview.markupParses,
      suppressed: preview.suppressed,
      ...presentVerdict(preview),
    },
  });
  const PREVIEWED =
    'without sending or charging: its price, the length of its text as Telegram counts it (after the `parse_mode` markup is ' +
    'parsed) against its limit, whether the chat is suppressed, whether the available credits cover it, and the refusal the ' +
    "send would answer (the text's length, the suppression list, credits), from the send's own checks. 422 VALIDATION_ERROR " +
    'for any other problem the send would refuse (a chat id, a keyboard), with all its problems.';

  app.post<{ Body: SendTelegramBody }>(
    '/v1/telegram/preview',
    {
      config: { scope: 'telegram:send', changesNothing: true },
      schema: {
        summary: 'Preview a Telegram message',
        operationId: 'previewTelegramMessage',
        description: `What sending this text (the body of POST /v1/telegram/send) would do, ${PREVIEWED}`,
        tags: ['Telegram'],
        security: [{ oauth2: ['telegram:send'] }],
        body: SendTelegramBody,
        response: { 200: Envelope(TelegramPreviewSchema), 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => present(await previewTelegramMessage(deps, requirePrincipal(request).accountId, request.body)),
  );

  app.post<{ Body: SendTelegramPhotoBody }>(
    '/v1/telegram/photo/preview',
    {
      config: { scope: 'telegram:send', changesNothing: true },
      schema: {
        summary: 'Preview a Telegram photo',
        operationId: 'previewTelegramPhoto',
        description: `What sending this photo (the body of POST /v1/telegram/photo; a caption is its text) would do, ${PREVIEWED}`,
        tags: ['Telegram'],
        security: [{ oauth2: ['telegram:send'] }],
        body: SendTelegramPhotoBody,
        response: { 200: Envelope(TelegramPreviewSchema), 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => present(await previewTelegramPhoto(deps, requirePrincipal(request).accountId, request.body)),
  );

  app.get<{ Params: { message_id: string } }>(
    '/v1/telegram/:message_id',
    {
      config: { scope: 'telegram:read' },
      schema: {
        summary: 'Get a Telegram message',
        operationId: 'getTelegramMessage',
        description: 'What was sent and its status. Ids of other channels are 404.',
        tags: ['Telegram'],
        security: [{ oauth2: ['telegram:read'] }],
        params: MessageIdParams,
        response: { 200: Envelope(TelegramDetail), 404: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const message = await findChannelMessage(deps.store, 'telegram', request.params.message_id, requirePrincipal(request).accountId);
      const stored = await deps.store.messages.payload(message.id);
      const payload = (stored ? JSON.parse(stored) : { method: 'sendMessage' }) as TelegramPayload;
      return {
        success: true as const,
        data: {
          message_id: message.id,
          channel: 'telegram' as const,
          to: message.to,
          type: payload.method === 'sendPhoto' ? ('photo' as const) : ('message' as const),
          message: message.body,
          photo_url: payload.photo_url ?? null,
          parse_mode: payload.parse_mode ?? null,
          disable_notification: payload.disable_notification ?? false,
          reply_markup: payload.reply_markup ?? null,
          ...presentProgress(message),
        },
      };
    },
  );
}

/** Telegram in the API: its routes under /v1. */
export const telegramChannelRoutes: ChannelRoutes = {
  async v1(v1, context) {
    await v1.register(telegramRoutes, sendDepsOf(context));
  },
};
