import type { MessageStatus } from '../messages/message.js';

/** Every kind of event a receiver can subscribe to (docs/webhooks.md, "Event kinds"); `*` means all of them. */
export const EVENT_TYPES = [
  'message.sent',
  'message.delivered',
  'message.read',
  'message.failed',
  'message.canceled',
  'email.opened',
  'email.clicked',
  'email.bounced',
  'email.complained',
  'message.received',
  'suppression.created',
  'suppression.deleted',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
export const ALL_EVENTS = '*';

const known = new Set<string>(EVENT_TYPES);
export const isEventType = (value: string): value is EventType => known.has(value);

/** The event a status change produces; `queued` produces none (the send response said it). */
export function statusEventType(status: MessageStatus): EventType | undefined {
  return status === 'queued' ? undefined : (`message.${status}` as EventType);
}

/** Whether a webhook subscribed to `subscribed` wants an event of `type`. */
export const subscribes = (subscribed: readonly string[], type: EventType): boolean =>
  subscribed.includes(ALL_EVENTS) || subscribed.includes(type);
