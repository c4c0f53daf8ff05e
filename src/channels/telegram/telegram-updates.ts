import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Clock } from '../../core/clock.js';
import { ApiError } from '../../core/errors.js';
import { accountOfAddress } from '../../core/inbound/addresses.js';
import type { ReceivedMessage } from '../../core/inbound/inbound-message.js';
import type { Reception } from '../../core/inbound/receive-messages.js';
import type { Store } from '../../core/ports.js';
import { addSuppression, removeSuppression } from '../../core/suppressions/manage-suppressions.js';
import { TELEGRAM_CHAT_ID } from './send-telegram.js';

/** The Bot API's Chat, as far as Herald reads it. */
const TelegramChat = Type.Object({ id: Type.Integer(), type: Type.Optional(Type.String()) });

/** The Bot API's Message, as far as Herald reads it: text, or the caption of a photo, video, document... */
const TelegramMessage = Type.Object({
  message_id: Type.Integer(),
  date: Type.Optional(Type.Integer()),
  chat: TelegramChat,
  from: Type.Optional(
    Type.Object({
      id: Type.Optional(Type.Integer()),
      is_bot: Type.Optional(Type.Boolean()),
      first_name: Type.Optional(Type.String()),
      username: Type.Optional(Type.String()),
    }),
  ),
  text: Type.Optional(Type.String()),
  caption: Type.Optional(Type.String()),
});
export type TelegramMessage = Static<typeof TelegramMessage>;

/** The Bot API's ChatMemberUpdated (`my_chat_member`): the bot's own status in a chat changed. */
const TelegramChatMemberUpdated = Type.Object({
  chat: TelegramChat,
  date: Type.Optional(Type.Integer()),
  old_chat_member: Type.Optional(Type.Object({ status: Type.Optional(Type.String()) })),
  new_chat_member: Type.Optional(Type.Object({ status: Type.Optional(Type.String()) })),
});

/**
 * The Bot API's Update: its `update_id` and at most one of its optional kinds. Herald reads
 * `message` and `my_chat_member`; edited messages, channel posts, callback queries and the rest are
 * skipped (and not asked for: UPDATE_KINDS). Each part is checked before it is read (takeUpdate):
 * one of another shape is skipped, never read as if it were right.
 */
export interface TelegramUpdate {
  update_id: number;
  message?: unknown;
  my_chat_member?: unknown;
}

const isMessage = Compile(TelegramMessage);
const isChatMemberUpdated = Compile(TelegramChatMemberUpdated);

/** The update kinds Herald asks for (setWebhook's and getUpdates' `allowed_updates`). */
export const UPDATE_KINDS = ['message', 'my_chat_member'] as const;

/** Whether a parsed body has the shape of an Update (an integer update_id). */
export const isUpdate = (value: unknown): value is TelegramUpdate =>
  typeof value === 'object' && value !== null && Number.isSafeInteger((value as { update_id?: unknown }).update_id);

/** The warning for an update skipped for its shape (never its text): it is answered as taken, so Telegram does not resend it forever. */
export const MALFORMED_UPDATE = 'Telegram update of a shape the Bot API does not send; skipped';

/**
 * A message of an update as Herald receives it: from the chat (its id, as sends address it), to
 * the bot (`@username`, the address an operator gives an account). Its provider id is the chat and
 * message ids, so a re-delivered update adds nothing. Undefined for a message with neither text nor
 * caption (a sticker, a photo alone): Herald keeps text only.
 */
export function receivedOfMessage(message: TelegramMessage, botAddress: string, now: number): ReceivedMessage | undefined {
  const chatId = String(message.chat.id);
  const text = message.text ?? message.caption;
  if (text === undefined || !TELEGRAM_CHAT_ID.test(chatId) || !Number.isSafeInteger(message.message_id)) return undefined;
  const details: Record<string, unknown> = {};
  if (message.from?.username !== undefined) details.username = message.from.username;
  if (message.from?.first_name !== undefined) details.first_name = message.from.first_name;
  if (message.chat.type !== undefined) details.chat_type = message.chat.type;
  return {
    channel: 'telegram',
    from: chatId,
    to: botAddress,
    text,
    // Seconds since 1970; none, or none after it, is taken as now (receiveMessage caps a future one).
    receivedAt: message.date !== undefined && message.date > 0 ? message.date * 1000 : now,
    providerMessageId: `${chatId}:${message.message_id}`,
    details,
  };
}

/** What became of an update; `malformed`: a part of another shape than the Bot API's, skipped (and logged by the caller). */
export type UpdateOutcome = Reception['outcome'] | 'suppressed' | 'unsuppressed' | 'skipped' | 'malformed';

export interface UpdateDeps {
  store: Store;
  clock: Clock;
  /** Takes a received message (core/inbound/receive-messages.ts). */
  receive(received: ReceivedMessage): Promise<Reception>;
}

/**
 * Takes one update for the bot at `botAddress`: a message is received (stored, `message.received`);
 * `my_chat_member` with the bot's new status `kicked` (the user blocked the bot; for a group, the
 * bot was banned from it) puts the chat on the suppression list of the account that has the bot's
 * address, as a 403 "blocked by the user" does; from `kicked` back to `member` or `administrator`
 * (the user unblocked and restarted the bot, or the group took it back) takes off the entry a block
 * made, never one the account or another source made. Resolves once that is durable; rejects when
 * it could not be written, so the update is delivered again.
 */
export async function takeUpdate(deps: UpdateDeps, update: TelegramUpdate, botAddress: string): Promise<UpdateOutcome> {
  if (update.message !== undefined) {
    if (!isMessage.Check(update.message)) return 'malformed';
    const received = receivedOfMessage(update.message, botAddress, deps.clock.now());
    return received ? (await deps.receive(received)).outcome : 'skipped';
  }
  const member = update.my_chat_member;
  if (member === undefined) return 'skipped';
  if (!isChatMemberUpdated.Check(member)) return 'malformed';
  if (member.new_chat_member?.status === 'kicked') return suppressBlockedChat(deps, String(member.chat.id), botAddress);
  const back = member.new_chat_member?.status === 'member' || member.new_chat_member?.status === 'administrator';
  if (back && member.old_chat_member?.status === 'kicked') return liftBlock(deps, String(member.chat.id), botAddress);
  return 'skipped';
}

async function liftBlock(deps: UpdateDeps, chatId: string, botAddress: string): Promise<UpdateOutcome> {
  if (!TELEGRAM_CHAT_ID.test(chatId)) return 'skipped';
  const accountId = await accountOfAddress(deps.store, 'telegram', botAddress);
  if (!accountId) return 'unrouted';
  const lifted = await removeSuppression(deps.store, {
    accountId,
    channel: 'telegram',
    recipient: chatId,
    source: 'telegram_blocked',
    at: deps.clock.now(),
    onlyIf: (entry) => entry.reason === 'blocked' && entry.source === 'telegram_blocked',
  });
  return lifted ? 'unsuppressed' : 'skipped';
}

async function suppressBlockedChat(deps: UpdateDeps, chatId: string, botAddress: string): Promise<UpdateOutcome> {
  if (!TELEGRAM_CHAT_ID.test(chatId)) return 'skipped';
  const accountId = await accountOfAddress(deps.store, 'telegram', botAddress);
  if (!accountId) return 'unrouted';
  try {
    await addSuppression(deps.store, {
      accountId,
      channel: 'telegram',
      recipient: chatId,
      reason: 'blocked',
      source: 'telegram_blocked',
      at: deps.clock.now(),
    });
  } catch (error) {
    // A chat id the list cannot hold is skipped; a store failure is thrown, for the update to come again.
    if (error instanceof ApiError) return 'skipped';
    throw error;
  }
  return 'suppressed';
}
