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
  | {
      ok: true;
      providerMessageId: string;
      delivered?: boolean;
      /** Multi-part messages the provider took part by part (SMPP): each part's id, in order. */
      partIds?: string[];
      /** The route that carried it, for a provider with several (core/delivery/routed-provider.ts): recorded on the message. */
      route?: string;
    }
  | {
      ok: false;
      retryable: boolean;
      code: string;
      /** What the account sees (the message's `error`, its webhooks): the provider's answer, never our own links' trouble. */
      message: string;
      /**
       * The operator's words for it, where they say more than `message` (a socket error naming the
       * SMSC's host, a refused bind): logged and shown on the operator's system page; never to the
       * account, nor on `/readyz` (no token), which shows the code alone.
       */
      detail?: string;
      retryAfterMs?: number;
      /**
       * The provider may hold the message anyway (the connection dropped after the request was
       * written): the next attempt asks it first (lookup) instead of assuming it must send again.
       */
      maybeAccepted?: boolean;
      /**
       * The provider cannot take any message now — its link is down, or it says it is overloaded
       * (SMPP throttling) — so nothing about this message was tried. Such retries count toward the
       * age limit only, never the attempt limit: an outage makes messages wait rather than fail.
       */
      unavailable?: boolean;
    };

/**
 * What the dispatcher does with a message whose earlier hand-over has an unknown outcome: it was
 * marked in flight, and its worker died (or the provider's answer was lost) before the outcome was
 * recorded. The provider may or may not hold it.
 *
 * - `resend`: hand it over again (at-least-once: the recipient may get it twice).
 * - `hold`: never hand it over again (at-most-once): it becomes `sent` with the error
 *   `HANDOVER_UNCONFIRMED`, and its `message.sent` event says so, so the sender can decide.
 * - `ask`: ask the provider (`lookup`) and send again only when it says it does not hold the message.
 */
export type RecoveryPolicy = 'resend' | 'hold' | 'ask';
export const RECOVERY_POLICIES: readonly RecoveryPolicy[] = ['resend', 'hold', 'ask'];

/**
 * Records, durably, that a message is about to leave the process, so that a crash from then on
 * leaves it in doubt, and a crash before leaves it plainly not handed over (docs/delivery.md).
 * Resolves true once recorded: the provider then hands the message over. Resolves false when the
 * message may no longer be handed over (it is no longer this worker's: taken over, or moved on);
 * rejects when the record could not be made. In both cases the provider hands nothing over and
 * returns an outcome that is not `ok`; the dispatcher knows why and ignores its detail.
 */
export type HandOverGate = () => Promise<boolean>;

/** True when a message in doubt on this channel is never handed over again (`hold`, or `ask` without `lookup`). */
export function holdsInDoubt(provider: Provider, configured?: RecoveryPolicy): boolean {
  const policy = recoveryPolicyOf(provider, configured);
  return policy === 'hold' || (policy === 'ask' && !provider.lookup);
}

export interface Provider {
  /** Shown in logs and status details, e.g. `sandbox`, `smpp`. */
  readonly name: string;
  readonly channel: Channel;
  /**
   * The policy for a hand-over in doubt when the configuration names none: `ask` for a provider
   * with `lookup`, else `resend` unless the provider says otherwise (docs/delivery.md says why).
   */
  readonly recovery?: RecoveryPolicy;
  /** Messages per second this provider may be sent; the dispatcher keeps to it. Unlimited when absent. */
  readonly maxPerSecond?: number;
  /**
   * True when `send` calls the `handOver` gate it is given itself, at the last moment before the
   * message leaves the process (SMPP: once its window slot and throughput turn are taken, before the
   * submit_sm of its first unacknowledged part is written). Without it, the dispatcher passes the
   * gate right before calling `send` or `sendMany`, and gives them none.
   */
  readonly gatesHandOver?: boolean;
  /**
   * Hands one message over. `handOver`, given only to a provider that `gatesHandOver` and only for
   * a message whose channel holds hand-overs in doubt, must be awaited once before any byte of the
   * message leaves the process; see HandOverGate.
   */
  send(message: OutboundMessage, signal: AbortSignal, handOver?: HandOverGate): Promise<SendOutcome>;
  /**
   * Hands several messages over at once, for providers that take batches (the sandbox records
   * them in a few statements): one outcome per message, in order. Without it, the dispatcher
   * calls `send` for each, concurrently.
   */
  sendMany?(messages: readonly OutboundMessage[], signal: AbortSignal): Promise<SendOutcome[]>;
  /**
   * Whether the provider already holds this message, asked before re-sending one whose earlier
   * hand-over has an unknown outcome (a crash or timeout mid-send). Providers that cannot say
   * leave it out, and such a message is sent again (at-least-once).
   */
  lookup?(messageId: string): Promise<{ providerMessageId: string } | undefined>;
  /**
   * Whether this process can finish a message whose earlier hand-over it left in doubt, knowing
   * exactly what the provider took (SMPP: the acknowledged parts of a long SMS, none of the rest
   * written). Such a message is handed over again, whatever the recovery policy: only what is
   * missing goes, so nothing is sent twice.
   */
  resumable?(messageId: string): boolean;
  /**
   * For a provider with several routes: the route this process last left `messageId` on in doubt
   * (the one that may hold it), recorded on the message held as HANDOVER_UNCONFIRMED.
   */
  inDoubtOn?(messageId: string): string | undefined;
  /** Opens the connections a provider keeps (an SMPP bind); called in processes that dispatch. */
  start?(): void;
  /** Closes them. */
  close?(): Promise<void> | void;
  /** Whether its link is up, for providers that keep one (SMPP). */
  connected?(): boolean;
  /** Why the link is down, if it is (with several links, why one of them is). */
  lastError?(): LinkError | undefined;
  /** For providers that keep several links (SMPP binds): how many are up, of how many. */
  links?(): { up: number; total: number };
  /** Counts a receipt for this provider's channel that matched no message (health tracking). */
  noteUnmatchedReceipt?(): void;
  /** For a provider with several routes (several SMSCs): how each is doing, in the order configured. */
  routes?(): RouteHealth[];
}

/**
 * Why a provider's link is down: a code for machines (`/readyz` shows it alone, e.g.
 * `SMPP_BIND_REFUSED`) and the operator's words (an SMSC's host and port, a refusal naming our
 * login), which only the logs and the operator's pages show.
 */
export interface LinkError {
  code: string;
  text: string;
}

/** One route of a provider with several (docs/routing.md), as `/readyz` shows it. */
export interface RouteHealth {
  name: string;
  /** At least one of its links is up; null for a route that keeps no link. */
  connected: boolean | null;
  links?: { up: number; total: number };
  /** The last error in the operator's words, `CODE: text`. */
  last_error: string | null;
  /** Its code alone. */
  last_error_code: string | null;
}

/** How a provider is doing, as `/readyz` and the logs show it. */
export interface ProviderHealth {
  channel: Channel;
  provider: string;
  /** Link up (SMPP), or the last hand-over reached the provider; null before any was tried. */
  connected: boolean | null;
  /** The last error in the operator's words, `CODE: text`. */
  last_error: string | null;
  /** Its code alone. */
  last_error_code: string | null;
  last_error_at: string | null;
  /** Hand-overs under way now, in this process. */
  in_flight: number;
  /** Messages the provider took in the last 60 s, in this process. */
  sent_last_minute: number;
  /** Receipts dropped because they matched no message, since start. */
  unmatched_receipts: number;
  /** Links up, of how many, for providers that keep several (SMPP binds; with routes, of them all). */
  links?: { up: number; total: number };
  /** Each route, for a provider with several (docs/routing.md): connected while at least one is. */
  routes?: RouteHealth[];
}

/**
 * The route a single link is (SMPP_URL without SMS_ROUTES), recorded on each message it carries.
 * Messages sent before routes were recorded (migration 0023) have none: every SMS then went out
 * through that single link, so they are taken as this route's when a receipt is matched.
 */
export const DEFAULT_ROUTE = 'default';

/**
 * The recorded routes of the messages (and parts) a receipt that came on `route` may be about,
 * for the stores' look-ups by the provider's id: undefined when any (a receipt of a provider with
 * no routes, WhatsApp's or an email bounce's). Otherwise that route's own, and for DEFAULT_ROUTE
 * also those recorded with none (`orNone`): messages sent before migration 0023 went out through
 * the single link that is now the route `default`, so that route's receipts still find them.
 *
 * A receipt from another route never matches a message with no route: SMSCs that count from 1
 * give ids an older message of the single link also has, and such a receipt (one that overtook the
 * record of its own message's acceptance, or came after a restart) would settle that message.
 * So after a switch from SMPP_URL to SMS_ROUTES with no route named `default`, receipts still due
 * for the single link's messages are dropped as unmatched rather than applied to a guess
 * (docs/routing.md says to keep the name `default` for that SMSC).
 */
export function receiptRoutes(route: string | undefined): { route: string; orNone: boolean } | undefined {
  return route === undefined ? undefined : { route, orNone: route === DEFAULT_ROUTE };
}

/** A delivery report from a provider, matched to a message by the provider's id or by ours. */
export interface ProviderReceipt {
  channel: Channel;
  providerMessageId: string;
  /** Other forms the provider's id may have been stored in (SMPP: hex or decimal, case). */
  alternativeIds?: string[] | undefined;
  /** Set when the provider echoes our id back (the sandbox does). */
  messageId?: string | undefined;
  /**
   * The route it came on, for a provider with several (each SMPP route: docs/routing.md). It is
   * matched only to messages (and parts) that route carried: two SMSCs may give the same id to two
   * messages. Without one (a provider with no routes), any message of the channel with the id
   * matches. Recorded if the receipt is what says the message was taken.
   */
  route?: string | undefined;
  /** `complained` (email): the recipient marked it as spam; an event that changes no status. */
  status: 'delivered' | 'failed' | 'read' | 'complained';
  /** The provider's code for a failure, e.g. `UNDELIVERABLE`. */
  code?: string | undefined;
  message?: string | undefined;
  occurredAt: number;
}

export type ProviderRegistry = Readonly<Record<Channel, Provider>>;

/** The provider of a channel. Every channel served has one (channels/providers.ts): a message of another is a defect. */
export function providerOf(providers: ProviderRegistry, channel: Channel): Provider {
  const provider = providers[channel];
  if (!provider) throw new Error(`no provider carries the channel '${channel}'`);
  return provider;
}

/** The policy in force for `provider`: the configured one, else the provider's own default. */
export function recoveryPolicyOf(provider: Provider, configured?: RecoveryPolicy): RecoveryPolicy {
  return configured ?? provider.recovery ?? (provider.lookup ? 'ask' : 'resend');
}

/** A refusal as the operator reads it (logs, the operator's page, a job's last error): its code and its fullest words. */
export function operatorText(outcome: Extract<SendOutcome, { ok: false }>): string {
  return `${outcome.code}: ${outcome.detail ?? outcome.message}`;
}

const CODE = /^[A-Z][A-Z0-9_]{2,}$/;

/** A provider's throw as a link error (it should not throw: refusals are outcomes): its own code if it has one. */
export function thrownLinkError(error: unknown): LinkError {
  const own = (error as { code?: unknown } | null)?.code;
  const code = typeof own === 'string' && CODE.test(own) ? own : 'PROVIDER_ERROR';
  return { code, text: error instanceof Error ? error.message : String(error) };
}

/** A link error in the operator's words, `CODE: text`, as operatorText words a refusal. */
export function linkText(error: LinkError): string {
  return `${error.code}: ${error.text}`;
}
