import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock.js';
import { ApiError } from '../../core/errors.js';
import type { ReceivedMessage } from '../../core/inbound/inbound-message.js';
import type { Reception } from '../../core/inbound/receive-messages.js';
import type { Store } from '../../core/ports.js';
import type { ChannelRoutes, RouteContext } from '../../http/channel-routes.js';
import { toStorableText } from '../../http/validation.js';
import { type BotApiClient, createBotApiClient } from './bot-api.client.js';
import type { TelegramBotSettings } from './bot-api.provider.js';
import { isUpdate, MALFORMED_UPDATE, takeUpdate } from './telegram-updates.js';

export interface TelegramWebhookDeps {
  store: Store;
  clock: Clock;
  /** TELEGRAM_WEBHOOK_SECRET: the secret_token given to setWebhook, which Telegram sends back in a header. */
  secret: string;
  /** Asks getMe for the bot's username: updates do not name the bot they are for. */
  client: BotApiClient;
  receive(received: ReceivedMessage): Promise<Reception>;
}

/** The path Telegram posts updates to; setWebhook is given PUBLIC_URL + this. */
export const TELEGRAM_WEBHOOK_PATH = '/webhooks/telegram';

/** Compares in time that depends on neither text: digests of equal length, compared in constant time. */
const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());

/**
 * The endpoint Telegram posts each update to (Bot API setWebhook: "an HTTPS POST request to the
 * specified URL, containing a JSON-serialized Update"), accepted only with the header
 * X-Telegram-Bot-Api-Secret-Token equal to the secret given to setWebhook (401 otherwise: Telegram
 * signs nothing else). It answers 200 once the update is taken (a message stored, a blocked chat
 * suppressed), or skipped; a failure answers 500, and Telegram sends the update again ("In case of
 * an unsuccessful request, we will repeat the request"): the message is then found a duplicate.
 */
export async function telegramWebhookRoutes(app: FastifyInstance, deps: TelegramWebhookDeps): Promise<void> {
  // The secret first, before the body is read: whoever does not know it gets 401 whatever they send.
  app.addHook('onRequest', async (request, reply) => {
    const given = request.headers['x-telegram-bot-api-secret-token'];
    if (typeof given !== 'string' || !sameSecret(given, deps.secret)) return reply.code(401).send({ error: 'invalid secret token' });
  });
  // Telegram relays what users typed: characters no store can hold are replaced (a refusal would be sent again forever).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(
        null,
        JSON.parse(body as string, (_key, value: unknown) => (typeof value === 'string' ? toStorableText(value) : value)),
      );
    } catch {
      done(new ApiError('INVALID_REQUEST', 'The request body is not valid JSON.'), undefined);
    }
  });

  app.post(TELEGRAM_WEBHOOK_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!isUpdate(request.body)) return reply.code(400).send({ error: 'not an Update' });
    const bot = await deps.client.identity();
    const outcome = await takeUpdate(deps, request.body, bot.address);
    if (outcome === 'malformed') request.log.warn({ channel: 'telegram', update_id: request.body.update_id }, MALFORMED_UPDATE);
    if (outcome === 'unrouted') {
      request.log.warn(
        { channel: 'telegram', to: bot.address, update_id: request.body.update_id },
        'Telegram update for a bot no account has; dropped (give it to an account: herald addresses add telegram @bot)',
      );
    }
    return reply.code(200).send();
  });
}

/** `routes` plus the webhook, outside /v1 (it authenticates by its secret, not a token). */
export function withTelegramWebhook(routes: ChannelRoutes, bot: TelegramBotSettings, secret: string): ChannelRoutes {
  return Object.assign({}, routes, {
    async open(app: FastifyInstance, context: RouteContext) {
      const client = createBotApiClient(bot);
      await app.register(telegramWebhookRoutes, { store: context.store, clock: context.clock, receive: context.receive, secret, client });
    },
  });
}
