import { MICROS_PER_CREDIT } from '../../core/credits.js';
import { type FieldProblem, validationError } from '../../core/errors.js';
import { acceptOne, type MessageDraft, type SendDeps, type SendRequest } from '../../core/messages/accept-messages.js';
import type { Message } from '../../core/messages/message.js';
import { type PriceList, type PriceSetting, priceOf } from '../../core/pricing.js';
import { telegramTextLength } from './telegram-markup.js';

/** A Telegram text message costs 0.05 credits by default. */
export const TELEGRAM_MESSAGE_PRICE: PriceSetting = {
  key: 'telegramMessage',
  variable: 'PRICE_TELEGRAM_MESSAGE',
  defaultMicros: 0.05 * MICROS_PER_CREDIT,
};
/** A Telegram photo costs 0.1 credits by default. */
export const TELEGRAM_PHOTO_PRICE: PriceSetting = {
  key: 'telegramPhoto',
  variable: 'PRICE_TELEGRAM_PHOTO',
  defaultMicros: 0.1 * MICROS_PER_CREDIT,
};

/**
 * A Telegram chat: a numeric id written as a string (negative for groups and channels, e.g.
 * `-1001234567890`; Telegram ids fit in 52 bits, so at most 16 digits), or a public channel's
 * `@username` (5 to 32 letters, digits and underscores, starting with a letter).
 */
export const TELEGRAM_CHAT_ID = /^(?:-?[1-9][0-9]{0,15}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;
export const TELEGRAM_PARSE_MODES = ['Markdown', 'MarkdownV2', 'HTML'] as const;
export type TelegramParseMode = (typeof TELEGRAM_PARSE_MODES)[number];

/**
 * Telegram's limits: text 4096 characters, caption 1024 (both "after entities parsing", in UTF-16
 * code units: telegram-markup.ts), callback_data 64 bytes, 100 inline buttons. The raw text may
 * be longer than its limit by its markup, up to `rawText` and `rawCaption` (bounds of the request,
 * not Telegram's: 4096 characters each written `&amp;` in HTML fit).
 */
export const TELEGRAM_LIMITS = {
  text: 4096,
  caption: 1024,
  rawText: 32_768,
  rawCaption: 8_192,
  callbackDataBytes: 64,
  buttonText: 64,
  buttonsPerRow: 8,
  buttons: 100,
} as const;

export interface InlineButton {
  text: string;
  callback_data?: string | undefined;
  url?: string | undefined;
}

interface TelegramOptions {
  chat_id: string;
  parse_mode?: TelegramParseMode | undefined;
  disable_notification?: boolean | undefined;
  reply_markup?: { inline_keyboard: InlineButton[][] } | undefined;
}

export interface SendTelegramMessageInput extends TelegramOptions {
  message: string;
}

export interface SendTelegramPhotoInput extends TelegramOptions {
  photo_url: string;
  caption?: string | undefined;
}

/** What a Telegram message carries to its provider: the Bot API method and its options. */
export type TelegramPayload = {
  method: 'sendMessage' | 'sendPhoto';
  photo_url?: string;
  parse_mode?: TelegramParseMode;
  disable_notification?: boolean;
  reply_markup?: { inline_keyboard: InlineButton[][] };
};

/** A text with its limit: a message's 4096 characters, a caption's 1024. */
interface LimitedText {
  field: 'message' | 'caption';
  value: string;
  limit: number;
}

/**
 * The problem of a text's length, counted as Telegram counts it, after its markup is parsed
 * (telegram-markup.ts), which no schema can say; undefined when it fits.
 */
function textProblem(text: LimitedText, parseMode: TelegramParseMode | undefined): FieldProblem | undefined {
  const length = telegramTextLength(text.value, parseMode);
  const counted = parseMode ? ` after its ${parseMode} markup is parsed` : '';
  if (length > text.limit) {
    return {
      field: text.field,
      message: `must be at most ${text.limit} characters${counted}, as Telegram counts them (UTF-16 code units); it has ${length}`,
    };
  }
  if (length === 0 && text.field === 'message') return { field: text.field, message: `must have at least 1 character${counted}` };
  return undefined;
}

/**
 * The rules of a chat id and an inline keyboard. The HTTP schema checks the same ones (and says
 * so for every field at once); they are repeated here for callers that do not come through it.
 */
function optionProblems(input: TelegramOptions): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!TELEGRAM_CHAT_ID.test(input.chat_id)) {
    problems.push({ field: 'chat_id', message: 'must be a numeric chat id or a @channelusername' });
  }
  const rows = input.reply_markup?.inline_keyboard ?? [];
  for (const [r, row] of rows.entries()) {
    for (const [b, button] of row.entries()) {
      const field = `reply_markup.inline_keyboard.${r}.${b}`;
      if ((button.callback_data === undefined) === (button.url === undefined)) {
        problems.push({ field, message: 'must have text and exactly one of callback_data or url' });
      } else if (button.callback_data !== undefined && !callbackDataFits(button.callback_data)) {
        problems.push({ field: `${field}.callback_data`, message: 'must be 1 to 64 bytes in UTF-8' });
      }
    }
  }
  const buttons = rows.reduce((sum, row) => sum + row.length, 0);
  if (buttons > TELEGRAM_LIMITS.buttons) {
    problems.push({ field: 'reply_markup.inline_keyboard', message: `must have at most ${TELEGRAM_LIMITS.buttons} buttons in all` });
  }
  return problems;
}

const callbackDataFits = (data: string): boolean => {
  const bytes = Buffer.byteLength(data, 'utf8');
  return bytes >= 1 && bytes <= TELEGRAM_LIMITS.callbackDataBytes;
};

function payloadOf(method: TelegramPayload['method'], input: TelegramOptions): TelegramPayload {
  return {
    method,
    ...(input.parse_mode !== undefined ? { parse_mode: input.parse_mode } : {}),
    ...(input.disable_notification !== undefined ? { disable_notification: input.disable_notification } : {}),
    ...(input.reply_markup !== undefined ? { reply_markup: input.reply_markup } : {}),
  };
}

/**
 * A Telegram send checked and priced, as the send accepts it: its draft, the length of its text as
 * Telegram counts it (of `limit`), and its problems (a 422 when there are any), the text's first.
 */
export interface CheckedTelegram {
  draft: MessageDraft;
  length: number;
  limit: number;
  /** The text's length problem, when it has one (it is in `problems` too). */
  textProblem: FieldProblem | undefined;
  problems: FieldProblem[];
}

function checked(draft: MessageDraft, input: TelegramOptions, text: LimitedText): CheckedTelegram {
  const problem = textProblem(text, input.parse_mode);
  return {
    draft,
    length: telegramTextLength(text.value, input.parse_mode),
    limit: text.limit,
    textProblem: problem,
    problems: [...(problem ? [problem] : []), ...optionProblems(input)],
  };
}

/** A text message to a chat (`to` is the chat id), priced per message. */
export const checkTelegramMessage = (prices: PriceList, input: SendTelegramMessageInput): CheckedTelegram =>
  checked(
    {
      channel: 'telegram',
      to: input.chat_id,
      body: input.message,
      payload: payloadOf('sendMessage', input),
      costMicros: priceOf(prices, TELEGRAM_MESSAGE_PRICE.key),
    },
    input,
    { field: 'message', value: input.message, limit: TELEGRAM_LIMITS.text },
  );

/** A photo by URL (Telegram fetches it), with an optional caption as its text (of length 0 without one). */
export const checkTelegramPhoto = (prices: PriceList, input: SendTelegramPhotoInput): CheckedTelegram =>
  checked(
    {
      channel: 'telegram',
      to: input.chat_id,
      body: input.caption ?? null,
      payload: Object.assign(payloadOf('sendPhoto', input), { photo_url: input.photo_url }),
      costMicros: priceOf(prices, TELEGRAM_PHOTO_PRICE.key),
    },
    input,
    { field: 'caption', value: input.caption ?? '', limit: TELEGRAM_LIMITS.caption },
  );

/** Accepts a checked send (422 with its problems when it has any). */
function acceptChecked(deps: SendDeps, accountId: string, send: CheckedTelegram, request: SendRequest<Message>): Promise<Message> {
  if (send.problems.length > 0) throw validationError(send.problems);
  return acceptOne(deps, accountId, send.draft, request);
}

/** Accepts a Telegram text message to a chat (`to` is the chat id), priced per message. */
export const sendTelegramMessage = (
  deps: SendDeps,
  accountId: string,
  input: SendTelegramMessageInput,
  request: SendRequest<Message> = {},
): Promise<Message> => acceptChecked(deps, accountId, checkTelegramMessage(deps.prices, input), request);

/** Accepts a Telegram photo, sent by URL (Telegram fetches it), with an optional caption as its text. */
export const sendTelegramPhoto = (
  deps: SendDeps,
  accountId: string,
  input: SendTelegramPhotoInput,
  request: SendRequest<Message> = {},
): Promise<Message> => acceptChecked(deps, accountId, checkTelegramPhoto(deps.prices, input), request);
