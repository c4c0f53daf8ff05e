import type { Channel } from './ids.js';
import type { InboundMessage } from './inbound/inbound-message.js';
import type { MessageDraft } from './messages/accept-messages.js';
import type { MessageStatus } from './messages/message.js';
import type { Store } from './ports.js';
import type { PriceList } from './pricing.js';
import { ACCOUNT_SCOPES, readScopeOf, type Scope, sendScopeOf } from './scopes.js';

/** The fields of a message a channel's hooks are given. */
export interface HookedMessage {
  id: string;
  accountId: string;
  channel: Channel;
  to: string;
  callbackUrl: string | null;
  status: MessageStatus;
}

/**
 * A channel's own steps in the status machine (core/messages/lifecycle.ts), run in the transaction
 * of the change that calls them, so what they write moves with the status or not at all. Email
 * keeps its event timeline this way (channels/email/email.module.ts); most channels have none.
 */
export interface StatusHooks {
  /** The message was accepted (`queued`) or moved to `message.status` (sent, delivered, failed: with its `reason`). */
  moved?(tx: Store, message: HookedMessage, at: number, reason?: { code: string; message: string }): Promise<void>;
  /**
   * A receipt that is an event of the channel, not a status (an email complaint): 'applied' when it
   * was recorded, 'ignored' when it was already. Receipts of a status no channel claims are ignored.
   */
  event?(tx: Store, message: HookedMessage, status: string, at: number): Promise<'applied' | 'ignored'>;
  /**
   * Whether a failure reported after the provider took the message (a receipt, or a failure after
   * acceptance) is one the provider does not bill: its captured charge is then refunded, in the
   * transaction that fails it. Decided by our own error code, so a failure the channel already maps
   * one way (WhatsApp's SESSION_WINDOW_CLOSED) costs the same whenever it is learnt.
   */
  unbilled?(reason: { code: string; message: string }): boolean;
}

/** What core knows of a channel: its name (message ids `msg_<name>_…`, scopes `<name>:send`, `<name>:read`) and its hooks. */
export interface ChannelDefinition {
  readonly name: Channel;
  readonly hooks?: StatusHooks | undefined;
  /** How a recipient of the channel is written, as its sends accept them (the suppression list keys and checks entries by it). */
  readonly recipients?: RecipientRules | undefined;
  /** An account is being created (in its transaction): what the channel gives it (WhatsApp: the sandbox templates). */
  accountCreated?(tx: Store, accountId: string, at: number): Promise<void>;
  /** What the channel does with messages recipients send (core/inbound/); none where it has no inbound messages. */
  readonly inbound?: InboundRules | undefined;
  /** How an account's own address on the channel is written (core/inbound/addresses.ts refuses others); any text when absent. */
  readonly addresses?: AddressRules | undefined;
}

/** A channel's part in receiving messages (docs/inbound.md). */
export interface InboundRules {
  /** Whether a message that is only STOP, START (and their kin, core/inbound/keywords.ts) changes the suppression list. */
  readonly keywords?: boolean;
  /** The keyword's confirmation as a message to send: to the recipient who wrote, from the account's address they wrote to. */
  reply?(input: { to: string; from: string; text: string }, prices: PriceList): MessageDraft;
  /** Runs in the transaction that stores a received message (WhatsApp opens its 24 h session window). */
  received?(tx: Store, message: InboundMessage): Promise<void>;
}

/** How a channel writes the addresses messages are sent to an account at (docs/inbound.md, "Addresses"). */
export interface AddressRules {
  /** In words, for a refusal: "a number (+14155550100), a short code (12345) or a sender id". */
  readonly description: string;
  /** Whether `address` (trimmed and lower-cased as it is kept: addresses.ts, addressKey) is one. */
  valid(address: string): boolean;
}

/** How a channel names a recipient. */
export interface RecipientRules {
  /** In words, for a refusal: "an E.164 number such as +14155552671". */
  readonly description: string;
  /** Whether `text` is a recipient as the channel's sends accept one. */
  valid(text: string): boolean;
  /** Whether letter case does not tell two recipients apart (email addresses, Telegram usernames): they are kept lower-cased. */
  readonly caseless?: boolean;
  /** The other recipients a stored message goes to, read from its payload (an email's cc): each hand-over checks them against the list too. */
  alsoTo?(payload: Readonly<Record<string, unknown>>): readonly string[];
}

/** A channel's name: lower-case letters and digits, starting with a letter; it is part of ids and scopes. */
export const CHANNEL_NAME = /^[a-z][a-z0-9]{1,15}$/;

/**
 * The channels this Herald serves, in the order of the API reference. Built once by the
 * composition root from its list of channel modules (main/channels.ts) and carried by the Store,
 * so every use case and adapter asks it rather than naming channels.
 */
export class ChannelCatalogue {
  readonly names: readonly Channel[];
  readonly definitions: readonly ChannelDefinition[];
  /** Every scope a token can carry: send and read per channel, then the account scopes, ACCOUNT_SCOPES (docs/authentication.md). */
  readonly scopes: readonly Scope[];
  readonly #byName: ReadonlyMap<Channel, ChannelDefinition>;
  readonly #scopes: ReadonlySet<string>;

  constructor(definitions: readonly ChannelDefinition[]) {
    const byName = new Map<Channel, ChannelDefinition>();
    for (const definition of definitions) {
      if (!CHANNEL_NAME.test(definition.name))
        throw new Error(`a channel's name is 2-16 lower-case letters and digits: '${definition.name}'`);
      if (byName.has(definition.name)) throw new Error(`the channel '${definition.name}' is listed twice`);
      byName.set(definition.name, definition);
    }
    this.#byName = byName;
    this.definitions = [...byName.values()];
    this.names = [...byName.keys()];
    this.scopes = [...this.names.flatMap((name) => [sendScopeOf(name), readScopeOf(name)]), ...ACCOUNT_SCOPES];
    this.#scopes = new Set(this.scopes);
  }

  has(name: string): boolean {
    return this.#byName.has(name);
  }

  isScope(value: string): value is Scope {
    return this.#scopes.has(value);
  }

  /** Scopes in the catalogue's order, without repeats; unknown ones are dropped. */
  normalizeScopes(scopes: Iterable<string>): Scope[] {
    const wanted = new Set(scopes);
    return this.scopes.filter((scope) => wanted.has(scope));
  }

  hooksOf(channel: Channel): StatusHooks | undefined {
    return this.#byName.get(channel)?.hooks;
  }

  /** The channel's recipient rules; none for a channel that declares none (any text, compared as it is). */
  recipientsOf(channel: Channel): RecipientRules | undefined {
    return this.#byName.get(channel)?.recipients;
  }

  /**
   * A recipient as the channel keys it (the suppression list's key): trimmed, and lower-cased where
   * case does not tell recipients apart.
   */
  recipientKey(channel: Channel, recipient: string): string {
    const trimmed = recipient.trim();
    return this.recipientsOf(channel)?.caseless ? trimmed.toLowerCase() : trimmed;
  }

  /**
   * A stored message's other recipients (RecipientRules.alsoTo) from its payload's JSON; none on
   * most channels. Parsed only when the payload holds the key `"cc"` at all: an email's, with its
   * attachments, may be megabytes, and this runs in the hand-over's transaction.
   */
  alsoTo(channel: Channel, payload: string | null): readonly string[] {
    const read = this.recipientsOf(channel)?.alsoTo;
    return read && payload?.includes('"cc"') ? read(JSON.parse(payload) as Record<string, unknown>) : [];
  }

  inboundOf(channel: Channel): InboundRules | undefined {
    return this.#byName.get(channel)?.inbound;
  }

  addressesOf(channel: Channel): AddressRules | undefined {
    return this.#byName.get(channel)?.addresses;
  }
}
