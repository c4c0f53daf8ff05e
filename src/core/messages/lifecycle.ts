import type { ProviderReceipt } from '../delivery/provider.js';
import type { Store, Transition } from '../ports.js';
import { emitEvent, emitEvents } from '../webhooks/emit-event.js';
import { statusEventType } from '../webhooks/event-types.js';
import { recordEmailComplaint, recordEmailEvent, recordEmailFailure } from './email-events.js';
import type { Message, MessageStatus } from './message.js';

/**
 * The message status machine (CONTRACT 4, 5). Every change goes through here, inside the caller's
 * transaction, so status, history, credits, the email timeline and the webhook event always move
 * together:
 *
 *   queued ──► sent ──► delivered ──► read        queued ──► failed   (credits released)
 *      │         └────► failed (captured)         queued ──► canceled (credits released)
 *
 * Each step is conditional on the status it leaves, so a late or repeated event changes nothing.
 */

export interface FailureReason {
  code: string;
  message: string;
}

/**
 * Applies a transition; when it took effect, emits its `message.<status>` event and returns the
 * message as it now is. Undefined when the message was not in one of the `from` statuses.
 */
async function move(
  tx: Store,
  message: Message,
  change: Omit<Transition, 'messageId'>,
  eventData?: Record<string, unknown>,
): Promise<Message | undefined> {
  if (!(await tx.messages.transition({ ...change, messageId: message.id }))) return undefined;
  const moved: Message = { ...message, status: change.to as MessageStatus };
  const type = statusEventType(moved.status);
  if (type) await emitEvent(tx, { type, message: moved, status: moved.status, at: change.at, ...(eventData ? { data: eventData } : {}) });
  return moved;
}

/** One message's move in a `moveMany`. */
interface Move {
  message: Message;
  change: Omit<Transition, 'messageId'>;
  eventData?: Record<string, unknown>;
}

/**
 * `move` for many messages going to the same status: one update, one history insert and the
 * events in multi-row inserts. Returns the messages that moved, as they now are.
 */
async function moveMany(tx: Store, moves: readonly Move[]): Promise<Message[]> {
  const first = moves[0];
  if (!first) return [];
  const type = statusEventType(first.change.to);
  const movedIds = await tx.messages.transitionMany(
    moves.map(({ message, change }) => ({ ...change, messageId: message.id })),
    { countEvent: type !== undefined },
  );
  const moved = moves.filter(({ message }) => movedIds.has(message.id));
  if (type) {
    await emitEvents(
      tx,
      moved.map(({ message, change, eventData }) => ({
        type,
        message,
        status: change.to,
        at: change.at,
        sequence: movedIds.get(message.id)?.eventSequence as number,
        ...(eventData ? { data: eventData } : {}),
      })),
    );
  }
  return moved.map(({ message, change }) => ({ ...message, status: change.to as MessageStatus }));
}

/** A provider took a message: what `recordAcceptedMany` records of it. */
export interface Acceptance {
  message: Message;
  providerMessageId: string;
  at: number;
  detail: string | null;
}

/**
 * `recordAccepted` for many messages at once, in multi-row statements (the worker's batches).
 * Returns the ids of the messages that were still queued and are now sent.
 */
export async function recordAcceptedMany(tx: Store, acceptances: readonly Acceptance[]): Promise<Set<string>> {
  const sent = await moveMany(
    tx,
    acceptances.map(({ message, providerMessageId, at, detail }) => ({
      message,
      change: { from: ['queued'], to: 'sent', at, detail, sentAt: at, providerMessageId, chargeState: 'captured', clearInFlight: true },
    })),
  );
  const sentIds = new Set(sent.map((message) => message.id));
  const captured = acceptances.filter(({ message }) => sentIds.has(message.id));
  await tx.credits.captureMany(
    captured.map(({ message, at }) => ({ accountId: message.accountId, micros: message.costMicros, messageId: message.id, at })),
  );
  for (const { message, at } of captured) await recordEmailEvent(tx, { ...message, status: 'sent' }, 'sent', at);
  return sentIds;
}

/** A provider took the message: its cost is captured. */
export async function recordAccepted(
  tx: Store,
  message: Message,
  providerMessageId: string,
  at: number,
  detail: string | null,
): Promise<boolean> {
  const sent = await move(tx, message, {
    from: ['queued'],
    to: 'sent',
    at,
    detail,
    sentAt: at,
    providerMessageId,
    chargeState: 'captured',
    clearInFlight: true,
  });
  if (!sent) return false;
  await tx.credits.capture(message.accountId, message.costMicros, message.id, at);
  await recordEmailEvent(tx, sent, 'sent', at);
  return true;
}

/**
 * The message failed for good. Before a provider accepted it the reservation is released (a
 * technical failure costs nothing); after, the charge stands, as the provider was paid.
 */
export async function recordFailed(tx: Store, message: Message, reason: FailureReason, at: number): Promise<boolean> {
  const error = { error: { code: reason.code, message: reason.message } };
  const beforeAcceptance = await move(
    tx,
    message,
    { from: ['queued'], to: 'failed', at, detail: reason.code, chargeState: 'released', error: reason, clearInFlight: true },
    error,
  );
  if (beforeAcceptance) {
    await tx.credits.release(message.accountId, message.costMicros, message.id, at);
    await tx.jobs.deleteForMessage(message.id);
    await recordEmailFailure(tx, beforeAcceptance, reason, at);
    return true;
  }
  const afterAcceptance = await move(tx, message, { from: ['sent'], to: 'failed', at, detail: reason.code, error: reason }, error);
  if (afterAcceptance) await recordEmailFailure(tx, afterAcceptance, reason, at);
  return afterAcceptance !== undefined;
}

/** Cancels a message no worker has handed to a provider yet; false when it is too late. */
export async function cancelQueued(tx: Store, message: Message, at: number): Promise<boolean> {
  if (message.status !== 'queued' || message.dispatchState !== null) return false;
  const canceled = await move(tx, message, {
    from: ['queued'],
    to: 'canceled',
    at,
    detail: null,
    chargeState: 'released',
    requireNotInFlight: true,
  });
  if (!canceled) return false;
  await tx.credits.release(message.accountId, message.costMicros, message.id, at);
  await tx.jobs.deleteForMessage(message.id);
  return true;
}

export type ReceiptResult = 'applied' | 'ignored' | 'unmatched';

/**
 * The one path by which delivery reports of every provider reach the status machine. A receipt
 * can overtake the worker's own record of the hand-over (the provider answered before we stored
 * its acceptance): it then implies the acceptance first. A receipt for a message already past
 * that state is ignored.
 */
export function applyReceipt(store: Store, receipt: ProviderReceipt): Promise<ReceiptResult> {
  return store.groupedTransaction((tx) => applyReceiptIn(tx, receipt));
}

/**
 * `applyReceipt` for many receipts, inside the caller's transaction. The common case — a message
 * of ours delivered — is applied to all such receipts at once; every other receipt (a failure, a
 * part, a receipt found by the provider's id, a message with more than one receipt in the batch)
 * takes the one-at-a-time path afterwards, in the order given. Results are in the receipts' order.
 */
export async function applyReceipts(tx: Store, receipts: readonly ProviderReceipt[]): Promise<ReceiptResult[]> {
  const results: ReceiptResult[] = new Array(receipts.length);
  const perMessage = new Map<string, number>();
  for (const receipt of receipts) if (receipt.messageId) perMessage.set(receipt.messageId, (perMessage.get(receipt.messageId) ?? 0) + 1);
  const quick: number[] = [];
  const oneByOne: number[] = [];
  receipts.forEach((receipt, i) => {
    const single = receipt.messageId !== undefined && perMessage.get(receipt.messageId) === 1;
    (single && receipt.status === 'delivered' ? quick : oneByOne).push(i);
  });

  const found = new Map(
    (await tx.messages.findByIds(quick.map((i) => (receipts[i] as ProviderReceipt).messageId as string))).map((m) => [m.id, m]),
  );
  const implied: Acceptance[] = [];
  const deliveries: Array<{ i: number; message: Message }> = [];
  for (const i of quick) {
    const receipt = receipts[i] as ProviderReceipt;
    const message = found.get(receipt.messageId as string);
    if (!message || message.channel !== receipt.channel) {
      results[i] = 'unmatched';
      continue;
    }
    if (message.status === 'queued') {
      implied.push({
        message,
        providerMessageId: receipt.providerMessageId,
        at: receipt.occurredAt,
        detail: 'accepted (implied by a receipt)',
      });
    }
    deliveries.push({ i, message });
  }
  const nowSent = implied.length > 0 ? await recordAcceptedMany(tx, implied) : new Set<string>();
  const delivered = await moveMany(
    tx,
    deliveries.map(({ i, message }) => {
      const receipt = receipts[i] as ProviderReceipt;
      const at = receipt.occurredAt;
      return {
        message: nowSent.has(message.id) ? { ...message, status: 'sent' as const } : message,
        change: { from: ['sent'], to: 'delivered', at, detail: receipt.code ?? null, deliveredAt: at },
      };
    }),
  );
  const deliveredIds = new Set(delivered.map((message) => message.id));
  for (const { i, message } of deliveries) results[i] = deliveredIds.has(message.id) ? 'applied' : 'ignored';
  for (const { i, message } of deliveries) {
    if (deliveredIds.has(message.id)) {
      await recordEmailEvent(tx, { ...message, status: 'delivered' }, 'delivered', (receipts[i] as ProviderReceipt).occurredAt);
    }
  }

  for (const i of oneByOne) results[i] = await applyReceiptIn(tx, receipts[i] as ProviderReceipt);
  return results;
}

async function applyReceiptIn(tx: Store, receipt: ProviderReceipt): Promise<ReceiptResult> {
  const match: { message?: Message | undefined; part?: { providerMessageId: string } | undefined } | undefined = receipt.messageId
    ? { message: await tx.messages.findById(receipt.messageId) }
    : await tx.messages.findByProviderIds(receipt.channel, [receipt.providerMessageId, ...(receipt.alternativeIds ?? [])]);
  const found = match?.message;
  if (!found || found.channel !== receipt.channel) return 'unmatched';
  let message = found;
  const at = receipt.occurredAt;
  // A receipt for one part of a multi-part message: a failed part fails the message; a delivered
  // one delivers it only once every part is delivered.
  if (match?.part && (receipt.status === 'delivered' || receipt.status === 'failed')) {
    const { undelivered } = await tx.messages.settlePart(receipt.channel, match.part.providerMessageId, receipt.status);
    if (receipt.status === 'delivered' && undelivered > 0) return 'applied';
  }
  // A complaint is an email event, not a status: it neither implies nor needs any transition.
  if (receipt.status === 'complained') return (await recordEmailComplaint(tx, message, at)) ? 'applied' : 'ignored';
  if (message.status === 'queued') {
    if (await recordAccepted(tx, message, receipt.providerMessageId, at, 'accepted (implied by a receipt)')) {
      message = { ...message, status: 'sent' };
    }
  }
  switch (receipt.status) {
    case 'delivered': {
      const delivered = await move(tx, message, { from: ['sent'], to: 'delivered', at, detail: receipt.code ?? null, deliveredAt: at });
      if (delivered) await recordEmailEvent(tx, delivered, 'delivered', at);
      return delivered ? 'applied' : 'ignored';
    }
    case 'read':
      return (await move(tx, message, { from: ['sent', 'delivered'], to: 'read', at, detail: null })) ? 'applied' : 'ignored';
    case 'failed': {
      const error = {
        code: receipt.code ?? 'UNDELIVERABLE',
        message: receipt.message ?? 'The provider reported the message undeliverable.',
      };
      const failed = await move(tx, message, { from: ['sent'], to: 'failed', at, detail: error.code, error }, { error });
      if (failed) await recordEmailFailure(tx, failed, error, at);
      return failed ? 'applied' : 'ignored';
    }
  }
}
