import { monotonicTimeOrderedId } from '../ids.js';
import type { Message } from '../messages/message.js';
import type { Store } from '../ports.js';
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
  const { message, at } = input;
  const id = `evt_${monotonicTimeOrderedId(at)}`;
  const sequence = await tx.webhooks.nextEventSequence(message.id);
  const body = JSON.stringify({
    id,
    type: input.type,
    created_at: new Date(at).toISOString(),
    data: { message_id: message.id, channel: message.channel, to: message.to, status: input.status, sequence, ...input.data },
  });
  await tx.webhooks.insertEvent({ id, accountId: message.accountId, messageId: message.id, type: input.type, body, createdAt: at });

  const targets: Array<{ webhookId: string | null; url: string }> = (await tx.webhooks.active(message.accountId))
    .filter((webhook) => subscribes(webhook.events, input.type))
    .map((webhook) => ({ webhookId: webhook.id, url: webhook.url }));
  if (message.callbackUrl) targets.push({ webhookId: null, url: message.callbackUrl });
  if (targets.length === 0) return id;

  await queueDeliveries(
    tx,
    targets.map((target) => newDelivery({ accountId: message.accountId, ...target }, id, at)),
    at,
  );
  return id;
}
