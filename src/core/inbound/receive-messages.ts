import { JOB_KINDS, type KeywordConfirmation } from '../delivery/job-kinds.js';
import { ApiError } from '../errors.js';
import { emitAccountEvent } from '../events/emit-event.js';
import { type Channel, newMessageId } from '../ids.js';
import { acceptMessages, type SendDeps } from '../messages/accept-messages.js';
import type { Message } from '../messages/message.js';
import type { Store } from '../ports.js';
import { addSuppression, removeSuppression } from '../suppressions/manage-suppressions.js';
import type { Suppression } from '../suppressions/suppression.js';
import { accountOfAddress } from './addresses.js';
import { type InboundMessage, inboundMessageView, type ReceivedMessage } from './inbound-message.js';
import { confirmationOf, type KeywordAction, keywordOf } from './keywords.js';

/** What became of a received message. */
export type Reception =
  | { outcome: 'stored'; message: InboundMessage; keyword?: KeywordAction | undefined }
  /** The account already had it (the provider sent it again): nothing was written. */
  | { outcome: 'duplicate' }
  /** No account has the address it was sent to (docs/inbound.md, "Addresses"): dropped. */
  | { outcome: 'unrouted' };

/**
 * Takes a message a recipient sent: finds its account by the address it was sent to, stores it
 * with its own id (a provider id seen before adds nothing), lets its channel act on it (WhatsApp's
 * session window), applies a STOP or START keyword to the suppression list with the job that will
 * send its confirmation, and fires `message.received`; all in one transaction, so the message, its
 * effects and its event exist together or not at all, before the provider is answered.
 */
export async function receiveMessage(deps: SendDeps, received: ReceivedMessage, known: { accountId?: string } = {}): Promise<Reception> {
  const { store, clock } = deps;
  // The sandbox knows whose message it makes up; every provider finds it by the address.
  const accountId = known.accountId ?? (await accountOfAddress(store, received.channel, received.to));
  if (!accountId) return { outcome: 'unrouted' };
  const rules = store.channels.inboundOf(received.channel);
  const now = clock.now();
  const message: InboundMessage = Object.assign({}, received, {
    id: newMessageId(received.channel, now),
    accountId,
    from: storable(store.channels.recipientKey(received.channel, received.from)),
    to: storable(received.to),
    text: storable(cutText(received.text, INBOUND_MAX_TEXT)),
    // A provider's clock ahead of ours would date the message (and WhatsApp's session window) in the future.
    receivedAt: Math.min(received.receivedAt, now),
    providerMessageId: received.providerMessageId === undefined ? undefined : storable(received.providerMessageId),
    details: await detailsOf(store, received, accountId),
    createdAt: now,
  });
  delete message.joinedFrom;
  delete message.repliesTo;
  // A keyword from someone the channel could not send to (a malformed sender) changes nothing.
  const sendable = store.channels.recipientsOf(received.channel)?.valid(message.from) ?? true;
  const keyword = rules?.keywords && sendable ? keywordOf(received.text) : undefined;
  const stored = await store.transaction(async (tx) => {
    const { joinedFrom } = received;
    if (joinedFrom && (await tx.inbound.removeParts(received.channel, joinedFrom)) === 0) return false;
    if (!(await tx.inbound.insertMessage(message))) return false;
    await rules?.received?.(tx, message);
    if (keyword) await applyKeyword(tx, message, keyword, rules?.reply !== undefined, now);
    await emitAccountEvent(tx, { accountId, type: 'message.received', at: now, messageId: message.id, data: inboundMessageView(message) });
    return true;
  });
  if (!stored) return { outcome: 'duplicate' };
  return keyword ? { outcome: 'stored', message, keyword: keyword.action } : { outcome: 'stored', message };
}

/**
 * A message made up for the sandbox (POST /v1/sandbox/inbound, `herald whatsapp simulate-inbound`):
 * `from` writes to the account, at `to` or else the account's first address on the channel, or
 * `sandbox` when it has none, and Herald takes it as it takes a provider's (receiveMessage).
 */
export async function receiveSandboxMessage(
  deps: SendDeps,
  accountId: string,
  input: { channel: Channel; from: string; text: string; to?: string | undefined },
): Promise<InboundMessage> {
  const own = (await deps.store.inbound.listAddresses(accountId)).find((address) => address.channel === input.channel);
  const reception = await receiveMessage(
    deps,
    {
      channel: input.channel,
      from: input.from,
      to: input.to ?? own?.address ?? 'sandbox',
      text: input.text,
      receivedAt: deps.clock.now(),
      details: { sandbox: true },
    },
    { accountId },
  );
  // A message made up now has an id of its own: it is never a duplicate, and its account is known.
  if (reception.outcome !== 'stored') throw new ApiError('INTERNAL_ERROR', 'The sandbox message was not stored.');
  return reception.message;
}

/**
 * The most text an inbound message keeps (characters): more than any channel carries (an SMS of
 * 255 parts, a Telegram message of 4,096, a WhatsApp text of 4,096); an email's text is cut there
 * first, with `details.truncated` (inbound-email.ts).
 */
export const INBOUND_MAX_TEXT = 50_000;

/**
 * The message's details as stored: every string storable (an email's subject may carry a NUL), and
 * `in_reply_to` set to the account's own message the provider says it answers, if there is one.
 */
async function detailsOf(store: Store, received: ReceivedMessage, accountId: string): Promise<Record<string, unknown> | undefined> {
  const details = received.details ? storableDetails(received.details) : undefined;
  if (received.repliesTo === undefined) return details;
  const answered = await store.messages.findByProviderId(received.channel, received.repliesTo);
  if (answered?.accountId !== accountId) return details;
  return Object.assign({}, details, { in_reply_to: answered.id });
}

/** `text` cut at `max` characters, never inside a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(0, /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max);
}

const storableDetails = (value: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).map(([key, field]) => [key, storableValue(field)]));

function storableValue(value: unknown): unknown {
  if (typeof value === 'string') return storable(value);
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? storable(item) : item));
  return value;
}

/**
 * Text as both stores hold it: what a handset or a mail client sent may carry a NUL (UCS-2 0x0000)
 * or half of a surrogate pair, which PostgreSQL refuses; each becomes U+FFFD, as a decoder replaces
 * what it cannot read, rather than the message being lost.
 */
const storable = (text: string): string => (text.replaceAll('\u0000', '\uFFFD') as string & { toWellFormed(): string }).toWellFormed();

/**
 * STOP puts the writer on the list as an opt-out; START takes off an opt-out a STOP made (never a
 * bounce, a block, or an entry the account made itself). The confirmation is a job of the same
 * transaction: it cannot be lost between the change and its message, and its message id, chosen
 * now, makes a second run of it send nothing.
 */
async function applyKeyword(
  tx: Store,
  message: InboundMessage,
  keyword: { action: KeywordAction; language: string },
  confirms: boolean,
  at: number,
): Promise<void> {
  const entry = { accountId: message.accountId, channel: message.channel, recipient: message.from, source: 'inbound' as const, at };
  if (keyword.action === 'stop') await addSuppression(tx, Object.assign({ reason: 'opt_out' as const }, entry));
  else await removeSuppression(tx, Object.assign({ onlyIf: (s: Suppression) => s.reason === 'opt_out' && s.source === 'inbound' }, entry));
  if (!confirms) return;
  const payload: KeywordConfirmation = {
    messageId: newMessageId(message.channel, at),
    accountId: message.accountId,
    channel: message.channel,
    to: message.from,
    from: message.to,
    action: keyword.action,
    language: keyword.language,
  };
  await tx.jobs.enqueueMany([{ kind: JOB_KINDS.confirmKeyword, messageId: null, payload, runAt: at }], at);
}

/** What became of a keyword's confirmation. */
export type ConfirmationOutcome =
  | { sent: Message }
  /** The account silenced it (an empty text), or a second run found it sent. */
  | { skipped: 'silenced' | 'already_sent' }
  /** The account could not send it: no credits, suspended, the recipient still suppressed (after a START). */
  | { refused: string };

/**
 * Sends a keyword's confirmation (the `confirm_keyword` job): the account's text in the keyword's
 * language, or Herald's, as an ordinary message of the account, charged as any other. A STOP's goes
 * to someone now on the list (the one message they are still sent); a START's is checked like any
 * send, so it never reaches someone still suppressed for another reason. A refusal by the account's
 * state is an outcome; any other failure throws, and the job is tried again.
 */
export async function sendConfirmation(deps: SendDeps, job: KeywordConfirmation): Promise<ConfirmationOutcome> {
  const rules = deps.store.channels.inboundOf(job.channel);
  const own = (await deps.store.inbound.keywordReplies(job.accountId)).find((r) => r.language === job.language);
  const text = confirmationOf(job.action, job.language, own);
  if (text === '' || !rules?.reply) return { skipped: 'silenced' };
  if (await deps.store.messages.findForAccount(job.messageId, job.accountId)) return { skipped: 'already_sent' };
  const draft = Object.assign(rules.reply({ to: job.to, from: job.from, text }, deps.prices), { id: job.messageId });
  try {
    const [sent] = await acceptMessages(deps, job.accountId, [draft], { suppressions: job.action === 'stop' ? 'exempt' : 'check' });
    if (!sent) throw new Error('the confirmation was not accepted');
    return { sent };
  } catch (error) {
    if (error instanceof ApiError) return { refused: error.code };
    // Accepted by a run that crashed before its job was settled: the same id is already there.
    if (await deps.store.messages.findForAccount(job.messageId, job.accountId)) return { skipped: 'already_sent' };
    throw error;
  }
}
