import type { AccountAccess } from '../accounts/account.js';
import type { Clock } from '../clock.js';
import { creditsText } from '../credits.js';
import { ApiError, accountSuspended, validationError } from '../errors.js';
import { type Channel, newMessageId } from '../ids.js';
import { refuseForeignSenders } from '../inbound/addresses.js';
import { type KeptAnswer, keptFor, type Store } from '../ports.js';
import type { PriceList } from '../pricing.js';
import { refuseSuppressed, suppressibleOf } from '../suppressions/manage-suppressions.js';
import { NO_TRACING, type Tracing } from '../tracing.js';
import { type AcceptUnit, acceptQueueOf, writeUnits } from './accept-queue.js';
import { type Message, NO_ORIGIN, type Origin } from './message.js';

export interface SendDeps {
  store: Store;
  clock: Clock;
  prices: PriceList;
  /**
   * The SSRF guard for a message's callback_url: the reason a URL is refused, or undefined. The
   * same check runs again at each delivery (the address may change).
   */
  checkCallbackUrl?: ((url: string) => Promise<string | undefined>) | undefined;
  /** Spans for the accept, in the request's trace (core/tracing.ts); none when absent. */
  tracing?: Tracing | undefined;
}

/** How a send use case is called for a request: its answer under an Idempotency-Key, and where it comes from. */
export interface SendRequest<T> {
  answer?: KeptAnswer<T> | undefined;
  origin?: Origin | undefined;
  /** The account's access as the request read it a moment ago: its suspension is not read again for that account. */
  access?: { accountId: string; value: AccountAccess } | undefined;
}

/** Refuses a callback_url the SSRF guard refuses (422 on the field). */
export async function checkCallbackUrl(deps: SendDeps, url: string | undefined): Promise<void> {
  if (url === undefined || !deps.checkCallbackUrl) return;
  const reason = await deps.checkCallbackUrl(url);
  if (reason) throw validationError([{ field: 'callback_url', message: `is refused: the URL ${reason}` }]);
}

/** A message checked and priced by its channel's use case, ready to be accepted. */
export interface MessageDraft {
  /** An id made beforehand with newMessageId, when the content must name it (email tracking links do). */
  id?: string;
  channel: Channel;
  to: string;
  /** Other recipients the message also goes to (an email's cc): checked against the suppression list too. */
  alsoTo?: readonly string[] | undefined;
  sender?: string | null;
  /** Where replies go when not to the sender (an email's reply_to): refused, as the sender is, when it is another account's. */
  replyTo?: string | undefined;
  body?: string | null;
  /** Channel-specific fields, stored as JSON and handed to the provider. */
  payload?: Record<string, unknown> | null;
  segments?: number | null;
  costMicros: number;
  scheduledAt?: number | null;
  callbackUrl?: string | null;
}

/** A new message, `queued` with its cost reserved, as a draft describes it. */
export function queuedMessage(
  draft: MessageDraft,
  accountId: string,
  now: number,
  batchId: string | null = null,
  origin: Origin = NO_ORIGIN,
): Message {
  return {
    id: draft.id ?? newMessageId(draft.channel, now),
    accountId,
    channel: draft.channel,
    to: draft.to,
    sender: draft.sender ?? null,
    body: draft.body ?? null,
    status: 'queued',
    segments: draft.segments ?? null,
    costMicros: draft.costMicros,
    chargeState: 'reserved',
    callbackUrl: draft.callbackUrl ?? null,
    scheduledAt: draft.scheduledAt ?? null,
    createdAt: now,
    sentAt: null,
    deliveredAt: null,
    error: null,
    providerMessageId: null,
    dispatchState: null,
    attempts: 0,
    batchId,
    requestId: origin.requestId,
    traceContext: origin.traceContext,
    route: null,
  };
}

/**
 * The checks before anything is written or charged, in acceptMessages' order (a preview asks the
 * same): a suspended account sends nothing, whichever way it asks (the API refuses it when the
 * request begins, and its access as read then, under a second old, is `access` here; otherwise, and
 * for the dashboard's test messages, it is read now, kept in memory where the store announces
 * changes); a sender that is another account's number or address would have its replies go there;
 * a suppressed recipient is refused (`suppressions: 'now'`; acceptMessages looks them up with the
 * other sends of the moment, in the transaction that would write them, `'in-batch'`; not looked up
 * here, `'not-here'`, when a bulk send set them aside itself or a STOP's confirmation is exempt).
 */
export async function refuseBeforeAccepting(
  store: Store,
  accountId: string,
  drafts: readonly MessageDraft[],
  suppressions: 'now' | 'in-batch' | 'not-here' = 'now',
  access?: AccountAccess,
): Promise<void> {
  if ((access ?? (await store.accounts.access(accountId))).suspended) throw accountSuspended();
  await refuseForeignSenders(store, accountId, drafts);
  if (suppressions === 'now') await refuseSuppressed(store, accountId, drafts);
}

/** The refusal (402) of `count` messages costing `totalMicros` in all, more than the available balance. */
export const insufficientCredits = (count: number, totalMicros: number): ApiError =>
  new ApiError(
    'INSUFFICIENT_CREDITS',
    count === 1
      ? `This message costs ${creditsText(totalMicros)}, more than the available balance.`
      : `These ${count} messages cost ${creditsText(totalMicros)}, more than the available balance.`,
  );

/**
 * Accepts messages in one transaction, all or none: refuses them (422) when a recipient is on the
 * account's suppression list, holds their total cost (402 when the available balance does not
 * cover it), stores them as `queued`, and adds their delivery jobs (the
 * transactional outbox). One message or a thousand, it is one transaction, and the request's
 * answer under its Idempotency-Key (`answer`) is kept in it too.
 */
export async function acceptMessages(
  deps: SendDeps,
  accountId: string,
  drafts: readonly MessageDraft[],
  options: {
    batchId?: string | null;
    answer?: KeptAnswer<readonly Message[]> | undefined;
    origin?: Origin | undefined;
    /**
     * The suppression list as this send takes it. `check` (the default): a suppressed recipient
     * refuses the send, and every hand-over checks again. `set-aside`: the caller already set them
     * aside (a bulk send lists them in `rejected`), not looked up again now; checked at hand-over.
     * `exempt`: sent to a suppressed recipient on purpose (a STOP's confirmation), never checked.
     */
    suppressions?: 'check' | 'set-aside' | 'exempt';
    /** The account's access as the request read it a moment ago (SendRequest.access). */
    access?: SendRequest<unknown>['access'];
  } = {},
): Promise<Message[]> {
  const known = options.access?.accountId === accountId ? options.access.value : undefined;
  const suppressions = options.suppressions ?? 'check';
  await refuseBeforeAccepting(deps.store, accountId, drafts, suppressions === 'check' ? 'in-batch' : 'not-here', known);
  const batchId = options.batchId ?? null;
  const now = deps.clock.now();
  const origin = options.origin ?? NO_ORIGIN;
  // The accept's span, in the request's trace: the messages keep it, and the spans of their jobs,
  // hand-overs, receipts and webhook deliveries join it from wherever those run.
  const tracing = deps.tracing ?? NO_TRACING;
  const span = tracing.enabled
    ? tracing.start('accept messages', {
        parent: origin.traceContext,
        attributes: { 'herald.channel': drafts[0]?.channel, 'herald.messages': drafts.length },
      })
    : undefined;
  const traced = span?.traceparent ? { requestId: origin.requestId, traceContext: span.traceparent } : origin;
  const messages = drafts.map((draft) => queuedMessage(draft, accountId, now, batchId, traced));
  const total = messages.reduce((sum, m) => sum + m.costMicros, 0);

  const insufficient = () => insufficientCredits(messages.length, total);

  const unit: AcceptUnit = {
    accountId,
    messages,
    payloads: drafts.map((draft) => (draft.payload ? JSON.stringify(draft.payload) : null)),
    now,
    insufficient,
    answer: options.answer,
    suppressible: suppressions === 'check' ? suppressibleOf(drafts) : undefined,
    suppressionExempt: suppressions === 'exempt',
  };
  try {
    if (deps.store.sharesCommits) {
      // Written with the other requests of the moment, in one transaction (accept-queue.ts).
      await acceptQueueOf(deps.store).submit(unit);
    } else {
      const [refusal] = await deps.store.groupedTransaction((tx) => writeUnits(tx, [unit]));
      if (refusal) throw refusal;
    }
  } catch (error) {
    span?.fail(error instanceof ApiError ? error.code : 'not accepted');
    throw error;
  } finally {
    span?.end();
  }
  return messages;
}

/** Accepts one message (acceptMessages for a single draft); the request's answer is kept with it. */
export async function acceptOne(
  deps: SendDeps,
  accountId: string,
  draft: MessageDraft,
  request: SendRequest<Message> = {},
): Promise<Message> {
  const [message] = await acceptMessages(deps, accountId, [draft], {
    answer: keptFor(request.answer, (messages: readonly Message[]) => messages[0] as Message),
    origin: request.origin,
    access: request.access,
  });
  if (!message) throw new Error('accepting one message returned none');
  return message;
}
