import { hostname } from 'node:os';
import type { Context, Span, SpanKind, Tracer } from '@opentelemetry/api';
import type { SpanExporter, SpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { loadOnUse } from '../core/load-on-use.js';
import type { SpanKind as HeraldSpanKind, SpanAttributes, SpanOptions, TraceSpan, Tracing } from '../core/tracing.js';

/*
 * OpenTelemetry's packages, loaded by the first OtelTracing made (OTEL_EXPORTER_OTLP_ENDPOINT): a
 * node that exports no traces never loads them (about 3 MB of heap per thread).
 */
const api = loadOnUse<typeof import('@opentelemetry/api')>('@opentelemetry/api');
const core = loadOnUse<typeof import('@opentelemetry/core')>('@opentelemetry/core');
const resources = loadOnUse<typeof import('@opentelemetry/resources')>('@opentelemetry/resources');
const sdk = loadOnUse<typeof import('@opentelemetry/sdk-trace')>('@opentelemetry/sdk-trace');
const otlpHttp = loadOnUse<typeof import('@opentelemetry/exporter-trace-otlp-http')>('@opentelemetry/exporter-trace-otlp-http');

/** Our kinds as OpenTelemetry's (its enum, read once it is loaded). */
function kindOf(kind: HeraldSpanKind): SpanKind {
  const { SpanKind: kinds } = api();
  switch (kind) {
    case 'server':
      return kinds.SERVER;
    case 'client':
      return kinds.CLIENT;
    case 'consumer':
      return kinds.CONSUMER;
    case 'internal':
      return kinds.INTERNAL;
  }
}

/** Attributes without the values left unset (OpenTelemetry takes no null). */
function defined(attributes: SpanAttributes): Record<string, string | number | boolean> {
  const kept: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== null && value !== undefined) kept[key] = value;
  return kept;
}

/** A span of ours: the SDK's span and the traceparent text others name it by. */
class OtelSpan implements TraceSpan {
  readonly traceparent: string;

  constructor(readonly span: Span) {
    const context = span.spanContext();
    this.traceparent = `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
  }

  set(attributes: SpanAttributes): void {
    this.span.setAttributes(defined(attributes));
  }

  fail(reason: string): void {
    this.span.setStatus({ code: api().SpanStatusCode.ERROR, message: reason });
  }

  end(): void {
    this.span.end();
  }
}

/** The context a parent names: a span of this process, or a traceparent from elsewhere (unreadable: none). */
function contextOf(parent: SpanOptions['parent']): Context {
  const { ROOT_CONTEXT, trace } = api();
  if (!parent) return ROOT_CONTEXT;
  if (parent instanceof OtelSpan) return trace.setSpan(ROOT_CONTEXT, parent.span);
  const text = typeof parent === 'string' ? parent : parent.traceparent;
  const remote = text ? core().parseTraceParent(text) : null;
  return remote ? trace.setSpanContext(ROOT_CONTEXT, remote) : ROOT_CONTEXT;
}

export interface OtelTracingOptions {
  /** Where finished spans go: OTLP over HTTP in a server (otlpExporter), an in-memory exporter in tests. */
  exporter: SpanExporter;
  /** `service.name` of every span (OTEL_SERVICE_NAME; `herald` by default). */
  serviceName: string;
  /** Which thread of its process: `main`, or `dispatch` (a server's dispatch thread). */
  thread: 'main' | 'dispatch';
  /** The share of new traces kept (0 to 1); a trace begun elsewhere follows its caller's decision. */
  sampleRatio: number;
  /** A processor of the tests' choosing (a simple one, exporting at once); batches by default. */
  processor?: (exporter: SpanExporter) => SpanProcessor;
}

/**
 * The Tracing port on OpenTelemetry's SDK. No global provider and no context manager: every
 * span names its parent (core/tracing.ts), so nothing is set up for code that does not trace, and
 * an ambient context (AsyncLocalStorage) costs nothing on the hot path. Spans are exported in
 * batches off the request path; `shutdown` sends what is left.
 */
export class OtelTracing implements Tracing {
  readonly enabled = true;
  readonly #provider: TracerProvider;
  readonly #tracer: Tracer;

  constructor(options: OtelTracingOptions) {
    const { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider } = sdk();
    this.#provider = new TracerProvider({
      resource: resources().resourceFromAttributes({
        'service.name': options.serviceName,
        'host.name': hostname(),
        'process.pid': process.pid,
        'herald.thread': options.thread,
      }),
      sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(options.sampleRatio) }),
      spanProcessors: [(options.processor ?? ((exporter) => new BatchSpanProcessor({ exporter })))(options.exporter)],
    });
    this.#tracer = this.#provider.getTracer('herald');
  }

  start(name: string, options: SpanOptions = {}): TraceSpan {
    const span = this.#tracer.startSpan(
      name,
      { kind: kindOf(options.kind ?? 'internal'), ...(options.attributes ? { attributes: defined(options.attributes) } : {}) },
      contextOf(options.parent),
    );
    return new OtelSpan(span);
  }

  /** Exports what is still buffered and stops. */
  async shutdown(withinMs = 2_000): Promise<void> {
    // Bounded: a collector out of reach must not hold a node's stop (its spans are then lost).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#provider.shutdown().catch(() => {}),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, withinMs);
      }),
    ]);
    clearTimeout(timer);
  }
}

/** Spans to an OpenTelemetry collector: OTLP over HTTP, JSON bodies (a collector takes them on its port 4318). */
export function otlpExporter(settings: { url: string; headers: Record<string, string> }): SpanExporter {
  return new (otlpHttp().OTLPTraceExporter)({ url: settings.url, headers: settings.headers, timeoutMillis: 5_000 });
}
