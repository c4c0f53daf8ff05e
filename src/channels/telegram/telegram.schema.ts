import Type from 'typebox';
import { Nullable, Timestamp } from '../../http/envelope.js';
import { PreviewVerdictProperties, ProgressProperties } from '../../http/message-view.js';
import { TELEGRAM_CHAT_ID, TELEGRAM_LIMITS, TELEGRAM_PARSE_MODES } from './send-telegram.js';

const HTTP_URL = '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+[^\\s]*$';
const BUTTON_URL = '^(?:[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+[^\\s]*|[Tt][Gg]://[^\\s]+)$';

const ChatId = Type.String({
  pattern: TELEGRAM_CHAT_ID.source,
  maxLength: 40,
  errorMessage: 'must be a numeric chat id (e.g. 123456789, or -1001234567890 for a group) or a @channelusername',
  description:
    'The chat: its numeric id as a string (negative for groups and channels), or `@username` of a public channel. ' +
    "It is the message's `to`.",
  examples: ['123456789', '-1001234567890', '@herald_news'],
});

const ParseMode = Type.Union(
  TELEGRAM_PARSE_MODES.map((m) => Type.Literal(m)),
  { description: 'How Telegram reads formatting in the text: `Markdown`, `MarkdownV2` or `HTML`. Plain text when absent.' },
);

const InlineButton = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: TELEGRAM_LIMITS.buttonText, description: 'Label, 1 to 64 characters.' }),
    callback_data: Type.Optional(
      Type.String({
        minLength: 1,
        maxBytes: TELEGRAM_LIMITS.callbackDataBytes,
        errorMessage: 'must be 1 to 64 bytes in UTF-8',
        description: 'Sent back to your bot when the button is pressed; 1 to 64 bytes of UTF-8 (an emoji takes 4).',
      }),
    ),
    url: Type.Optional(
      Type.String({
        pattern: BUTTON_URL,
        maxLength: 2048,
        errorMessage: 'must be an http(s):// or tg:// URL',
        description: 'Opened when pressed.',
      }),
    ),
  },
  {
    additionalProperties: false,
    // `text` plus exactly one of the two others: with no other fields allowed, that is exactly two fields.
    minProperties: 2,
    maxProperties: 2,
    errorMessage: 'must have text and exactly one of callback_data or url',
  },
);

const ReplyMarkup = Type.Object(
  {
    inline_keyboard: Type.Array(
      Type.Array(InlineButton, { minItems: 1, maxItems: TELEGRAM_LIMITS.buttonsPerRow, description: 'A row: 1 to 8 buttons.' }),
      { minItems: 1, maxItems: TELEGRAM_LIMITS.buttons, description: 'Rows of buttons; at most 100 buttons in all.' },
    ),
  },
  { additionalProperties: false, description: 'An inline keyboard shown under the message.' },
);

const options = {
  parse_mode: Type.Optional(ParseMode),
  disable_notification: Type.Optional(Type.Boolean({ description: "Deliver silently: no sound on the recipient's device." })),
  reply_markup: Type.Optional(ReplyMarkup),
};

/** A text message to a chat (docs/telegram.md). */
export const SendTelegramBody = Type.Object(
  {
    chat_id: ChatId,
    message: Type.String({
      minLength: 1,
      maxLength: TELEGRAM_LIMITS.rawText,
      description:
        'Text: 1 to 4096 characters as Telegram counts them, after the `parse_mode` markup is parsed (markup, escapes and ' +
        "a link's URL do not count; an emoji outside the BMP counts 2, as UTF-16 does). With its markup, up to 32768 characters.",
    }),
    ...options,
  },
  {
    title: 'SendTelegramRequest',
    additionalProperties: false,
    examples: [{ chat_id: '123456789', message: 'Your order #1042 has shipped.' }],
  },
);
export type SendTelegramBody = Type.Static<typeof SendTelegramBody>;

/** A photo by URL, with an optional caption (docs/telegram.md). */
export const SendTelegramPhotoBody = Type.Object(
  {
    chat_id: ChatId,
    photo_url: Type.String({
      pattern: HTTP_URL,
      maxLength: 2048,
      errorMessage: 'must be an absolute http(s) URL',
      description: 'Absolute http(s) URL of the photo; Telegram fetches it.',
    }),
    caption: Type.Optional(
      Type.String({
        maxLength: TELEGRAM_LIMITS.rawCaption,
        description: 'Up to 1024 characters as Telegram counts them, after the `parse_mode` markup is parsed; with its markup, up to 8192.',
      }),
    ),
    ...options,
  },
  {
    title: 'SendTelegramPhotoRequest',
    additionalProperties: false,
    examples: [{ chat_id: '123456789', photo_url: 'https://example.com/receipts/1042.png', caption: 'Your receipt' }],
  },
);
export type SendTelegramPhotoBody = Type.Static<typeof SendTelegramPhotoBody>;

export const TelegramAccepted = Type.Object(
  {
    message_id: Type.String({ description: '`msg_telegram_<id>`' }),
    to: Type.String({ description: 'The chat_id.' }),
    status: Type.Literal('queued'),
    credits_used: Type.Number(),
    created_at: Timestamp,
  },
  { title: 'TelegramAccepted' },
);

/** The keyboard as stored, for responses (without the request's validation keywords). */
const ReplyMarkupView = Type.Object({
  inline_keyboard: Type.Array(
    Type.Array(Type.Object({ text: Type.String(), callback_data: Type.Optional(Type.String()), url: Type.Optional(Type.String()) })),
  ),
});

/** A Telegram message read back. */
export const TelegramDetail = Type.Object(
  {
    message_id: Type.String(),
    channel: Type.Literal('telegram'),
    to: Type.String({ description: 'The chat_id.' }),
    type: Type.Union([Type.Literal('message'), Type.Literal('photo')]),
    message: Nullable(Type.String({ description: "The text, or the photo's caption (null without one)." })),
    photo_url: Nullable(Type.String()),
    parse_mode: Nullable(ParseMode),
    disable_notification: Type.Boolean(),
    reply_markup: Nullable(ReplyMarkupView),
    ...ProgressProperties,
  },
  { title: 'TelegramDetail' },
);

/** What a Telegram text or photo send would do (docs/telegram.md, "Preview before sending"). */
export const TelegramPreview = Type.Object(
  {
    length: Type.Integer({
      description:
        "The text's (a photo's caption's) length as Telegram counts it: UTF-16 code units after the `parse_mode` markup is parsed.",
    }),
    limit: Type.Integer({ description: 'Its limit: 4096 for a text, 1024 for a caption; the send refuses a longer one (422).' }),
    markup_parses: Type.Boolean({
      description:
        "Whether the `parse_mode` markup parses; when not, the send is accepted but Telegram refuses the message (can't parse entities).",
    }),
    suppressed: Type.Boolean({ description: "Whether the chat is on the account's Telegram suppression list." }),
    ...PreviewVerdictProperties,
  },
  { title: 'TelegramPreview' },
);
