import type { StatusHooks } from '../../core/channels.js';
import { addSuppression } from '../../core/suppressions/manage-suppressions.js';
import type { ChannelModule, SettingsReader } from '../channel-module.js';
import { createSandboxProvider } from '../sandbox/sandbox.provider.js';
import { createTelegramBotProvider, type TelegramBotSettings } from './bot-api.provider.js';
import { sendTelegramMessage, TELEGRAM_CHAT_ID, TELEGRAM_MESSAGE_PRICE, TELEGRAM_PHOTO_PRICE } from './send-telegram.js';
import { telegramChannelRoutes } from './telegram.routes.js';
import { SendTelegramBody } from './telegram.schema.js';

/** Which provider carries Telegram: the embedded sandbox, or the Bot API (docs/telegram.md). */
export type TelegramSettings = { kind: 'sandbox' } | { kind: 'bot-api'; bot: TelegramBotSettings };

/** TELEGRAM_PROVIDER and, with bot-api, the bot's token. */
export function telegramSettings(env: SettingsReader): TelegramSettings {
  const kind = (env.text('TELEGRAM_PROVIDER') ?? 'sandbox').toLowerCase();
  if (kind === 'sandbox') return { kind };
  if (kind !== 'bot-api') env.fail('TELEGRAM_PROVIDER', `must be sandbox or bot-api (got "${env.text('TELEGRAM_PROVIDER')}")`);
  const token = env.text('TELEGRAM_BOT_TOKEN');
  // The shape of a BotFather token; the value itself is never repeated in an error.
  if (!token || !/^\d{5,15}:[A-Za-z0-9_-]{30,60}$/.test(token)) {
    env.fail('TELEGRAM_BOT_TOKEN', 'is required with TELEGRAM_PROVIDER=bot-api and looks like 123456789:AA... (from @BotFather)');
  }
  return { kind, bot: { token, apiBaseUrl: env.url('TELEGRAM_API_BASE_URL', 'https://api.telegram.org') } };
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
  title: 'Telegram',
  description: 'Messages and photos through a bot',
  scopes: { send: 'Send Telegram messages', read: 'Read Telegram status' },
  prices: [TELEGRAM_MESSAGE_PRICE, TELEGRAM_PHOTO_PRICE],
  settings: telegramSettings,
  provider: (settings, deps) =>
    settings.kind === 'bot-api' ? createTelegramBotProvider(settings.bot) : createSandboxProvider('telegram', deps.sandbox),
  routes: () => telegramChannelRoutes,
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
