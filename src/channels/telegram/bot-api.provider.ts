import type { OutboundMessage, Provider, SendOutcome } from '../../core/delivery/provider.js';
import { abortableSleep } from '../../core/delivery/rate-limiter.js';
import type { TelegramPayload } from './send-telegram.js';

export interface TelegramBotSettings {
  /** The bot token from @BotFather. Part of every request URL: never logged. */
  token: string;
  /** https://api.telegram.org, or a self-hosted Bot API server. */
  apiBaseUrl: string;
}

/**
 * Telegram's limits for one bot (Bot API FAQ, "My bot is hitting limits"): about 30 messages a
 * second in all, one a second to one chat, 20 a minute to one group (a chat id below zero).
 */
const PER_BOT_PER_SECOND = 30;
const PER_CHAT_INTERVAL_MS = 1_000;
const PER_GROUP_INTERVAL_MS = 3_000;
/** Longer than this behind earlier messages to one chat, and the message is put back for later. */
const MAX_CHAT_WAIT_MS = 5_000;

interface BotApiAnswer {
  ok: boolean;
  result?: { message_id?: number };
  error_code?: number;
  description?: string;
  /** ResponseParameters: `retry_after` with 429; `migrate_to_chat_id` when a group became a supergroup. */
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/**
 * Telegram through the Bot API (sendMessage, sendPhoto). Telegram sends no delivery receipt: a
 * message it accepted is in the chat, so acceptance is reported as delivery. A 429's `retry_after`
 * holds the whole chat (every message to it waits, or is put back, until then), not only the message
 * that met it; 403 (the bot was blocked, or removed from the chat) fails for good; a 400 naming
 * `migrate_to_chat_id` (the group became a supergroup) is sent again to the new chat at once, and
 * later messages to the old id go there too; other 400s (chat not found, entities that do not parse)
 * fail for good with Telegram's description.
 */
export function createTelegramBotProvider(settings: TelegramBotSettings, fetchImpl: typeof fetch = fetch): Provider {
  const base = `${settings.apiBaseUrl.replace(/\/+$/, '')}/bot${settings.token}`;
  const nextSlot = new Map<string, number>();
  /** Groups that became supergroups: the old chat id → the new one (Telegram's migrate_to_chat_id). */
  const migrated = new Map<string, string>();

  /** Waits for this chat's turn (1 a second, a group 1 in 3 s), or says how long the wait would be when it is too long. */
  async function chatTurn(chatId: string, signal: AbortSignal): Promise<number | undefined> {
    const now = Date.now();
    const at = Math.max(now, nextSlot.get(chatId) ?? 0);
    if (at - now > MAX_CHAT_WAIT_MS) return at - now;
    nextSlot.set(chatId, at + (chatId.startsWith('-') ? PER_GROUP_INTERVAL_MS : PER_CHAT_INTERVAL_MS));
    if (nextSlot.size > 10_000) for (const [chat, slot] of nextSlot) if (slot < now) nextSlot.delete(chat);
    if (at > now) await abortableSleep(at - now, signal);
    return undefined;
  }

  function request(message: OutboundMessage, chatId: string): { method: string; body: Record<string, unknown> } {
    const payload = (message.payload ?? { method: 'sendMessage' }) as TelegramPayload;
    const common = {
      chat_id: chatId,
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

  async function call(
    message: OutboundMessage,
    chatId: string,
    signal: AbortSignal,
  ): Promise<{ answer: BotApiAnswer; response: Response }> {
    const { method, body } = request(message, chatId);
    const response = await fetchImpl(`${base}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
    const answer = (await response.json().catch(() => ({ ok: false }))) as BotApiAnswer;
    return { answer, response };
  }

  return {
    name: 'telegram-bot-api',
    channel: 'telegram',
    maxPerSecond: PER_BOT_PER_SECOND,

    async send(message, signal): Promise<SendOutcome> {
      const chatId = migrated.get(message.to) ?? message.to;
      const wait = await chatTurn(chatId, signal);
      if (wait !== undefined) {
        return {
          ok: false,
          retryable: true,
          code: 'CHAT_PACING',
          message: 'Telegram allows one message a second to a chat (20 a minute to a group), and this chat is waiting.',
          retryAfterMs: wait,
        };
      }
      let { answer, response } = await call(message, chatId, signal);
      const newChat = answer.parameters?.migrate_to_chat_id;
      if (!answer.ok && newChat !== undefined && /^-?\d{1,20}$/.test(String(newChat))) {
        // The group became a supergroup: the same message to its new id, now; later ones go there directly.
        migrated.set(message.to, String(newChat));
        // Bounded as the pacing slots are: a forgotten migration costs one more 400 and its retry.
        if (migrated.size > 10_000) migrated.delete(migrated.keys().next().value as string);
        nextSlot.set(String(newChat), Math.max(nextSlot.get(String(newChat)) ?? 0, nextSlot.get(chatId) ?? 0));
        ({ answer, response } = await call(message, String(newChat), signal));
      }
      const to = migrated.get(message.to) ?? message.to;
      if (response.ok && answer.ok && answer.result?.message_id !== undefined) {
        return { ok: true, providerMessageId: `${to}:${answer.result.message_id}`, delivered: true };
      }
      const description = answer.description ?? `HTTP ${response.status}`;
      const status = answer.error_code ?? response.status;
      if (status === 429) {
        // Flood control holds the chat, not just this message: the others to it wait as long (or are put back).
        const retryAfterMs = (answer.parameters?.retry_after ?? 1) * 1000;
        nextSlot.set(to, Math.max(nextSlot.get(to) ?? 0, Date.now() + retryAfterMs));
        return { ok: false, retryable: true, code: 'TELEGRAM_RATE_LIMITED', message: description, retryAfterMs };
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
