/**
 * Traces of a message's life, for operators (docs/operations.md, "Traces"): a port, filled by
 * tracing/ (OpenTelemetry, exported over OTLP) when an endpoint is configured, and by NO_TRACING
 * otherwise, which costs a property read per step.
 *
 * A span's parent is given, never taken from an ambient context: a span of this process, or the
 * W3C `traceparent` text of one from elsewhere (an incoming request's header, the trace context a
 * message keeps for the jobs that serve it in another thread or process).
 */
export interface Tracing {
  /** False for NO_TRACING: callers skip building names and attributes. */
  readonly enabled: boolean;
  start(name: string, options?: SpanOptions): TraceSpan;
}

export type SpanKind = 'server' | 'client' | 'consumer' | 'internal';

export interface SpanOptions {
  parent?: TraceSpan | string | null | undefined;
  kind?: SpanKind | undefined;
  attributes?: SpanAttributes | undefined;
}

export type SpanAttributes = Record<string, string | number | boolean | null | undefined>;

export interface TraceSpan {
  /** The span's W3C traceparent (`00-<trace id>-<span id>-<flags>`): what a child elsewhere names as its parent. */
  readonly traceparent: string | null;
  set(attributes: SpanAttributes): void;
  /** Marks the span as failed, with why (not a secret: a code, a status, an error's message). */
  fail(reason: string): void;
  end(): void;
}

const NO_SPAN: TraceSpan = { traceparent: null, set() {}, fail() {}, end() {} };

/** Traces nothing (the default: no OTLP endpoint configured). */
export const NO_TRACING: Tracing = { enabled: false, start: () => NO_SPAN };
