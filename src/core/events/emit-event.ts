import { monotonicTimeOrderedId } from '../ids.js';
import type { Message } from '../messages/message.js';
import type { Store, StoredEvent, WebhookDelivery } from '../ports.js';
import { type EventType, subscribes } from './event-types.js';
import { newDelivery, queueDeliveries } from './queue-deliveries.js';

export interface EventInput {
  type: EventType;
  message: Pick<Message, 'id' | 'accountId' | 'channel' | 'to' | 'callbackUrl'>;
  /** The message's status after the change. */
  status: string;
  at: number;
  /** Extra fields for `data`: `error` on failures; `user_agent`, `ip` (and `url`) on opens and clicks. */
  data?: Record<string, unknown>;
}

/**
 * Records an event and fans it out, inside the caller's transaction: the event row, one delivery
 * per matching active webhook and one to the message's own callback_url, and a job for each. So an
 * event exists exactly when the change it describes committed, and none is lost on the way to the
 * queue. The body is fixed here; every attempt and replay sends these same bytes.
 *
 * An event nobody is to be told about (no matching webhook, no callback_url) is not stored: events
 * are read only through their deliveries (to send them, to replay them), and the message's status
 * history already records every change. Its sequence number is spent all the same, so what a
 * receiver sees later still counts up with the message's changes.
 */
export async function emitEvent(tx: Store, input: EventInput): Promise<void> {
  const sequence = await tx.webhooks.nextEventSequence(input.message.id);
  await emitEvents(tx, [Object.assign({}, input, { sequence })]);
}

/**
 * `emitEvent` for many events at once, each with its per-message sequence number already taken
 * (the status update that caused it advanced the counter): multi-row inserts, and one look-up of
 * the webhooks of every account concerned.
 */
export async function emitEvents(tx: Store, inputs: ReadonlyArray<EventInput & { sequence: number }>): Promise<void> {
  if (inputs.length === 0) return;
  const webhooks = await tx.webhooks.activeForAccounts(inputs.map((input) => input.message.accountId));
  const events: StoredEvent[] = [];
  const deliveries: Array<{ delivery: WebhookDelivery; at: number }> = [];
  for (const input of inputs) {
    const { message, at } = input;
    const targets: Array<{ webhookId: string | null; url: string }> = (webhooks.get(message.accountId) ?? [])
      .filter((webhook) => subscribes(webhook.events, input.type))
      .map((webhook) => ({ webhookId: webhook.id, url: webhook.url }));
    if (message.callbackUrl) targets.push({ webhookId: null, url: message.callbackUrl });
    if (targets.length === 0) continue;
    const id = `evt_${monotonicTimeOrderedId(at)}`;
    const body = JSON.stringify({
      id,
      type: input.type,
      created_at: new Date(at).toISOString(),
      data: {
        message_id: message.id,
        channel: message.channel,
        to: message.to,
        status: input.status,
        sequence: input.sequence,
        ...input.data,
      },
    });
    events.push({ id, accountId: message.accountId, messageId: message.id, type: input.type, body, createdAt: at });
    for (const target of targets) deliveries.push({ delivery: newDelivery({ accountId: message.accountId, ...target }, id, at), at });
  }
  if (events.length === 0) return;
  await tx.webhooks.insertEvents(events);
  // Grouped by time, as each delivery's job is due when its event happened.
  const byTime = new Map<number, WebhookDelivery[]>();
  for (const { delivery, at } of deliveries) {
    const group = byTime.get(at);
    if (group) group.push(delivery);
    else byTime.set(at, [delivery]);
  }
  for (const [at, group] of byTime) await queueDeliveries(tx, group, at);
}

/** An event of the account rather than of a message it sent: a message received, a suppression list change. */
export interface AccountEventInput {
  accountId: string;
  type: EventType;
  at: number;
  /** The message it is about (a received message's id), or null. */
  messageId: string | null;
  data: Record<string, unknown>;
}

/**
 * Records an account event and fans it out to the account's webhooks subscribed to it, inside the
 * caller's transaction, like `emitEvents`; nothing is stored when none is.
 */
export async function emitAccountEvent(tx: Store, input: AccountEventInput): Promise<void> {
  const webhooks = (await tx.webhooks.activeForAccounts([input.accountId])).get(input.accountId) ?? [];
  const targets = webhooks.filter((webhook) => subscribes(webhook.events, input.type));
  if (targets.length === 0) return;
  const id = `evt_${monotonicTimeOrderedId(input.at)}`;
  const body = JSON.stringify({ id, type: input.type, created_at: new Date(input.at).toISOString(), data: input.data });
  await tx.webhooks.insertEvents([
    { id, accountId: input.accountId, messageId: input.messageId, type: input.type, body, createdAt: input.at },
  ]);
  await queueDeliveries(
    tx,
    targets.map((webhook) => newDelivery({ accountId: input.accountId, webhookId: webhook.id, url: webhook.url }, id, input.at)),
    input.at,
  );
}
