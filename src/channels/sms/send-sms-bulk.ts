import { ApiError, validationError } from '../../core/errors.js';
import { timeOrderedId } from '../../core/ids.js';
import { acceptMessages, checkCallbackUrl, type SendDeps, type SendRequest } from '../../core/messages/accept-messages.js';
import type { Message } from '../../core/messages/message.js';
import { isValidE164 } from '../../core/phone.js';
import { keptFor, type Store } from '../../core/ports.js';
import { recipientSuppressed, suppressedAmong } from '../../core/suppressions/manage-suppressions.js';
import { parseSchedule, quoteSms } from './send-sms.js';

export const BULK_MAX_RECIPIENTS = 1000;

export interface SendSmsBulkInput {
  recipients: string[];
  message: string;
  sender?: string | undefined;
  scheduled_at?: string | undefined;
  callback_url?: string | undefined;
}

export interface RejectedRecipient {
  to: string;
  error: { code: 'INVALID_PHONE' | 'RECIPIENT_SUPPRESSED'; message: string };
}

export interface BulkResult {
  batchId: string;
  messages: Message[];
  rejected: RejectedRecipient[];
}

/**
 * The recipients of a bulk send, sorted: repeats collapse to the first, numbers that are not valid
 * E.164 are rejected with the reason, and with no valid number left the request fails (422
 * INVALID_PHONE, each number named by its index).
 */
export function sortRecipients(recipients: readonly string[], field = 'recipients'): { valid: string[]; rejected: RejectedRecipient[] } {
  const unique = [...new Set(recipients)];
  const valid: string[] = [];
  const rejected: RejectedRecipient[] = [];
  for (const to of unique) {
    if (isValidE164(to)) valid.push(to);
    else rejected.push({ to, error: { code: 'INVALID_PHONE', message: `'${to}' is not a valid phone number in E.164 format.` } });
  }
  if (valid.length === 0) {
    throw new ApiError('INVALID_PHONE', 'None of the recipients is a valid phone number in E.164 format (e.g. +14155552671).', {
      details: unique.map((to) => ({
        field: `${field}.${recipients.indexOf(to)}`,
        message: `'${to}' is not a valid phone number in E.164 format`,
      })),
    });
  }
  return { valid, rejected };
}

/**
 * Valid recipients split into those a send may go to and those on the account's suppression list
 * (listed as rejected with RECIPIENT_SUPPRESSED): one look-up for them all. Used by the bulk send and
 * by its preview, so both set aside the same numbers.
 */
export async function setAsideSuppressed(
  store: Store,
  accountId: string,
  valid: readonly string[],
): Promise<{ sendable: string[]; rejected: RejectedRecipient[] }> {
  const suppressed = await suppressedAmong(store, accountId, 'sms', valid);
  const sendable: string[] = [];
  const rejected: RejectedRecipient[] = [];
  for (const to of valid) {
    const entry = suppressed.get(to);
    if (!entry) sendable.push(to);
    else rejected.push({ to, error: { code: 'RECIPIENT_SUPPRESSED', message: recipientSuppressed('sms', to, entry.reason).message } });
  }
  return { sendable, rejected };
}

/**
 * One text to many recipients (`POST /v1/sms/bulk`, docs/messages-and-credits.md). Repeated numbers collapse to one; invalid ones are
 * listed as rejected while the valid ones go, as are suppressed ones (setAsideSuppressed); the cost of all accepted recipients is reserved in
 * the same single transaction that stores them (with the request's answer), or the whole request fails with 402.
 */
export async function sendSmsBulk(
  deps: SendDeps,
  accountId: string,
  input: SendSmsBulkInput,
  request: SendRequest<BulkResult> = {},
): Promise<BulkResult> {
  const now = deps.clock.now();
  const sorted = sortRecipients(input.recipients);
  const { sendable: valid, rejected: suppressed } = await setAsideSuppressed(deps.store, accountId, sorted.valid);
  const rejected = [...sorted.rejected, ...suppressed];
  if (valid.length === 0) {
    throw new ApiError(
      'RECIPIENT_SUPPRESSED',
      "Every valid recipient is on this account's SMS suppression list: nothing was sent or charged.",
      {
        details: suppressed.map((r) => ({ field: `recipients.${input.recipients.indexOf(r.to)}`, message: r.error.message })),
      },
    );
  }
  const scheduledAt = parseSchedule(input.scheduled_at, now);
  if (typeof scheduledAt === 'object') throw validationError([scheduledAt]);

  await checkCallbackUrl(deps, input.callback_url);
  const { segments, costMicros: cost } = quoteSms(deps.prices, input.message);
  const batchId = `bat_${timeOrderedId(now)}`;
  const messages = await acceptMessages(
    deps,
    accountId,
    valid.map((to) => ({
      channel: 'sms' as const,
      to,
      sender: input.sender ?? null,
      body: input.message,
      segments,
      costMicros: cost,
      scheduledAt: scheduledAt ?? null,
      callbackUrl: input.callback_url ?? null,
    })),
    {
      batchId,
      suppressions: 'set-aside',
      answer: keptFor(request.answer, (accepted: readonly Message[]) => ({ batchId, messages: [...accepted], rejected })),
      origin: request.origin,
      access: request.access,
    },
  );
  return { batchId, messages, rejected };
}
