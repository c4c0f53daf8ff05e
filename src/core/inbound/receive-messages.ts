import { ApiError } from '../errors.js';
import { emitAccountEvent } from '../events/emit-event.js';
import { newMessageId } from '../ids.js';
import { acceptMessages, type SendDeps } from '../messages/accept-messages.js';
import type { Message } from '../messages/message.js';
import type { Store } from '../ports.js';
import { addSuppression, removeSuppression } from '../suppressions/manage-suppressions.js';
import { accountOfAddress } from './addresses.js';
import { type InboundMessage, inboundMessageView, type ReceivedMessage } from './inbound-message.js';
import { confirmationOf, type KeywordAction, keywordOf } from './keywords.js';

/** What became of a received message. */
export type Reception =
  | { outcome: 'stored'; message: InboundMessage; keyword?: KeywordAction | undefined; confirmation?: ConfirmationOutcome | undefined }
  /** The account already had it (the provider sent it again): nothing was written. */
  | { outcome: 'duplicate' }
  /** No account has the address it was sent to (docs/inbound.md, "Addresses"): dropped. */
  | { outcome: 'unrouted' };

/** The keyword's confirmation: the message sent, why none was (the account silenced it), or why it could not be. */
export type ConfirmationOutcome = { sent: Message } | { skipped: 'silenced' | 'not_supported' } | { failed: string };

/**
 * Takes a message a recipient sent: finds its account by the address it was sent to, stores it
 * with its own id (a provider id seen before adds nothing), lets its channel act on it (WhatsApp's
 * session window), applies a STOP or START keyword to the suppression list, and fires
 * `message.received`; all in one transaction, so the message, its effects and its event exist
 * together or not at all. The keyword's confirmation is sent after that commits, as a message of
 * the account (charged as any other): a confirmation that cannot be sent (no credits) takes
 * nothing back.
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
    text: storable(received.text),
    createdAt: now,
  });
  // A keyword from someone the channel could not send to (a malformed sender) changes nothing.
  const sendable = store.channels.recipientsOf(received.channel)?.valid(message.from) ?? true;
  const keyword = rules?.keywords && sendable ? keywordOf(received.text) : undefined;
  const stored = await store.transaction(async (tx) => {
    const { joinedFrom } = received;
    if (joinedFrom && (await tx.inbound.removeParts(received.channel, joinedFrom)) === 0) return false;
    if (!(await tx.inbound.insertMessage(message))) return false;
    await rules?.received?.(tx, message);
    if (keyword) await applyKeyword(tx, message, keyword.action, now);
    await emitAccountEvent(tx, { accountId, type: 'message.received', at: now, messageId: message.id, data: inboundMessageView(message) });
    return true;
  });
  if (!stored) return { outcome: 'duplicate' };
  if (!keyword) return { outcome: 'stored', message };
  return { outcome: 'stored', message, keyword: keyword.action, confirmation: await confirm(deps, message, keyword) };
}

/**
 * Text as both stores hold it: what a handset or a mail client sent may carry a NUL (UCS-2 0x0000)
 * or half of a surrogate pair, which PostgreSQL refuses; each becomes U+FFFD, as a decoder replaces
 * what it cannot read, rather than the message being lost.
 */
const storable = (text: string): string => (text.replaceAll('\u0000', '\uFFFD') as string & { toWellFormed(): string }).toWellFormed();

/** STOP puts the writer on the list as an opt-out; START takes an opt-out off (never a bounce or a block). */
async function applyKeyword(tx: Store, message: InboundMessage, action: KeywordAction, at: number): Promise<void> {
  const entry = { accountId: message.accountId, channel: message.channel, recipient: message.from, source: 'inbound' as const, at };
  if (action === 'stop') await addSuppression(tx, Object.assign({ reason: 'opt_out' as const }, entry));
  else await removeSuppression(tx, Object.assign({ onlyReasons: ['opt_out' as const] }, entry));
}

async function confirm(
  deps: SendDeps,
  message: InboundMessage,
  keyword: { action: KeywordAction; language: string },
): Promise<ConfirmationOutcome> {
  const rules = deps.store.channels.inboundOf(message.channel);
  if (!rules?.reply) return { skipped: 'not_supported' };
  const own = (await deps.store.inbound.keywordReplies(message.accountId)).find((r) => r.language === keyword.language);
  const text = confirmationOf(keyword.action, keyword.language, own);
  if (text === '') return { skipped: 'silenced' };
  try {
    const draft = rules.reply({ to: message.from, from: message.to, text }, deps.prices);
    // The confirmation of a STOP goes to someone now on the list: the one message they are still sent.
    const [sent] = await acceptMessages(deps, message.accountId, [draft], { suppressionsSetAside: true });
    return sent ? { sent } : { failed: 'not accepted' };
  } catch (error) {
    return { failed: error instanceof ApiError ? error.code : error instanceof Error ? error.message : String(error) };
  }
}
