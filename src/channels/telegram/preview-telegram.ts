import { validationError } from '../../core/errors.js';
import type { SendDeps } from '../../core/messages/accept-messages.js';
import { previewAccept } from '../../core/messages/preview-accept.js';
import { suppressedAmong } from '../../core/suppressions/manage-suppressions.js';
import {
  type CheckedTelegram,
  checkTelegramMessage,
  checkTelegramPhoto,
  type SendTelegramMessageInput,
  type SendTelegramPhotoInput,
} from './send-telegram.js';
import { parsedText } from './telegram-markup.js';

/** What the same Telegram send would do, without doing it. */
export interface TelegramPreview {
  costMicros: number;
  /** The text's (or caption's) length as Telegram counts it, after its markup is parsed, and its limit (4096, 1024). */
  length: number;
  limit: number;
  /** Whether the markup of `parse_mode` parses: when not, the send is accepted but Telegram refuses the message ("can't parse entities"). */
  markupParses: boolean;
  /** Whether the chat is on the account's Telegram suppression list. */
  suppressed: boolean;
  availableMicros: number;
  affordable: boolean;
  /** What the send would answer instead of accepting it (the text's length, the suppression list, credits); null when it would accept it. */
  refusal: { code: string; message: string } | null;
}

/**
 * `POST /v1/telegram/preview` and `/v1/telegram/photo/preview` (docs/telegram.md, "Preview before
 * sending"): the send's own check (checkTelegramMessage, checkTelegramPhoto), then what accepting its
 * draft would answer (previewAccept: suspension, suppression, credits), in the send's order. The
 * text's length is reported, and its refusal is `refusal`; any other problem (a chat id, a keyboard)
 * is the send's 422, all its problems with it. Writes and reserves nothing.
 */
async function previewChecked(
  deps: SendDeps,
  accountId: string,
  send: CheckedTelegram,
  text: string,
  parseMode: SendTelegramMessageInput['parse_mode'],
): Promise<TelegramPreview> {
  if (send.problems.some((problem) => problem !== send.textProblem)) throw validationError(send.problems);
  const accept = await previewAccept(deps.store, accountId, [send.draft]);
  const suppressed = await suppressedAmong(deps.store, accountId, 'telegram', [send.draft.to]);
  const refusal = send.textProblem ? validationError([send.textProblem]) : accept.refusal;
  return {
    costMicros: send.draft.costMicros,
    length: send.length,
    limit: send.limit,
    markupParses: parsedText(text, parseMode) !== undefined,
    suppressed: suppressed.size > 0,
    availableMicros: accept.availableMicros,
    affordable: accept.affordable,
    refusal: refusal ? { code: refusal.code, message: refusal.message } : null,
  };
}

/** What POST /v1/telegram/send of `input` would do. */
export const previewTelegramMessage = (deps: SendDeps, accountId: string, input: SendTelegramMessageInput): Promise<TelegramPreview> =>
  previewChecked(deps, accountId, checkTelegramMessage(deps.prices, input), input.message, input.parse_mode);

/** What POST /v1/telegram/photo of `input` would do. */
export const previewTelegramPhoto = (deps: SendDeps, accountId: string, input: SendTelegramPhotoInput): Promise<TelegramPreview> =>
  previewChecked(deps, accountId, checkTelegramPhoto(deps.prices, input), input.caption ?? '', input.parse_mode);
