import type { OutboundMessage, Provider, SendOutcome } from '../../core/delivery/provider.js';
import { abortableSleep } from '../../core/delivery/rate-limiter.js';
import type { TelegramPayload } from './send-telegram.js';

export interface TelegramBotSettings {
  /** The bot token from @BotFather. Part of every request URL: never logged. */
  token: string;
  /** https://api.telegram.org, or a self-hosted Bot API server. */
  apiBaseUrl: string;
}

/** Telegram's limits for one bot: about 30 messages a second in all, 1 a second to one chat. */
const PER_BOT_PER_SECOND = 30;
const PER_CHAT_INTERVAL_MS = 1_000;
/** Longer than this behind earlier messages to one chat, and the message is put back for later. */
const MAX_CHAT_WAIT_MS = 5_000;

interface BotApiAnswer {
  ok: boolean;
  result?: { message_id?: number };
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
}

/**
 * Telegram through the Bot API (sendMessage, sendPhoto). Telegram sends no delivery receipt: a
 * message it accepted is in the chat, so acceptance is reported as delivery. 429 honours
 * `retry_after`; 403 (the bot was blocked, or removed from the chat) fails for good; 400 (chat not
 * found, entities that do not parse) fails for good with Telegram's description.
 */
export function createTelegramBotProvider(settings: TelegramBotSettings, fetchImpl: typeof fetch = fetch): Provider {
  const base = `${settings.apiBaseUrl.replace(/\/+$/, '')}/bot${settings.token}`;
  const nextSlot = new Map<string, number>();

  /** Waits for this chat's turn (1 a second), or says how long the wait would be when it is too long. */
  async function chatTurn(chatId: string, signal: AbortSignal): Promise<number | undefined> {
    const now = Date.now();
    const at = Math.max(now, nextSlot.get(chatId) ?? 0);
    if (at - now > MAX_CHAT_WAIT_MS) return at - now;
    nextSlot.set(chatId, at + PER_CHAT_INTERVAL_MS);
    if (nextSlot.size > 10_000) for (const [chat, slot] of nextSlot) if (slot < now) nextSlot.delete(chat);
    if (at > now) await abortableSleep(at - now, signal);
    return undefined;
  }

  function request(message: OutboundMessage): { method: string; body: Record<string, unknown> } {
    const payload = (message.payload ?? { method: 'sendMessage' }) as TelegramPayload;
    const common = {
      chat_id: message.to,
      ...(payload.parse_mode ? { parse_mode: payload.parse_mode } : {}),
      ...(payload.disable_notification !== undefined ? { disable_notification: payload.disable_notification } : {}),
      ...(payload.reply_markup ? { reply_markup: payload.reply_markup } : {}),
    };
    if (payload.method === 'sendPhoto') {
      return {
        method: 'sendPhoto',
        body: Object.assign({}, common, { photo: payload.photo_url, ...(message.body ? { caption: message.body } : {}) }),
      };
    }
    return { method: 'sendMessage', body: Object.assign({}, common, { text: message.body ?? '' }) };
  }

  return {
    name: 'telegram-bot-api',
    channel: 'telegram',
    maxPerSecond: PER_BOT_PER_SECOND,

    async send(message, signal): Promise<SendOutcome> {
      const wait = await chatTurn(message.to, signal);
      if (wait !== undefined) {
        return {
          ok: false,
          retryable: true,
          code: 'CHAT_PACING',
          message: 'Telegram allows one message a second to a chat.',
          retryAfterMs: wait,
        };
      }
      const { method, body } = request(message);
      const response = await fetchImpl(`${base}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
      const answer = (await response.json().catch(() => ({ ok: false }))) as BotApiAnswer;
      if (response.ok && answer.ok && answer.result?.message_id !== undefined) {
        return { ok: true, providerMessageId: `${message.to}:${answer.result.message_id}`, delivered: true };
      }
      const description = answer.description ?? `HTTP ${response.status}`;
      const status = answer.error_code ?? response.status;
      if (status === 429) {
        return {
          ok: false,
          retryable: true,
          code: 'TELEGRAM_RATE_LIMITED',
          message: description,
          retryAfterMs: (answer.parameters?.retry_after ?? 1) * 1000,
        };
      }
      if (status === 403) {
        // The user blocked the bot or deleted their account: nothing will reach them again (suppressed).
        const blocked = /blocked by the user|user is deactivated/i.test(description);
        return { ok: false, retryable: false, code: blocked ? 'TELEGRAM_BLOCKED' : 'TELEGRAM_FORBIDDEN', message: description };
      }
      if (status === 401 || status === 404) {
        // The token is wrong or revoked: an operator must fix it; the message can wait.
        return { ok: false, retryable: true, code: 'TELEGRAM_UNAUTHORIZED', message: 'Telegram refused the bot token.' };
      }
      if (status >= 400 && status < 500) return { ok: false, retryable: false, code: 'TELEGRAM_BAD_REQUEST', message: description };
      return { ok: false, retryable: true, code: `TELEGRAM_${status}`, message: description };
    },
  };
}
