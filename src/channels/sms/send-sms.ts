import { MICROS_PER_CREDIT } from '../../core/credits.js';
import { parseIsoDateTime } from '../../core/datetime.js';
import { ApiError, type FieldProblem, validationError } from '../../core/errors.js';
import { acceptOne, checkCallbackUrl, type MessageDraft, type SendDeps, type SendRequest } from '../../core/messages/accept-messages.js';
import type { Message } from '../../core/messages/message.js';
import { isValidE164 } from '../../core/phone.js';
import { type PriceList, type PriceSetting, priceOf } from '../../core/pricing.js';
import { countSegments, type SegmentCount } from '../../core/segments.js';

/** An SMS costs this much per segment (1 credit by default). */
export const SMS_SEGMENT_PRICE: PriceSetting = { key: 'smsSegment', variable: 'PRICE_SMS_SEGMENT', defaultMicros: MICROS_PER_CREDIT };

/** What one SMS of a text costs: its segments and their price, in micro-credits. */
export interface SmsQuote extends SegmentCount {
  costMicros: number;
}

/** Prices a text for one recipient. Sends, bulk sends and the preview all ask this, so they cannot disagree. */
export function quoteSms(prices: PriceList, text: string): SmsQuote {
  const count = countSegments(text);
  return Object.assign({}, count, { costMicros: priceOf(prices, SMS_SEGMENT_PRICE.key) * count.segments });
}

export interface SendSmsInput {
  to: string;
  message: string;
  sender?: string | undefined;
  scheduled_at?: string | undefined;
  callback_url?: string | undefined;
}

export type { SendDeps };

/** Refuses a `to` that is not a valid E.164 number (422 INVALID_PHONE). */
export function checkRecipient(to: string): void {
  if (!isValidE164(to)) {
    throw new ApiError('INVALID_PHONE', `'${to}' is not a valid phone number in E.164 format (e.g. +14155552671).`, {
      details: [{ field: 'to', message: 'must be a valid phone number in E.164 format' }],
    });
  }
}

/** How far in the past `scheduled_at` may lie (clock skew, slow clients) and how far ahead. */
export const SCHEDULE_PAST_TOLERANCE_MS = 60_000;
export const SCHEDULE_MAX_AHEAD_MS = 35 * 24 * 3600_000;

/**
 * Parses `scheduled_at` against the clock: undefined when absent, the time in ms when given and
 * within range (a time up to 60 s past is kept as given and sent at once), a field problem when
 * it is unreadable or out of range.
 */
export function parseSchedule(text: string | undefined, now: number): number | undefined | FieldProblem {
  if (text === undefined) return undefined;
  const at = parseIsoDateTime(text);
  if (at === undefined) return { field: 'scheduled_at', message: 'must be an ISO 8601 date-time' };
  if (at < now - SCHEDULE_PAST_TOLERANCE_MS) return { field: 'scheduled_at', message: 'must not be in the past' };
  if (at > now + SCHEDULE_MAX_AHEAD_MS) return { field: 'scheduled_at', message: 'must be at most 35 days ahead' };
  return at;
}

/**
 * Accepts an SMS: checks what the schema cannot, prices it by segments, and in one transaction
 * reserves its cost and stores it as `queued`, with the request's answer kept. Nothing is written when any
 * step fails.
 */
export async function sendSms(
  deps: SendDeps,
  accountId: string,
  input: SendSmsInput,
  request: SendRequest<Message> = {},
): Promise<Message> {
  const now = deps.clock.now();
  checkRecipient(input.to);
  const scheduledAt = parseSchedule(input.scheduled_at, now);
  if (typeof scheduledAt === 'object') throw validationError([scheduledAt]);

  await checkCallbackUrl(deps, input.callback_url);
  const draft = Object.assign(smsDraft(deps.prices, input), { scheduledAt: scheduledAt ?? null, callbackUrl: input.callback_url ?? null });
  return acceptOne(deps, accountId, draft, request);
}

/** An SMS of a text to one recipient, priced by its segments: a send, or a keyword's confirmation. */
export function smsDraft(prices: PriceList, input: { to: string; message: string; sender?: string | undefined }): MessageDraft {
  const { segments, costMicros } = quoteSms(prices, input.message);
  return { channel: 'sms', to: input.to, sender: input.sender ?? null, body: input.message, segments, costMicros };
}
