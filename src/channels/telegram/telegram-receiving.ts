import type { Provider } from '../../core/delivery/provider.js';
import type { ProviderDeps } from '../channel-module.js';
import { type BotApiClient, createBotApiClient } from './bot-api.client.js';
import type { TelegramBotSettings } from './bot-api.provider.js';
import { createUpdatePoller } from './telegram-polling.js';
import { UPDATE_KINDS } from './telegram-updates.js';
import { TELEGRAM_WEBHOOK_PATH } from './telegram-webhook.routes.js';

/**
 * How the bot's updates reach Herald (TELEGRAM_UPDATES, docs/telegram.md "Receiving messages"):
 * not at all (`off`, the default: a bot's updates are read by whoever else reads them), posted by
 * Telegram to /webhooks/telegram (`webhook`), or fetched by long polling (`polling`).
 */
export type TelegramUpdates =
  | { mode: 'off' }
  | { mode: 'webhook'; secret: string; url: string }
  | { mode: 'polling'; timeoutSeconds: number };

/**
 * The provider, plus what a process that starts providers does for updates: with `webhook`, tell
 * Telegram where to post them (setWebhook, at start); with `polling`, poll until closed. Processes
 * that only serve HTTP never start providers, so exactly the dispatching processes do this.
 */
export function receivingUpdates(
  provider: Provider,
  bot: TelegramBotSettings,
  updates: TelegramUpdates,
  deps: ProviderDeps,
  fetchImpl: typeof fetch = fetch,
): Provider {
  if (updates.mode === 'off') return provider;
  const client = createBotApiClient(bot, fetchImpl);
  if (updates.mode === 'webhook') {
    return Object.assign({}, provider, {
      start() {
        provider.start?.();
        void setWebhook(client, updates, deps);
      },
    });
  }
  const poller = createUpdatePoller(
    client,
    { store: deps.store, clock: deps.clock, receive: deps.onInbound, logger: deps.logger },
    { timeoutSeconds: updates.timeoutSeconds },
  );
  return Object.assign({}, provider, {
    start() {
      provider.start?.();
      poller.start();
    },
    async close() {
      await poller.stop();
      await provider.close?.();
    },
  });
}

/** Bot API setWebhook with the secret Telegram sends back and the update kinds Herald reads; a refusal is logged (without the token), not thrown. */
export async function setWebhook(
  client: BotApiClient,
  updates: { secret: string; url: string },
  deps: Pick<ProviderDeps, 'logger'>,
): Promise<boolean> {
  const url = `${updates.url}${TELEGRAM_WEBHOOK_PATH}`;
  try {
    await client.call('setWebhook', { url, secret_token: updates.secret, allowed_updates: UPDATE_KINDS });
    deps.logger.info({ channel: 'telegram', url }, 'Telegram webhook set: updates are posted to Herald');
    return true;
  } catch (error) {
    deps.logger.warn(
      { channel: 'telegram', url, error: client.redact(error instanceof Error ? error.message : String(error)) },
      'Telegram setWebhook failed: no updates will reach Herald until it succeeds (check PUBLIC_URL: Telegram posts only to https on ports 443, 80, 88 or 8443)',
    );
    return false;
  }
}
