import type { ProviderReceipt } from '../delivery/provider.js';
import { emitEvent, emitEvents } from '../events/emit-event.js';
import { statusEventType } from '../events/event-types.js';
import { NO_TRAIL } from '../message-trail.js';
import { NO_METER } from '../meter.js';
import type { MovedMessage, PartKey, Store, Transition } from '../ports.js';
import { withChanges } from '../with-changes.js';
import type { Message, MessageStatus } from './message.js';

/**
 * The message status machine (docs/messages-and-credits.md). Every change goes through here, inside the caller's
 * transaction, so status, history, credits, the channel's own records (its StatusHooks: email's
 * event timeline) and the webhook event always move together:
 *
 *   queued ──► sent ──► delivered ──► read        queued ──► failed   (credits released)
 *      │         └────► failed (captured, or        queued ──► canceled (credits released)
 *      │                 refunded when unbilled)
 *
 * Each step is conditional on the status it leaves, so a late or repeated event changes nothing.
 */

export interface FailureReason {
  code: string;
  message: string;
}

/** The channel's own step after a move (its StatusHooks, core/channels.ts): email's event timeline. */
async function afterMove(tx: Store, message: MovedMessage, at: number, reason?: FailureReason): Promise<void> {
  const moved = tx.channels.hooksOf(message.channel)?.moved;
  if (moved) await moved(tx, message, at, reason);
}

type StatusReceipt = ProviderReceipt & { status: 'delivered' | 'failed' | 'read' };
/** A receipt of a status; the others are events of their channel (an email complaint). */
const isStatusReceipt = (receipt: ProviderReceipt): receipt is StatusReceipt =>
  receipt.status === 'delivered' || receipt.status === 'failed' || receipt.status === 'read';

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
  if (!(await tx.messages.transition(Object.assign({}, change, { messageId: message.id })))) return undefined;
  const moved = withChanges(message, { status: change.to as MessageStatus });
  tx.meter.messages(moved.channel, moved.status, 1);
  tx.trail.moved(moved, moved.status, change.at, change.detail, change.error ?? undefined);
  if (moved.status === 'delivered') countDelay(tx, withChanges(moved, { deliveredAt: change.deliveredAt ?? null }));
  const type = statusEventType(moved.status);
  if (type) await emitEvent(tx, { type, message: moved, status: moved.status, at: change.at, ...(eventData ? { data: eventData } : {}) });
  return moved;
}

/** One message's move in a `moveMany`. */
interface Move {
  messageId: string;
  change: Omit<Transition, 'messageId'>;
  eventData?: Record<string, unknown>;
}

/**
 * `move` for many messages going to the same status: one update (which returns the rows it
 * moved), one history insert and the events in multi-row inserts. Returns the messages that
 * moved, as they now are.
 */
async function moveMany(tx: Store, moves: readonly Move[]): Promise<MovedMessage[]> {
  const first = moves[0];
  if (!first) return [];
  const type = statusEventType(first.change.to);
  const moved = await tx.messages.transitionMany(
    moves.map(({ messageId, change }) => Object.assign({}, change, { messageId })),
    { countEvent: type !== undefined },
  );
  const movedMoves = moves.filter(({ messageId }) => moved.has(messageId));
  countMoves(tx, first.change.to as MessageStatus, moved.values());
  if (tx.trail !== NO_TRAIL) {
    for (const { messageId, change } of movedMoves) {
      const { message } = moved.get(messageId) as { message: MovedMessage };
      tx.trail.moved(message, change.to, change.at, change.detail, change.error ?? undefined);
    }
  }
  if (type) {
    await emitEvents(
      tx,
      movedMoves.map(({ messageId, change, eventData }) => {
        const { message, eventSequence } = moved.get(messageId) as { message: MovedMessage; eventSequence: number };
        return { type, message, status: change.to, at: change.at, sequence: eventSequence, ...(eventData ? { data: eventData } : {}) };
      }),
    );
  }
  return movedMoves.map(({ messageId }) => (moved.get(messageId) as { message: MovedMessage }).message);
}

/** How long after its hand-over a delivered message's receipt said so (core/meter.ts). */
function countDelay(tx: Store, message: Pick<MovedMessage, 'channel' | 'sentAt' | 'deliveredAt'>): void {
  if (message.sentAt == null || message.deliveredAt == null) return;
  tx.meter.deliveredAfter(message.channel, Math.max(0, message.deliveredAt - message.sentAt) / 1000);
}

/** Counts messages moved to `status`, by channel (core/meter.ts). */
function countMoves(tx: Store, status: MessageStatus, moved: Iterable<{ message: MovedMessage }>): void {
  if (tx.meter === NO_METER) return; // metrics off (the default): nothing to tally on the hot path
  const perChannel = new Map<string, number>();
  for (const { message } of moved) {
    perChannel.set(message.channel, (perChannel.get(message.channel) ?? 0) + 1);
    if (status === 'delivered') countDelay(tx, message);
  }
  for (const [channel, count] of perChannel) tx.meter.messages(channel, status, count);
}

/** A provider took a message: what `recordAcceptedMany` records of it. */
export interface Acceptance {
  messageId: string;
  providerMessageId: string;
  at: number;
  detail: string | null;
  /** The route that carried it, for a provider with several. */
  route?: string | undefined;
}

/**
 * `recordAccepted` for many messages at once, in multi-row statements (the worker's batches).
 * Returns the messages that were still queued and are now sent.
 */
export async function recordAcceptedMany(tx: Store, acceptances: readonly Acceptance[]): Promise<MovedMessage[]> {
  const sent = await markAcceptedMany(tx, acceptances);
  await captureAccepted(tx, sent);
  return sent;
}

/**
 * A provider took a queued message: `sent` under its id, charged, no longer in flight, and no
 * longer saying why it waited.
 */
const accepted = (providerMessageId: string, at: number, detail: string | null, route?: string): Omit<Transition, 'messageId'> => ({
  from: ['queued'],
  to: 'sent',
  at,
  detail,
  sentAt: at,
  providerMessageId,
  // Always set (null without one): the acceptances of a wave, of every channel, are one update.
  route: route ?? null,
  chargeState: 'captured',
  clearInFlight: true,
  error: null,
});

/**
 * The status half of `recordAcceptedMany`: sent, with history and events, but not yet charged —
 * for a caller that takes the account rows later, all at once (`captureAccepted`).
 */
export async function markAcceptedMany(tx: Store, acceptances: readonly Acceptance[]): Promise<MovedMessage[]> {
  const sent = await moveMany(
    tx,
    acceptances.map(({ messageId, providerMessageId, at, detail, route }) => ({
      messageId,
      change: accepted(providerMessageId, at, detail, route),
    })),
  );
  for (const message of sent) await afterMove(tx, message, message.sentAt as number);
  return sent;
}

/** The error an unconfirmed hand-over leaves on its message (and in its `message.sent` event). */
export const HANDOVER_UNCONFIRMED: FailureReason = {
  code: 'HANDOVER_UNCONFIRMED',
  message:
    'The message was handed to the provider, but whether the provider took it is unknown (the hand-over was interrupted); it is not sent again.',
};

/**
 * Messages whose hand-over is in doubt and that are not to be sent again (the `hold` recovery
 * policy): `sent`, with no provider id and the error HANDOVER_UNCONFIRMED, which their
 * `message.sent` event carries as `data.error`. Not yet charged: the caller captures them with the
 * accepted ones (`captureAccepted`), as the provider may well have taken them. Each records the
 * route it was left on in doubt, where its provider has several (the one that may hold it).
 */
export async function markUnconfirmedMany(
  tx: Store,
  held: ReadonlyArray<{ messageId: string; route?: string | undefined }>,
  at: number,
): Promise<MovedMessage[]> {
  const error = { error: HANDOVER_UNCONFIRMED };
  const sent = await moveMany(
    tx,
    held.map(({ messageId, route }) => ({
      messageId,
      change: {
        // Always set (null without one): the messages of a wave are one update.
        route: route ?? null,
        from: ['queued'],
        to: 'sent',
        at,
        detail: HANDOVER_UNCONFIRMED.code,
        sentAt: at,
        chargeState: 'captured',
        error: HANDOVER_UNCONFIRMED,
        clearInFlight: true,
      },
      eventData: error,
    })),
  );
  for (const message of sent) await afterMove(tx, message, message.sentAt as number);
  return sent;
}

/** The charge half: the cost of each message `markAcceptedMany` moved to sent is captured. */
export async function captureAccepted(tx: Store, sent: readonly MovedMessage[]): Promise<void> {
  let micros = 0;
  for (const message of sent) micros += message.costMicros;
  if (micros > 0) tx.meter.creditsCaptured(micros);
  await tx.credits.captureMany(
    sent.map((message) => ({
      accountId: message.accountId,
      micros: message.costMicros,
      messageId: message.id,
      at: message.sentAt as number,
    })),
  );
}

/** A provider took the message: its cost is captured. */
export async function recordAccepted(
  tx: Store,
  message: Message,
  providerMessageId: string,
  at: number,
  detail: string | null,
  route?: string,
): Promise<boolean> {
  const sent = await move(tx, message, accepted(providerMessageId, at, detail, route));
  if (!sent) return false;
  await tx.credits.capture(message.accountId, message.costMicros, message.id, at);
  if (message.costMicros > 0) tx.meter.creditsCaptured(message.costMicros);
  await afterMove(tx, sent, at);
  return true;
}

/**
 * The message failed for good. Before a provider accepted it the reservation is released (a
 * technical failure costs nothing); after, the charge stands, as the provider was paid, unless
 * the channel says the provider does not bill such a failure (`failAccepted`).
 */
export async function recordFailed(tx: Store, message: Message, reason: FailureReason, at: number): Promise<boolean> {
  if (await failQueued(tx, message, reason, at)) return true;
  return failAccepted(tx, message, reason, at);
}

/**
 * Fails a message a provider had taken (`sent`); false when it is no longer sent. Its charge was
 * captured and stands, except for a failure its channel calls unbilled (StatusHooks.unbilled):
 * then the charge is refunded with the move (a `refund` ledger row; `credits_used` shows 0).
 */
async function failAccepted(tx: Store, message: Message, reason: FailureReason, at: number): Promise<boolean> {
  const unbilled = tx.channels.hooksOf(message.channel)?.unbilled?.(reason) === true;
  const change = { from: ['sent'], to: 'failed', at, detail: reason.code, error: reason } as const;
  const error = { error: { code: reason.code, message: reason.message } };
  const failed = await move(tx, message, unbilled ? Object.assign({ chargeState: 'refunded' as const }, change) : change, error);
  if (!failed) return false;
  // Only a sent message moves here, and a sent message's cost was captured: giving it back once is
  // exact. Never dated before its capture (a provider's times may be whole seconds).
  if (unbilled) await tx.credits.refund(message.accountId, message.costMicros, message.id, Math.max(at, message.sentAt ?? at));
  await afterMove(tx, failed, at, reason);
  return true;
}

/**
 * Fails a message still queued (no provider took it) and releases its credits; false when it is no
 * longer queued. The worker that holds it fails it so (its hand-over mark is cleared); anyone else
 * (`byWorker: false`) only while no worker holds it, as a cancel does.
 */
export async function failQueued(tx: Store, message: Message, reason: FailureReason, at: number, byWorker = true): Promise<boolean> {
  const error = { error: { code: reason.code, message: reason.message } };
  const change = { from: ['queued'], to: 'failed', at, detail: reason.code, chargeState: 'released', error: reason } as const;
  const failed = await move(
    tx,
    message,
    byWorker ? Object.assign({ clearInFlight: true }, change) : Object.assign({ requireNotInFlight: true }, change),
    error,
  );
  if (!failed) return false;
  await tx.credits.release(message.accountId, message.costMicros, message.id, at);
  await tx.jobs.deleteForMessage(message.id);
  await afterMove(tx, failed, at, reason);
  return true;
}

/** Cancels a message no worker has taken for a hand-over yet (claimed or in flight); false when it is too late. */
export async function cancelQueued(tx: Store, message: Message, at: number): Promise<boolean> {
  if (message.status !== 'queued' || message.dispatchState !== null) return false;
  const canceled = await move(tx, message, {
    from: ['queued'],
    to: 'canceled',
    at,
    detail: null,
    chargeState: 'released',
    requireNotInFlight: true,
    // Why it waited no longer matters: it will not be sent.
    error: null,
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
export async function applyReceipts(tx: Store, given: readonly ProviderReceipt[]): Promise<ReceiptResult[]> {
  const receipts = await withMessageIds(tx, given);
  const results: ReceiptResult[] = new Array(receipts.length);
  const perMessage = new Map<string, number>();
  for (const receipt of receipts) if (receipt.messageId) perMessage.set(receipt.messageId, (perMessage.get(receipt.messageId) ?? 0) + 1);
  const quick: number[] = [];
  const oneByOne: number[] = [];
  for (const [i, receipt] of receipts.entries()) {
    const single = receipt.messageId !== undefined && perMessage.get(receipt.messageId) === 1;
    // Our ids name their channel (msg_sms_...): a receipt for an id of another channel is left to
    // the one-by-one path, which finds it unmatched.
    const ofItsChannel = receipt.messageId?.startsWith(`msg_${receipt.channel}_`) === true;
    (single && ofItsChannel && receipt.status === 'delivered' ? quick : oneByOne).push(i);
  }

  // Straight from sent to delivered, which is what nearly every receipt finds: one update that
  // returns what moved.
  const deliverAll = async (indexes: readonly number[]) => {
    const moves = indexes.map((i): Move => {
      const receipt = receipts[i] as ProviderReceipt;
      const at = receipt.occurredAt;
      return {
        messageId: receipt.messageId as string,
        change: { from: ['sent'], to: 'delivered', at, detail: receipt.code ?? null, deliveredAt: at },
      };
    });
    const delivered = new Set<string>();
    for (const message of await moveMany(tx, moves)) {
      delivered.add(message.id);
      await afterMove(tx, message, message.deliveredAt as number);
    }
    return delivered;
  };
  const delivered = await deliverAll(quick);
  const left = quick.filter((i) => !delivered.has((receipts[i] as ProviderReceipt).messageId as string));
  for (const i of quick) if (delivered.has((receipts[i] as ProviderReceipt).messageId as string)) results[i] = 'applied';

  // The rest: no such message (or not of that channel), already past sent, or still queued (the
  // receipt overtook our record of the hand-over, and implies the acceptance first).
  const found = new Map(
    (await tx.messages.findByIds(left.map((i) => (receipts[i] as ProviderReceipt).messageId as string))).map((m) => [m.id, m]),
  );
  // Sent by now: the hand-over's record committed between the update above and this read (PostgreSQL).
  const again: number[] = [];
  const implied: number[] = [];
  for (const i of left) {
    const receipt = receipts[i] as ProviderReceipt;
    const message = found.get(receipt.messageId as string);
    if (!message || message.channel !== receipt.channel) results[i] = 'unmatched';
    else if (message.status === 'queued') implied.push(i);
    else if (message.status === 'sent') again.push(i);
    else results[i] = 'ignored';
  }
  if (implied.length > 0 || again.length > 0) {
    await recordAcceptedMany(
      tx,
      implied.map((i) => {
        const receipt = receipts[i] as ProviderReceipt;
        return {
          messageId: receipt.messageId as string,
          providerMessageId: receipt.providerMessageId,
          at: receipt.occurredAt,
          detail: 'accepted (implied by a receipt)',
          route: receipt.route,
        };
      }),
    );
    const deliveredLate = await deliverAll([...implied, ...again]);
    for (const i of [...implied, ...again]) {
      results[i] = deliveredLate.has((receipts[i] as ProviderReceipt).messageId as string) ? 'applied' : 'ignored';
    }
  }

  for (const i of oneByOne) results[i] = await applyReceiptIn(tx, receipts[i] as ProviderReceipt);
  return results;
}

/**
 * Counts receipts by channel and by what they did (core/meter.ts), once each: a caller that keeps
 * an unmatched receipt to try again later leaves it out (`final`) until it is matched or dropped.
 */
export function countReceipts(
  tx: Store,
  receipts: readonly ProviderReceipt[],
  results: readonly ReceiptResult[],
  final: (index: number) => boolean = () => true,
): void {
  if (tx.meter === NO_METER) return;
  const counts = new Map<string, number>();
  receipts.forEach((receipt, i) => {
    if (!final(i)) return;
    const key = `${receipt.channel} ${results[i]}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  for (const [key, count] of counts) {
    const [channel, result] = key.split(' ') as [string, ReceiptResult];
    tx.meter.receipts(channel, result, count);
  }
}

/**
 * Receipts that name their message by the provider's id only (SMPP) get our id, found for all of
 * them in two queries rather than two a receipt, so they take the quick path too. A receipt for a
 * part of a message, or for no message, is left as it is (the one-by-one path handles it).
 */
async function withMessageIds(tx: Store, receipts: readonly ProviderReceipt[]): Promise<readonly ProviderReceipt[]> {
  // By channel and route: each route's ids are its own (two SMSCs may give the same id).
  const byKey = new Map<string, { channel: ProviderReceipt['channel']; route: string | undefined; indexes: number[] }>();
  for (const [i, receipt] of receipts.entries()) {
    if (receipt.messageId !== undefined) continue;
    const key = `${receipt.channel}\n${receipt.route ?? ''}`;
    const group = byKey.get(key);
    if (group) group.indexes.push(i);
    else byKey.set(key, { channel: receipt.channel, route: receipt.route, indexes: [i] });
  }
  if (byKey.size === 0) return receipts;
  const named = [...receipts];
  for (const { channel, route, indexes } of byKey.values()) {
    const ids = await tx.messages.messageIdsByProviderIds(
      channel,
      indexes.map((i) => {
        const receipt = receipts[i] as ProviderReceipt;
        return [receipt.providerMessageId, ...(receipt.alternativeIds ?? [])];
      }),
      route,
    );
    indexes.forEach((i, k) => {
      const messageId = ids[k];
      if (messageId !== undefined && messageId !== 'part') named[i] = Object.assign({}, receipts[i], { messageId });
    });
  }
  return named;
}

async function applyReceiptIn(tx: Store, receipt: ProviderReceipt): Promise<ReceiptResult> {
  const match: { message?: Message | undefined; part?: PartKey | undefined } | undefined = receipt.messageId
    ? { message: await tx.messages.findById(receipt.messageId) }
    : await tx.messages.findByProviderIds(receipt.channel, [receipt.providerMessageId, ...(receipt.alternativeIds ?? [])], receipt.route);
  const found = match?.message;
  if (!found || found.channel !== receipt.channel) return 'unmatched';
  let message = found;
  const at = receipt.occurredAt;
  // A receipt for one part of a multi-part message: a failed part fails the message; a delivered
  // one delivers it only once every part is delivered.
  if (match?.part && (receipt.status === 'delivered' || receipt.status === 'failed')) {
    const { undelivered } = await tx.messages.settlePart(receipt.channel, match.part, receipt.status);
    if (receipt.status === 'delivered' && undelivered > 0) return 'applied';
  }
  // A receipt that is the channel's own event (an email complaint), not a status: it neither
  // implies nor needs any transition.
  if (!isStatusReceipt(receipt)) {
    const event = tx.channels.hooksOf(message.channel)?.event;
    return event ? await event(tx, message, receipt.status, at) : 'ignored';
  }
  if (message.status === 'queued') {
    // Overtook the record of its hand-over, which will find the message sent: the route is the receipt's.
    if (await recordAccepted(tx, message, receipt.providerMessageId, at, 'accepted (implied by a receipt)', receipt.route)) {
      message = withChanges(message, { status: 'sent' });
    }
  }
  switch (receipt.status) {
    case 'delivered': {
      const delivered = await move(tx, message, { from: ['sent'], to: 'delivered', at, detail: receipt.code ?? null, deliveredAt: at });
      if (delivered) await afterMove(tx, delivered, at);
      return delivered ? 'applied' : 'ignored';
    }
    case 'read': {
      // Read implies delivered: a message read without a delivery receipt (or before it) was delivered then.
      const read =
        (await move(tx, message, { from: ['sent'], to: 'read', at, detail: null, deliveredAt: at })) ??
        (await move(tx, message, { from: ['delivered'], to: 'read', at, detail: null }));
      return read ? 'applied' : 'ignored';
    }
    case 'failed': {
      const reason = {
        code: receipt.code ?? 'UNDELIVERABLE',
        message: receipt.message ?? 'The provider reported the message undeliverable.',
      };
      return (await failAccepted(tx, message, reason, at)) ? 'applied' : 'ignored';
    }
  }
}
