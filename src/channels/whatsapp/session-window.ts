import type { Store } from '../../core/ports.js';

/**
 * WhatsApp's customer-service window: free-form (session) messages may be sent to someone for
 * 24 hours after their last message to the account. The window is [last inbound, last inbound + 24 h).
 */
export const SESSION_WINDOW_MS = 24 * 3600_000;

export type SessionWindow =
  | { open: true; closesAt: number }
  /** `closedAt` is undefined when the recipient never wrote to the account. */
  | { open: false; closedAt: number | undefined };

/** Whether the account may send a session message to `phone` at `now`. */
export async function sessionWindowOf(store: Store, accountId: string, phone: string, now: number): Promise<SessionWindow> {
  const lastInboundAt = await store.inbound.lastInboundAt(accountId, phone);
  if (lastInboundAt === undefined) return { open: false, closedAt: undefined };
  const end = lastInboundAt + SESSION_WINDOW_MS;
  return now < end ? { open: true, closesAt: end } : { open: false, closedAt: end };
}
