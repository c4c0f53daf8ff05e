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
 */
export async function emitEvent(tx: Store, input: EventInput): Promise<string> {
  const sequence = await tx.webhooks.nextEventSequence(input.message.id);
  const [id] = await emitEvents(tx, [{ ...input, sequence }]);
  return id as string;
}

/**
 * `emitEvent` for many events at once, each with its per-message sequence number already taken
 * (the status update that caused it advanced the counter): multi-row inserts, and one look-up of
 * the webhooks of every account concerned. Returns the event ids, in order.
 */
export async function emitEvents(tx: Store, inputs: ReadonlyArray<EventInput & { sequence: number }>): Promise<string[]> {
  if (inputs.length === 0) return [];
  const events: StoredEvent[] = inputs.map((input) => {
    const { message, at } = input;
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
    return { id, accountId: message.accountId, messageId: message.id, type: input.type, body, createdAt: at };
  });
  await tx.webhooks.insertEvents(events);

  const webhooks = await tx.webhooks.activeForAccounts(inputs.map((input) => input.message.accountId));
  const deliveries = inputs.flatMap((input, i) => {
    const { message, at } = input;
    const eventId = (events[i] as StoredEvent).id;
    const targets: Array<{ webhookId: string | null; url: string }> = (webhooks.get(message.accountId) ?? [])
      .filter((webhook) => subscribes(webhook.events, input.type))
      .map((webhook) => ({ webhookId: webhook.id, url: webhook.url }));
    if (message.callbackUrl) targets.push({ webhookId: null, url: message.callbackUrl });
    return targets.map((target) => ({ delivery: newDelivery({ accountId: message.accountId, ...target }, eventId, at), at }));
  });
  // Grouped by time, as each delivery's job is due when its event happened.
  const byTime = new Map<number, WebhookDelivery[]>();
  for (const { delivery, at } of deliveries) byTime.set(at, [...(byTime.get(at) ?? []), delivery]);
  for (const [at, group] of byTime) await queueDeliveries(tx, group, at);
  return events.map((event) => event.id);
}
