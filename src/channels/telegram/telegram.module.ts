import type { StatusHooks } from '../../core/channels.js';
import { addSuppression } from '../../core/suppressions/manage-suppressions.js';
import type { ChannelModule, SettingsReader } from '../channel-module.js';
import { createSandboxProvider } from '../sandbox/sandbox.provider.js';
import { createTelegramBotProvider, type TelegramBotSettings } from './bot-api.provider.js';
import { sendTelegramMessage, TELEGRAM_CHAT_ID, TELEGRAM_MESSAGE_PRICE, TELEGRAM_PHOTO_PRICE } from './send-telegram.js';
import { telegramChannelRoutes } from './telegram.routes.js';
import { SendTelegramBody } from './telegram.schema.js';
import { receivingUpdates, type TelegramUpdates } from './telegram-receiving.js';
import { withTelegramWebhook } from './telegram-webhook.routes.js';

/** Which provider carries Telegram: the embedded sandbox, or the Bot API (docs/telegram.md), and how the bot's updates reach Herald. */
export type TelegramSettings = { kind: 'sandbox' } | { kind: 'bot-api'; bot: TelegramBotSettings; updates: TelegramUpdates };

/** TELEGRAM_PROVIDER and, with bot-api, the bot's token and TELEGRAM_UPDATES. */
export function telegramSettings(env: SettingsReader): TelegramSettings {
  const kind = (env.text('TELEGRAM_PROVIDER') ?? 'sandbox').toLowerCase();
  if (kind === 'sandbox') {
    const updates = (env.text('TELEGRAM_UPDATES') ?? 'off').toLowerCase();
    if (updates !== 'off') env.fail('TELEGRAM_UPDATES', 'needs TELEGRAM_PROVIDER=bot-api (the sandbox has no bot to hear from)');
    return { kind };
  }
  if (kind !== 'bot-api') env.fail('TELEGRAM_PROVIDER', `must be sandbox or bot-api (got "${env.text('TELEGRAM_PROVIDER')}")`);
  const token = env.text('TELEGRAM_BOT_TOKEN');
  // The shape of a BotFather token; the value itself is never repeated in an error.
  if (!token || !/^\d{5,15}:[A-Za-z0-9_-]{30,60}$/.test(token)) {
    env.fail(
      'TELEGRAM_BOT_TOKEN',
      'is required with TELEGRAM_PROVIDER=bot-api: the token from @BotFather, the bot id (digits), a colon and 30 to 60 letters, digits, - or _',
    );
  }
  return {
    kind,
    bot: { token, apiBaseUrl: env.url('TELEGRAM_API_BASE_URL', 'https://api.telegram.org') },
    updates: telegramUpdates(env),
  };
}

/** TELEGRAM_UPDATES: off (default), webhook (with TELEGRAM_WEBHOOK_SECRET and PUBLIC_URL) or polling (TELEGRAM_POLL_TIMEOUT_SECONDS). */
function telegramUpdates(env: SettingsReader): TelegramUpdates {
  const mode = (env.text('TELEGRAM_UPDATES') ?? 'off').toLowerCase();
  if (mode === 'off') return { mode };
  if (mode === 'polling') return { mode, timeoutSeconds: env.integer('TELEGRAM_POLL_TIMEOUT_SECONDS', 30, 1, 50) };
  if (mode !== 'webhook') env.fail('TELEGRAM_UPDATES', `must be off, webhook or polling (got "${env.text('TELEGRAM_UPDATES')}")`);
  const why = 'with TELEGRAM_UPDATES=webhook';
  const secret = env.required('TELEGRAM_WEBHOOK_SECRET', why);
  // Bot API setWebhook: secret_token is "1-256 characters. Only characters A-Z, a-z, 0-9, _ and - are allowed".
  if (!/^[A-Za-z0-9_-]{1,256}$/.test(secret)) {
    env.fail('TELEGRAM_WEBHOOK_SECRET', 'must be 1 to 256 characters of A-Z, a-z, 0-9, _ and - (Telegram accepts no others)');
  }
  const publicUrl = env.required('PUBLIC_URL', `${why} (Telegram posts updates to PUBLIC_URL/webhooks/telegram)`);
  return { mode, secret, url: env.url('PUBLIC_URL', publicUrl) };
}

/**
 * A message that failed because the user blocked the bot (or deleted their account) puts the chat
 * on the account's suppression list, in the same transaction: nothing would reach it again.
 */
const telegramStatusHooks: StatusHooks = {
  async moved(tx, message, at, reason) {
    if (message.status !== 'failed' || reason?.code !== 'TELEGRAM_BLOCKED') return;
    await addSuppression(tx, {
      accountId: message.accountId,
      channel: 'telegram',
      recipient: message.to,
      reason: 'blocked',
      source: 'telegram_blocked',
      at,
    });
  },
};

/** Telegram: text messages and photos through a bot. */
export const telegramModule: ChannelModule<TelegramSettings> = {
  name: 'telegram',
  // Usernames ignore case; chat ids are digits.
  recipients: {
    description: 'a chat id (123456789, -1001234567890) or a @username',
    valid: (text) => TELEGRAM_CHAT_ID.test(text),
    caseless: true,
  },
  // The bot's @username (5 to 32 letters, digits and underscores), kept lower-cased.
  // With its @: the provider names the bot that way (bot-api.client.ts), and addresses match as written.
  addresses: { description: "the bot's @username, such as @acme_bot", valid: (a) => /^@[a-z][a-z0-9_]{4,31}$/.test(a) },
  title: 'Telegram',
  description: 'Messages and photos through a bot',
  scopes: { send: 'Send Telegram messages', read: 'Read Telegram status' },
  prices: [TELEGRAM_MESSAGE_PRICE, TELEGRAM_PHOTO_PRICE],
  settings: telegramSettings,
  provider: (settings, deps) =>
    settings.kind === 'bot-api'
      ? receivingUpdates(createTelegramBotProvider(settings.bot), settings.bot, settings.updates, deps)
      : createSandboxProvider('telegram', deps.sandbox),
  // The webhook Telegram posts updates to exists only with TELEGRAM_UPDATES=webhook.
  routes: (settings) =>
    settings.kind === 'bot-api' && settings.updates.mode === 'webhook'
      ? withTelegramWebhook(telegramChannelRoutes, settings.bot, settings.updates.secret)
      : telegramChannelRoutes,
  canBeAsked: (settings) => settings.kind === 'sandbox',
  hooks: telegramStatusHooks,
  testMessage: {
    fields: [
      { name: 'chat_id', label: 'Chat id', kind: 'text', maxLength: 64, placeholder: '123456789' },
      { name: 'message', label: 'Text', kind: 'textarea', maxLength: 4096 },
    ],
    schema: SendTelegramBody,
    send: (deps, accountId, body) => sendTelegramMessage(deps, accountId, { chat_id: body.chat_id ?? '', message: body.message ?? '' }),
  },
};
