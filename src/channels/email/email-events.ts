import type { HookedMessage, StatusHooks } from '../../core/channels.js';
import { emitEvent } from '../../core/events/emit-event.js';
import type { EventType } from '../../core/events/event-types.js';
import { monotonicTimeOrderedId } from '../../core/ids.js';
import type { EmailEventType, Store } from '../../core/ports.js';
import { addSuppression } from '../../core/suppressions/manage-suppressions.js';

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

/**
 * Failures that say the address cannot receive mail, for good (a hard bounce): the provider's
 * bounce, the recipient refused, and the replies to RCPT TO for a mailbox that does not exist or is
 * not accepted (550, 551, 553; RFC 5321 §4.2.2). The SMTP provider gives these plain codes only for
 * the recipient's own refusal (smtp.provider.ts, permanentCode): a refused sender or content, a
 * policy (5.7.x) refusal, a full mailbox (552) or any 4xx is not the address's fault.
 */
const HARD_BOUNCES = new Set(['BOUNCED', 'SMTP_REJECTED', 'SMTP_550', 'SMTP_551', 'SMTP_553']);

/**
 * The failure event of an email: a bounce when the provider says so, any other failure otherwise.
 * A hard bounce also puts the address on the account's suppression list, in the same transaction.
 */
export async function recordEmailFailure(
  tx: Store,
  message: EmailMessage,
  reason: { code: string; message: string },
  at: number,
): Promise<void> {
  await recordEmailEvent(tx, message, reason.code === 'BOUNCED' ? 'bounced' : 'failed', at, { code: reason.code, message: reason.message });
  if (message.channel === 'email' && HARD_BOUNCES.has(reason.code)) {
    await addSuppression(tx, {
      accountId: message.accountId,
      channel: 'email',
      recipient: message.to,
      reason: 'hard_bounce',
      source: 'email_bounce',
      at,
    });
  }
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
  // Someone who marked mail as spam is not mailed again (mailbox providers expect it).
  await addSuppression(tx, {
    accountId: message.accountId,
    channel: 'email',
    recipient: message.to,
    reason: 'complaint',
    source: 'email_complaint',
    at,
  });
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
