import type { Channel } from '../ids.js';

/** What a provider is given to send. */
export interface OutboundMessage {
  id: string;
  accountId: string;
  channel: Channel;
  to: string;
  sender: string | null;
  body: string | null;
  /** Channel-specific fields (template, email parts, keyboard...), parsed from the stored JSON. */
  payload: Record<string, unknown> | null;
  segments: number | null;
  /** 1 for the first hand-over, 2 for the first retry, ... */
  attempt: number;
}

/**
 * The outcome of one hand-over, as a value: a provider never throws for a rejection it understood.
 * A thrown error or an abort means the outcome is unknown (the message may or may not be at the
 * provider), which the dispatcher treats as retryable.
 */
export type SendOutcome =
  /** `delivered`: the provider's acceptance is delivery itself (Telegram sends no receipts). */
  | { ok: true; providerMessageId: string; delivered?: boolean }
  | {
      ok: false;
      retryable: boolean;
      code: string;
      message: string;
      retryAfterMs?: number;
      /**
       * The provider may hold the message anyway (the connection dropped after the request was
       * written): the next attempt asks it first (lookup) instead of assuming it must send again.
       */
      maybeAccepted?: boolean;
    };

export interface Provider {
  /** Shown in logs and status details, e.g. `sandbox`, `smpp`. */
  readonly name: string;
  readonly channel: Channel;
  /** Messages per second this provider may be sent; the dispatcher keeps to it. Unlimited when absent. */
  readonly maxPerSecond?: number;
  send(message: OutboundMessage, signal: AbortSignal): Promise<SendOutcome>;
  /**
   * Whether the provider already holds this message, asked before re-sending one whose earlier
   * hand-over has an unknown outcome (a crash or timeout mid-send). Providers that cannot say
   * leave it out, and such a message is sent again (at-least-once).
   */
  lookup?(messageId: string): Promise<{ providerMessageId: string } | undefined>;
}

/** A delivery report from a provider, matched to a message by the provider's id or by ours. */
export interface ProviderReceipt {
  channel: Channel;
  providerMessageId: string;
  /** Set when the provider echoes our id back (the sandbox does). */
  messageId?: string | undefined;
  /** `complained` (email): the recipient marked it as spam; an event that changes no status. */
  status: 'delivered' | 'failed' | 'read' | 'complained';
  /** The provider's code for a failure, e.g. `UNDELIVERABLE`. */
  code?: string | undefined;
  message?: string | undefined;
  occurredAt: number;
}

export type ProviderRegistry = Record<Channel, Provider>;
