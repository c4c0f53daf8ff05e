import type { Channel } from '../ids.js';

/**
 * A recipient an account must not send to on one channel (docs/suppression.md): they opted out,
 * their address bounced or complained, they blocked the bot, or the account put them there. A send
 * to them is refused before anything is charged (422 RECIPIENT_SUPPRESSED; in a bulk send, listed
 * in `rejected`).
 */
export interface Suppression {
  accountId: string;
  channel: Channel;
  /** As sends name it: E.164 for SMS and WhatsApp, the address (lower-cased) for email, the chat id for Telegram. */
  recipient: string;
  reason: SuppressionReason;
  source: SuppressionSource;
  /** Free text from whoever added it by hand; null otherwise. */
  note: string | null;
  createdAt: number;
}

/** Why a recipient is suppressed. */
export const SUPPRESSION_REASONS = ['opt_out', 'hard_bounce', 'complaint', 'blocked', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** Where the entry came from: the API or dashboard, or what the channel reported. */
export const SUPPRESSION_SOURCES = [
  'api',
  'dashboard',
  'email_bounce',
  'email_complaint',
  'email_unsubscribe',
  'telegram_blocked',
  'whatsapp_opt_out',
  'inbound',
] as const;
export type SuppressionSource = (typeof SUPPRESSION_SOURCES)[number];

export const isSuppressionReason = (value: string): value is SuppressionReason =>
  (SUPPRESSION_REASONS as readonly string[]).includes(value);
