import { balanceOf } from '../../core/accounts/account.js';
import { notFound, validationError } from '../../core/errors.js';
import type { Store } from '../../core/ports.js';
import type { PriceList } from '../../core/pricing.js';
import { type CharacterOutsideGsm7, charactersOutsideGsm7, unitsPerSegment } from '../../core/segments.js';
import { checkRecipient, quoteSms, type SmsQuote } from './send-sms.js';
import { type RejectedRecipient, setAsideSuppressed, sortRecipients } from './send-sms-bulk.js';

export interface PreviewSmsInput {
  message: string;
  to?: string | undefined;
  recipients?: string[] | undefined;
}

/** What a send of the same text to the same recipients would do, without doing it. */
export interface SmsPreview extends SmsQuote {
  /** Characters of the text, counted in Unicode code points. */
  characters: number;
  unitsPerSegment: number;
  /** The characters that make the text UCS-2 (none for GSM-7). */
  outsideGsm7: CharacterOutsideGsm7[];
  /** Recipients the send would accept, and those it would list as rejected (bulk only). */
  recipients: number;
  rejected: RejectedRecipient[];
  totalMicros: number;
  availableMicros: number;
  /** Whether the available balance covers the whole send now: a send reserves all or nothing. */
  affordable: boolean;
}

/**
 * `POST /v1/sms/preview` (docs/messages-and-credits.md, "Preview before sending"): prices a text
 * with the very function a send uses (quoteSms) and checks its recipients with the send's own rules
 * (a `to`, or the `recipients` of a bulk send), then reads the balance. Writes nothing, reserves
 * nothing (no Idempotency-Key is kept for it either); the balance can change before the send.
 */
export async function previewSms(
  deps: { store: Store; prices: PriceList },
  accountId: string,
  input: PreviewSmsInput,
): Promise<SmsPreview> {
  if (input.to !== undefined && input.recipients !== undefined) {
    throw validationError([{ field: 'recipients', message: 'must not be given with to: preview one send or one bulk send' }]);
  }
  let rejected: RejectedRecipient[] = [];
  let valid: string[] = [];
  if (input.to !== undefined) {
    checkRecipient(input.to);
    valid = [input.to];
  }
  if (input.recipients !== undefined) {
    const sorted = sortRecipients(input.recipients);
    valid = sorted.valid;
    rejected = sorted.rejected;
  }
  // The suppression list, as the send checks it: a suppressed `to` makes the preview of 0 recipients.
  // Without `to` or `recipients` the text alone is priced, for one recipient.
  const { sendable, rejected: suppressed } = await setAsideSuppressed(deps.store, accountId, valid);
  rejected = [...rejected, ...suppressed];
  const recipients = input.to === undefined && input.recipients === undefined ? 1 : sendable.length;
  const account = await deps.store.accounts.findAccount(accountId);
  if (!account) throw notFound('Account');
  const quote = quoteSms(deps.prices, input.message);
  const totalMicros = quote.costMicros * recipients;
  const { availableMicros } = balanceOf(account);
  return Object.assign({}, quote, {
    characters: [...input.message].length,
    unitsPerSegment: unitsPerSegment(quote),
    outsideGsm7: charactersOutsideGsm7(input.message),
    recipients,
    rejected,
    totalMicros,
    availableMicros,
    affordable: totalMicros <= availableMicros,
  });
}
