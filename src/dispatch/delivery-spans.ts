import type { Provider, SendOutcome } from '../core/delivery/provider.js';
import type { Message } from '../core/messages/message.js';
import type { ClaimedJob } from '../core/ports.js';
import type { TraceSpan, Tracing } from '../core/tracing.js';
import type { Ending } from './delivery-endings.js';

/**
 * The spans of one delivery batch (core/tracing.ts), made only when traces are on: for each message
 * that keeps a trace context, a consumer span from the claim of its job to its ending, in the trace
 * of the request that created it (linked across the queue by the context the message stores), and
 * inside it a client span for each hand-over to its provider.
 */
export class DeliverySpans {
  readonly #jobs = new Map<string, TraceSpan>();

  constructor(private readonly tracing: Tracing) {}

  /** The message's job span starts (its job was claimed and the message marked for hand-over). */
  claimed(message: Message, job: ClaimedJob): void {
    if (!message.traceContext) return;
    this.#jobs.set(
      message.id,
      this.tracing.start(`deliver ${message.channel}`, {
        kind: 'consumer',
        parent: message.traceContext,
        attributes: {
          'herald.message_id': message.id,
          'herald.job_id': job.id,
          'herald.attempt': message.attempts + 1,
          'herald.channel': message.channel,
        },
      }),
    );
  }

  /** A hand-over of the message to `provider` begins; end the span it returns with `handedOver`. */
  handOver(message: Message, provider: Provider): TraceSpan | undefined {
    const job = this.#jobs.get(message.id);
    if (!job) return undefined;
    return this.tracing.start(`${provider.name} send`, {
      kind: 'client',
      parent: job,
      attributes: { 'herald.provider': provider.name, 'herald.message_id': message.id },
    });
  }

  /** Ends, as failed, the spans of messages that got no ending (the batch threw before they did). */
  abandon(reason: string): void {
    for (const span of this.#jobs.values()) {
      span.fail(reason);
      span.end();
    }
    this.#jobs.clear();
  }

  /** How the message's job ended: its span ends with it. */
  ended(ending: Ending): void {
    const span = this.#jobs.get(ending.message.id);
    if (!span) return;
    this.#jobs.delete(ending.message.id);
    span.set({ 'herald.outcome': ending.kind });
    if (ending.kind === 'failed') span.fail(ending.reason.code);
    span.end();
  }
}

/** Ends a hand-over's span with what the provider answered. */
export function handedOver(span: TraceSpan | undefined, outcome: SendOutcome): void {
  if (!span) return;
  if (outcome.ok) span.set({ 'herald.provider_message_id': outcome.providerMessageId });
  else {
    span.set({ 'herald.error_code': outcome.code, 'herald.retryable': outcome.retryable });
    span.fail(outcome.code);
  }
  span.end();
}
