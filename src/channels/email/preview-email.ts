import type { FieldProblem } from '../../core/errors.js';
import { isForeignSender } from '../../core/inbound/addresses.js';
import type { SendDeps } from '../../core/messages/accept-messages.js';
import { previewAccept } from '../../core/messages/preview-accept.js';
import { suppressedAmong } from '../../core/suppressions/manage-suppressions.js';
import { checkEmailBody, emailDraft, emailSizeBytes, emailTooLarge } from './send-email.js';

/** What the same email send would do, without doing it. */
export interface EmailPreview {
  costMicros: number;
  /** Subject, bodies and decoded attachments, as EMAIL_MAX_BYTES counts them (emailSizeBytes). */
  sizeBytes: number;
  maxBytes: number;
  /** The recipients (`to`, then cc) on the account's email suppression list, as the list keeps them. */
  suppressed: string[];
  /** Whether `from` may be used: not when it (or its @domain) is another account's address, whose replies would go there. */
  fromAllowed: boolean;
  availableMicros: number;
  affordable: boolean;
  /** What the send would answer instead of accepting it (the size, `from`, the suppression list, credits); null when it would accept it. */
  refusal: { code: string; message: string } | null;
}

/**
 * `POST /v1/email/preview` (docs/email.md, "Preview before sending"): the send's body checked as
 * the send checks it (checkEmailBody: a malformed one is 422 as the send answers it), its size
 * against EMAIL_MAX_BYTES (emailTooLarge), then what accepting its draft would answer
 * (previewAccept: suspension, a foreign `from`, suppression of `to` and cc, credits), in the send's
 * order; the first that would refuse it is `refusal`. Writes, reserves and decorates nothing.
 */
export async function previewEmail(
  deps: SendDeps & { maxBytes: number },
  accountId: string,
  body: unknown,
  schemaProblems: readonly FieldProblem[] = [],
): Promise<EmailPreview> {
  const input = checkEmailBody(body, schemaProblems);
  const sizeBytes = emailSizeBytes(input);
  const draft = emailDraft(deps.prices, input);
  const accept = await previewAccept(deps.store, accountId, [draft]);
  const suppressed = await suppressedAmong(deps.store, accountId, 'email', [input.to, ...(input.cc ?? [])]);
  const refusal = emailTooLarge(sizeBytes, deps.maxBytes) ?? accept.refusal;
  return {
    costMicros: draft.costMicros,
    sizeBytes,
    maxBytes: deps.maxBytes,
    suppressed: [...suppressed.keys()],
    fromAllowed: !(await isForeignSender(deps.store, accountId, 'email', input.from as string)),
    availableMicros: accept.availableMicros,
    affordable: accept.affordable,
    refusal: refusal ? { code: refusal.code, message: refusal.message } : null,
  };
}
