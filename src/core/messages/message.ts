import type { Channel } from '../ids.js';

/** A message's status (docs/messages-and-credits.md, "Statuses"). `queued` also covers a message waiting for its `scheduled_at`. */
export const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'canceled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * Where a message's cost is: held, charged, given back before a provider took it (`released`), or
 * given back after (`refunded`: the provider reported it undelivered and did not bill it).
 */
export type ChargeState = 'reserved' | 'captured' | 'released' | 'refunded';

/**
 * Where a worker is with a message's hand-over (null: no worker has it). `claimed`: taken, not yet
 * handed over, so a crash leaves it plainly unsent. `in_flight`: possibly at the provider, so a
 * crash leaves it in doubt and the channel's recovery policy applies (docs/delivery.md).
 */
export type DispatchState = 'claimed' | 'in_flight';

export interface StatusChange {
  status: MessageStatus;
  /** Milliseconds since the epoch. */
  occurredAt: number;
  /** Extra context such as a provider's code; absent for ordinary transitions. */
  detail: string | null;
}

export interface Message {
  id: string;
  accountId: string;
  channel: Channel;
  to: string;
  sender: string | null;
  body: string | null;
  status: MessageStatus;
  segments: number | null;
  costMicros: number;
  chargeState: ChargeState;
  callbackUrl: string | null;
  scheduledAt: number | null;
  createdAt: number;
  sentAt: number | null;
  deliveredAt: number | null;
  error: { code: string; message: string } | null;
  providerMessageId: string | null;
  /**
   * `claimed` once a worker has taken the message and before it leaves the process (only on
   * channels that hold hand-overs in doubt); `in_flight` from then until the outcome is stored.
   */
  dispatchState: DispatchState | null;
  /** Hand-overs to a provider so far. */
  attempts: number;
  /** The bulk request the message came from, if any. */
  batchId: string | null;
  /**
   * The id of the HTTP request that created the message (its X-Request-Id): every log line of the
   * message's life carries it (docs/operations.md, "Following a message"). Null for messages
   * accepted before it was stored.
   */
  requestId: string | null;
  /** The W3C traceparent of the message's accept: its later spans join that trace. Null when traces are off. */
  traceContext: string | null;
  /** The route that carried it (an SMSC of several, docs/routing.md); null before, or on a channel without routes. */
  route: string | null;
}

/** Where a message came from: the request that created it and that request's trace (see Message). */
export type Origin = Pick<Message, 'requestId' | 'traceContext'>;

/** No request behind it (a test, a command): nothing to follow it by but its id. */
export const NO_ORIGIN: Origin = { requestId: null, traceContext: null };

/**
 * What the customer is charged for a message: its cost unless the charge was released (failed
 * before a provider accepted it, or canceled) or refunded (failed after, unbilled), which costs nothing.
 */
export const creditsUsedMicros = (message: Pick<Message, 'costMicros' | 'chargeState'>): number =>
  message.chargeState === 'released' || message.chargeState === 'refunded' ? 0 : message.costMicros;

/**
 * Forward-only progress of the successful path; failed and canceled are terminal and reachable
 * only from the states listed in the lifecycle. A status never goes back.
 */
export const FINAL_STATUSES: ReadonlySet<MessageStatus> = new Set(['delivered', 'read', 'failed', 'canceled']);

/**
 * The history as it stood when `message` was read. The row and its history are two reads, and a
 * worker may move the message on between them; statuses only move forward and never repeat, so
 * the history up to the message's status is the one that matches it.
 */
export function historyAsOf(message: Message, history: StatusChange[]): StatusChange[] {
  const end = history.findIndex((change) => change.status === message.status);
  return end < 0 ? history : history.slice(0, end + 1);
}
