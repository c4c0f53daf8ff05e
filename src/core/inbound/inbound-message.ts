import type { Channel } from '../ids.js';

/**
 * A message as a channel's provider heard it (an SMSC's deliver_sm, a Bot API update, a Cloud API
 * webhook, an email handed to Herald's SMTP listener), before Herald knows whose it is.
 */
export interface ReceivedMessage {
  channel: Channel;
  /** Who wrote, as the channel names recipients: E.164 for SMS and WhatsApp, the chat id for Telegram, the address for email. */
  from: string;
  /** The address it was sent to: the account's number, sender id, bot or email address (see channel addresses). */
  to: string;
  text: string;
  receivedAt: number;
  /** The provider's id of it: a second delivery of the same id adds nothing. */
  providerMessageId?: string | undefined;
  /** What the channel adds, shown as the message's `details` (an email's subject, a Telegram username). */
  details?: Record<string, unknown> | undefined;
  /**
   * The provider's id of the message this one answers (WhatsApp's `context.id`, a `wamid`): when it
   * is one the same account sent through Herald, `details.in_reply_to` names that message by
   * Herald's id, as the sandbox's answers do.
   */
  repliesTo?: string | undefined;
  /**
   * A long message joined from parts kept by `InboundPort.addPart` under this key: they are removed
   * in the transaction that stores it (and when they are already gone, another node or a resend
   * stored it first: nothing is added). `route`: the route its parts came on (InboundPart).
   */
  joinedFrom?: { from: string; to: string; reference: number; route?: string | undefined } | undefined;
}

/** A received message stored for its account: `GET /v1/messages/{id}`, `direction: inbound`. */
export interface InboundMessage extends ReceivedMessage {
  id: string;
  accountId: string;
  createdAt: number;
}

/** An address of a channel that belongs to an account: inbound messages to it are the account's. */
export interface ChannelAddress {
  channel: Channel;
  address: string;
  accountId: string;
  createdAt: number;
}

/** An account's confirmation texts for one language; an empty text sends no confirmation. */
export interface KeywordReplies {
  language: string;
  stopReply: string;
  startReply: string;
}

/**
 * A received message as the API shows it and `message.received` carries it (docs/inbound.md):
 * one shape for both, so a receiver's event and a later GET agree.
 */
export function inboundMessageView(message: InboundMessage) {
  return {
    message_id: message.id,
    direction: 'inbound' as const,
    channel: message.channel,
    from: message.from,
    to: message.to,
    text: message.text,
    details: message.details ?? {},
    received_at: new Date(message.receivedAt).toISOString(),
    created_at: new Date(message.createdAt).toISOString(),
  };
}
