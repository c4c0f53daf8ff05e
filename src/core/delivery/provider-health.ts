import type { Clock } from '../clock.js';
import {
  type HandOverGate,
  type LinkError,
  linkText,
  type OutboundMessage,
  operatorText,
  type Provider,
  type ProviderHealth,
  type SendOutcome,
  thrownLinkError,
} from './provider.js';

const MINUTE_MS = 60_000;

export interface HealthLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** A provider that keeps count of how it is doing. */
export interface TrackedProvider extends Provider {
  health(): ProviderHealth;
  /** Counts a receipt of this provider's channel that matched no message. */
  noteUnmatchedReceipt(): void;
}

/** Outcome codes that say something about the provider, not about one message. */
const isProviderTrouble = (outcome: SendOutcome) => !outcome.ok && outcome.retryable;

/**
 * Wraps a provider to watch it: hand-overs in flight, messages taken in the last minute, the last
 * error, and whether it is reachable (its own link state where it keeps one, otherwise whether the
 * last hand-over got an answer). A change between working and failing is logged once each way.
 */
export function trackHealth(provider: Provider, clock: Clock, logger?: HealthLogger): TrackedProvider {
  let inFlight = 0;
  let reached: boolean | null = null;
  let lastError: (LinkError & { at: number }) | null = null;
  let unmatched = 0;
  let failing = false;
  // Acceptance times within the last minute, oldest first.
  const sent: number[] = [];

  const prune = (now: number) => {
    while (sent.length > 0 && (sent[0] as number) <= now - MINUTE_MS) sent.shift();
  };

  const setFailing = (value: boolean, error?: string) => {
    if (value === failing) return;
    failing = value;
    const fields = { channel: provider.channel, provider: provider.name };
    if (value) logger?.warn({ error, ...fields }, 'provider failing; its messages wait and are retried');
    else logger?.info(fields, 'provider working again');
  };

  const noteOutcome = (outcome: SendOutcome, now: number) => {
    if (outcome.ok) {
      reached = true;
      sent.push(now);
      setFailing(false);
    } else if (isProviderTrouble(outcome)) {
      // Answered normally (a retryable refusal), as opposed to unreachable or lost mid-send.
      reached = !outcome.maybeAccepted && !outcome.unavailable;
      lastError = { code: outcome.code, text: outcome.detail ?? outcome.message, at: now };
      setFailing(true, operatorText(outcome));
    } else {
      reached = true; // a permanent refusal of one message: the provider answered
    }
  };

  const noteThrow = (error: unknown) => {
    reached = false;
    lastError = Object.assign(thrownLinkError(error), { at: clock.now() });
    setFailing(true, linkText(lastError));
  };

  /** Runs a hand-over of `count` messages, counting them in flight and noting how each went. */
  async function track(count: number, handOver: () => Promise<SendOutcome[]>): Promise<SendOutcome[]> {
    inFlight += count;
    try {
      const outcomes = await handOver();
      const now = clock.now();
      for (const outcome of outcomes) noteOutcome(outcome, now);
      prune(now);
      return outcomes;
    } catch (error) {
      noteThrow(error);
      throw error;
    } finally {
      inFlight -= count;
    }
  }

  // The gate is passed on: a provider that gates its hand-overs must get it, or it would hand
  // over messages only claimed, which a crash would then leave to be sent a second time.
  const send = async (message: OutboundMessage, signal: AbortSignal, handOver?: HandOverGate): Promise<SendOutcome> =>
    (await track(1, async () => [await provider.send(message, signal, handOver)]))[0] as SendOutcome;
  const sendMany = provider.sendMany?.bind(provider);

  const tracked: TrackedProvider = Object.assign({}, provider, {
    send,
    ...(sendMany
      ? {
          sendMany: (messages: readonly OutboundMessage[], signal: AbortSignal) => track(messages.length, () => sendMany(messages, signal)),
        }
      : {}),
    health() {
      const now = clock.now();
      prune(now);
      const linkError = provider.lastError?.();
      const error = linkError ? { code: linkError.code, text: linkError.text, at: lastError?.at ?? now } : lastError;
      return {
        channel: provider.channel,
        provider: provider.name,
        connected: provider.connected ? provider.connected() : reached,
        last_error: error ? linkText(error) : null,
        last_error_code: error?.code ?? null,
        last_error_at: error ? new Date(error.at).toISOString() : null,
        in_flight: inFlight,
        sent_last_minute: sent.length,
        unmatched_receipts: unmatched,
        ...(provider.links ? { links: provider.links() } : {}),
        ...(provider.routes ? { routes: provider.routes() } : {}),
      };
    },
    noteUnmatchedReceipt() {
      unmatched++;
    },
  });
  return tracked;
}
