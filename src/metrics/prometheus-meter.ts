import { getHeapSpaceStatistics } from 'node:v8';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { MICROS_PER_CREDIT } from '../core/credits.js';
import type { MessageStatus } from '../core/messages/message.js';
import type { HandOverOutcome, Meter, WebhookOutcome } from '../core/meter.js';

/**
 * Seconds, from a millisecond (an HTTP answer, a local commit) to a minute (a slow carrier, a
 * receiver at its timeout): the buckets of every duration Herald reports.
 */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The counters and histograms of one thread of Herald, in a registry of its own (never prom-client's
 * global one: a process may hold several, as a test does, and a dispatch thread holds its own).
 * It is the `Meter` of core/ (messages, hand-overs, receipts, webhooks, credits) and the HTTP
 * layer's (requests, refusals). Labels are channels, providers, outcomes, route templates, methods
 * and status codes: bounded, whatever the traffic (no account, message, recipient or URL).
 */
export class PrometheusMeter implements Meter {
  readonly registry = new Registry();
  readonly #messages: Counter<'channel' | 'status'>;
  readonly #handOvers: Histogram<'channel' | 'provider' | 'outcome'>;
  readonly #receipts: Counter<'channel' | 'result'>;
  readonly #webhooks: Histogram<'outcome'>;
  readonly #credits: Counter;
  readonly #deliveredAfter: Histogram<'channel'>;
  readonly #transactions: Histogram;
  readonly #groups: Histogram;
  readonly #requests: Counter<'route' | 'method' | 'status'>;
  readonly #requestSeconds: Histogram<'route' | 'method'>;
  readonly #shed: Counter<'kind'>;

  /**
   * `process`: also the process's own metrics (CPU, memory, event loop, collections): one thread per
   * process does. `thread`: the label of this thread's own heap (`herald_heap_space_size_bytes`).
   */
  constructor(options: { process: boolean; thread?: 'main' | 'dispatch' }) {
    const registers = [this.registry];
    const thread = options.thread ?? 'main';
    // Each thread has a heap of its own (nodejs_heap_* shows the main thread's alone); read at each scrape.
    new Gauge({
      name: 'herald_heap_space_size_bytes',
      help: "Each thread's JavaScript heap by V8 space, as reserved: new_space is the young generation (the dispatch thread's is DISPATCH_SEMI_SPACE_MB), old_space what outlived it.",
      labelNames: ['thread', 'space'],
      registers,
      collect() {
        for (const space of getHeapSpaceStatistics()) this.set({ thread, space: space.space_name }, space.space_size);
      },
    });
    this.#messages = new Counter({
      name: 'herald_messages_total',
      help: 'Messages that moved to a status (queued: accepted), counted once stored.',
      labelNames: ['channel', 'status'],
      registers,
    });
    this.#handOvers = new Histogram({
      name: 'herald_handover_duration_seconds',
      help: 'Hand-overs to providers (SMPP submit_sm, SMTP, HTTP APIs), by how they ended: accepted, refused, retry (refused for now) or unknown (no answer that says).',
      labelNames: ['channel', 'provider', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.#receipts = new Counter({
      name: 'herald_receipts_total',
      help: 'Delivery receipts and status reports from providers, by what they did: applied, ignored (nothing to change) or unmatched (no such message).',
      labelNames: ['channel', 'result'],
      registers,
    });
    this.#webhooks = new Histogram({
      name: 'herald_webhook_attempt_duration_seconds',
      help: 'Webhook delivery attempts, by outcome: delivered (2xx), retry, or failed (given up).',
      labelNames: ['outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.#credits = new Counter({
      name: 'herald_credits_captured_total',
      help: 'Credits captured for messages their providers took.',
      registers,
    });
    this.#deliveredAfter = new Histogram({
      name: 'herald_delivered_after_seconds',
      help: "How long after its provider took a message its delivery receipt came (the carrier's delay), by channel.",
      labelNames: ['channel'],
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400],
      registers,
    });
    this.#transactions = new Histogram({
      name: 'herald_store_transaction_duration_seconds',
      help: 'Store transactions, from their start to their commit (or rollback): the fsync on SQLite, the round trips on PostgreSQL.',
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.#groups = new Histogram({
      name: 'herald_group_commit_units',
      help: 'Units of work written by one group commit (SQLite): batches of sends, waves of a worker.',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 500],
      registers,
    });
    this.#requests = new Counter({
      name: 'herald_http_requests_total',
      help: 'HTTP requests answered by the API, by route template, method and status (429: rate-limited).',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.#requestSeconds = new Histogram({
      name: 'herald_http_request_duration_seconds',
      help: 'Time to answer HTTP requests, from their arrival to their last byte, by route template and method.',
      labelNames: ['route', 'method'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.#shed = new Counter({
      name: 'herald_http_shed_total',
      help: 'Requests refused with 503 by load shedding, before any work was done for them, by kind (send, token, other).',
      labelNames: ['kind'],
      registers,
    });
    if (options.process) collectDefaultMetrics({ register: this.registry });
  }

  messages(channel: string, status: MessageStatus, count: number): void {
    this.#messages.inc({ channel, status }, count);
  }

  handOver(channel: string, provider: string, outcome: HandOverOutcome, seconds: number): void {
    this.#handOvers.observe({ channel, provider, outcome }, seconds);
  }

  receipts(channel: string, result: 'applied' | 'ignored' | 'unmatched', count: number): void {
    this.#receipts.inc({ channel, result }, count);
  }

  webhookAttempt(outcome: WebhookOutcome, seconds: number): void {
    this.#webhooks.observe({ outcome }, seconds);
  }

  creditsCaptured(micros: number): void {
    this.#credits.inc(micros / MICROS_PER_CREDIT);
  }

  deliveredAfter(channel: string, seconds: number): void {
    this.#deliveredAfter.observe({ channel }, seconds);
  }

  transaction(seconds: number): void {
    this.#transactions.observe(seconds);
  }

  groupCommit(units: number): void {
    this.#groups.observe(units);
  }

  /** An HTTP request answered: `route` is its template (`/v1/messages/:id`), or `unmatched`. */
  request(route: string, method: string, status: number, seconds: number): void {
    this.#requests.inc({ route, method, status: String(status) });
    this.#requestSeconds.observe({ route, method }, seconds);
  }

  /** A request refused by load shedding. */
  shed(kind: 'send' | 'token' | 'other'): void {
    this.#shed.inc({ kind });
  }
}
