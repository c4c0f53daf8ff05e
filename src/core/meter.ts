import type { Channel } from './ids.js';
import type { MessageStatus } from './messages/message.js';

/**
 * What Herald counts and times as it works, for operators (docs/operations.md, "Metrics"): a port,
 * filled by metrics/ (Prometheus) in a server or worker process and by nothing elsewhere. Counted
 * inside a transaction (`tx.meter`), a count is told to the process's meter once it commits: a
 * rolled-back write is not counted.
 *
 * Labels are bounded by construction: channels, provider names, outcomes. Never an account, a
 * message, a recipient or an address.
 */
export interface Meter {
  /** `count` messages of `channel` moved to `status` (`queued`: accepted). */
  messages(channel: Channel, status: MessageStatus, count: number): void;
  /** One hand-over to a provider ended, `seconds` after it began. */
  handOver(channel: Channel, provider: string, outcome: HandOverOutcome, seconds: number): void;
  /** `count` receipts of `channel` were applied, or matched nothing, or changed nothing. */
  receipts(channel: Channel, result: 'applied' | 'ignored' | 'unmatched', count: number): void;
  /** One webhook delivery attempt ended, `seconds` after it began. */
  webhookAttempt(outcome: WebhookOutcome, seconds: number): void;
  /** Credits captured for messages their providers took (micro-credits). */
  creditsCaptured(micros: number): void;
  /** A message of `channel` was delivered `seconds` after its provider took it (the receipt's delay). */
  deliveredAfter(channel: Channel, seconds: number): void;
  /** A store transaction committed (or failed) `seconds` after it began. */
  transaction(seconds: number): void;
  /** A group commit wrote `units` units of work (sends' batches, workers' waves) in one transaction. */
  groupCommit(units: number): void;
}

/**
 * How a hand-over ended: the provider took the message; refused it for good; refused it for now;
 * or gave no answer that says (a timeout, a lost connection: it may hold the message).
 */
export type HandOverOutcome = 'accepted' | 'refused' | 'retry' | 'unknown';

/**
 * A delivery the receiver took (2xx); one to be tried again (an error, a timeout, a URL the SSRF
 * guard refused); one given up (out of attempts, 410 Gone, or its webhook disabled).
 */
export type WebhookOutcome = 'delivered' | 'retry' | 'failed';

const nothing = () => {};

/** Counts nothing: tests and commands that serve no metrics. */
export const NO_METER: Meter = {
  messages: nothing,
  handOver: nothing,
  receipts: nothing,
  webhookAttempt: nothing,
  creditsCaptured: nothing,
  deliveredAfter: nothing,
  transaction: nothing,
  groupCommit: nothing,
};
