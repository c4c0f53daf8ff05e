import type { HookedMessage, StatusHooks } from '../../core/channels.js';
import { emitEvent } from '../../core/events/emit-event.js';
import type { EventType } from '../../core/events/event-types.js';
import { monotonicTimeOrderedId } from '../../core/ids.js';
import type { EmailEventType, Store } from '../../core/ports.js';

/** Email events that are also webhook events (the others are told as `message.*` status events). */
const WEBHOOK_EVENTS: Partial<Record<EmailEventType, EventType>> = {
  opened: 'email.opened',
  clicked: 'email.clicked',
  bounced: 'email.bounced',
  complained: 'email.complained',
};

type EmailMessage = HookedMessage;

/**
 * The email event timeline (docs/email.md, "Events"). Lifecycle steps of an email append their
 * event here (emailStatusHooks) in the same transaction as the status change, so the timeline and
 * the status never disagree; opens, clicks and complaints are events only, never statuses.
 */
export async function recordEmailEvent(
  tx: Store,
  message: EmailMessage,
  type: EmailEventType,
  at: number,
  data: Record<string, unknown> | null = null,
): Promise<void> {
  if (message.channel !== 'email') return;
  // Monotonic ids keep events of one millisecond in the order they were written (the list orders by time, then id).
  await tx.emailEvents.append({ id: `eev_${monotonicTimeOrderedId(at)}`, messageId: message.id, type, occurredAt: at, data });
  const webhookEvent = WEBHOOK_EVENTS[type];
  if (webhookEvent) await emitEvent(tx, { type: webhookEvent, message, status: message.status, at, ...(data ? { data } : {}) });
}

/** The failure event of an email: a bounce when the provider says so, any other failure otherwise. */
export async function recordEmailFailure(
  tx: Store,
  message: EmailMessage,
  reason: { code: string; message: string },
  at: number,
): Promise<void> {
  await recordEmailEvent(tx, message, reason.code === 'BOUNCED' ? 'bounced' : 'failed', at, { code: reason.code, message: reason.message });
}

/**
 * A recipient marked the email as spam. It changes no status; a complaint reported twice (a
 * receipt job run again after a crash) is recorded once. False when it was already recorded or the
 * message is not an email.
 */
export async function recordEmailComplaint(tx: Store, message: EmailMessage, at: number): Promise<boolean> {
  if (message.channel !== 'email') return false;
  const events = await tx.emailEvents.list(message.id);
  if (events.some((event) => event.type === 'complained')) return false;
  await recordEmailEvent(tx, message, 'complained', at);
  return true;
}

/** Email's steps in the status machine: each move of an email appends its event to the timeline. */
export const emailStatusHooks: StatusHooks = {
  async moved(tx, message, at, reason) {
    if (message.status === 'failed' && reason) await recordEmailFailure(tx, message, reason, at);
    else if (message.status === 'queued' || message.status === 'sent' || message.status === 'delivered')
      await recordEmailEvent(tx, message, message.status, at);
  },
  async event(tx, message, status, at) {
    if (status !== 'complained') return 'ignored';
    return (await recordEmailComplaint(tx, message, at)) ? 'applied' : 'ignored';
  },
};
