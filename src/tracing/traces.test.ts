import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import { startReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';
import type { Provider, SendOutcome } from '../core/delivery/provider.js';
import { OtelTracing } from './otel-tracing.js';

/** A caller's own trace: Herald's spans of its request join it. */
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

/**
 * Traces of a message's life (core/tracing.ts), exported to an in-memory exporter at once: the
 * request, its accept, and across the queue the job, the hand-over to the provider, the receipt
 * and the webhook deliveries, all in one trace, each naming its parent.
 */
describeEachDialect('traces of a message', (dialect) => {
  let t: TestApp;
  let exporter: InMemorySpanExporter;
  let tracing: OtelTracing;
  let receiver: WebhookReceiver;
  let token: string;

  beforeEach(async () => {
    exporter = new InMemorySpanExporter();
    tracing = new OtelTracing({
      exporter,
      serviceName: 'herald-test',
      thread: 'main',
      sampleRatio: 1,
      processor: (exported) => new SimpleSpanProcessor({ exporter: exported }),
    });
    t = await createTestApp(dialect, { tracing });
    token = await t.tokenFor(await t.createAccount({ credits: 100 }));
    receiver = await startReceiver(() => 204);
  });
  afterEach(async () => {
    await receiver.close();
    await t.close();
    await tracing.shutdown();
  });

  const send = async (headers: Record<string, string> = {}) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/sms/send',
      headers: { authorization: `Bearer ${token}`, ...headers },
      payload: { to: '+14155552671', message: 'traced', callback_url: `${receiver.url}/hook` },
    });
    expect(response.statusCode).toBe(200);
    return response.json().data.message_id as string;
  };
  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => spans().filter((span) => span.name === name);
  const only = (name: string): ReadableSpan => {
    const found = named(name);
    expect(found, name).toHaveLength(1);
    return found[0] as ReadableSpan;
  };
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
  const idOf = (span: ReadableSpan) => span.spanContext().spanId;

  it('shows the request, accept, job, provider, receipt and webhook spans of one SMS in one trace', async () => {
    const messageId = await send({ 'x-request-id': 'req-traced' });
    await t.drain();
    await receiver.waitFor(2, 5_000);
    await t.drain();

    const request = only('POST /v1/sms/send');
    const accept = only('accept messages');
    const job = only('deliver sms');
    const handOver = only('sandbox send');
    const delivered = only('message delivered');
    const webhooks = named('webhook POST');
    const traceId = request.spanContext().traceId;
    for (const span of [accept, job, handOver, delivered, ...webhooks]) expect(span.spanContext().traceId).toBe(traceId);

    expect(request.kind).toBe(1); // server
    expect(request.attributes).toMatchObject({
      'http.route': '/v1/sms/send',
      'http.response.status_code': 200,
      'herald.request_id': 'req-traced',
    });
    expect(parentOf(accept)).toBe(idOf(request));
    expect(accept.attributes).toMatchObject({ 'herald.channel': 'sms', 'herald.messages': 1 });
    // Across the queue: the job's parent is the context the message stored.
    expect(parentOf(job)).toBe(idOf(accept));
    expect(job.kind).toBe(4); // consumer
    expect(job.attributes).toMatchObject({ 'herald.message_id': messageId, 'herald.attempt': 1, 'herald.outcome': 'accepted' });
    expect(parentOf(handOver)).toBe(idOf(job));
    expect(handOver.kind).toBe(2); // client
    expect(handOver.attributes['herald.provider_message_id']).toEqual(expect.any(String));
    expect(parentOf(delivered)).toBe(idOf(accept));
    // message.sent and message.delivered, each to the callback_url.
    expect(webhooks.map(parentOf)).toEqual([idOf(accept), idOf(accept)]);
    expect(webhooks.map((span) => span.attributes['http.response.status_code'])).toEqual([204, 204]);
    expect(webhooks.map((span) => span.attributes['herald.event_type']).sort()).toEqual(['message.delivered', 'message.sent']);
    // Nothing failed.
    expect(spans().filter((span) => span.status.code === 2)).toEqual([]);
    // The message keeps where it came from.
    expect(await t.store.messages.findById(messageId)).toMatchObject({
      requestId: 'req-traced',
      traceContext: `00-${traceId}-${idOf(accept)}-01`,
    });
  });

  it("joins a caller's trace when the request carries a traceparent", async () => {
    await send({ traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` });
    await t.drain();
    const request = only('POST /v1/sms/send');
    expect(request.spanContext().traceId).toBe(CALLER_TRACE);
    expect(parentOf(request)).toBe(CALLER_SPAN);
    expect(only('deliver sms').spanContext().traceId).toBe(CALLER_TRACE);
  });

  it('ignores a malformed traceparent: the request starts a trace of its own', async () => {
    await send({ traceparent: 'not-a-trace-context' });
    const request = only('POST /v1/sms/send');
    expect(parentOf(request)).toBeUndefined();
    expect(request.spanContext().traceId).toMatch(/^[\da-f]{32}$/);
  });

  it('marks a failed hand-over and shows each attempt as a job span of the same trace', async () => {
    let calls = 0;
    const once: Provider = {
      name: 'flaky',
      channel: 'sms',
      async send(): Promise<SendOutcome> {
        calls++;
        return calls === 1
          ? { ok: false, retryable: true, code: 'THROTTLED', message: 'try later' }
          : { ok: true, providerMessageId: 'flaky-1', delivered: false };
      },
    };
    t.providers.sms = once;
    await send();
    await t.drain();
    t.clock.advance(60_000);
    await t.drain();

    const jobs = named('deliver sms');
    expect(jobs.map((span) => span.attributes['herald.attempt'])).toEqual([1, 2]);
    expect(jobs.map((span) => span.attributes['herald.outcome'])).toEqual(['retry', 'accepted']);
    const handOvers = named('flaky send');
    expect(handOvers.map((span) => span.status.code)).toEqual([2, 0]);
    expect(handOvers[0]?.attributes).toMatchObject({ 'herald.error_code': 'THROTTLED', 'herald.retryable': true });
    // One trace: the send's (the token request made one of its own).
    const traceIds = new Set(
      spans()
        .filter((span) => span.name !== 'POST /oauth/token')
        .map((span) => span.spanContext().traceId),
    );
    expect(traceIds.size).toBe(1);
  });

  it('marks a message that failed for good', async () => {
    t.providers.sms = {
      name: 'refusing',
      channel: 'sms',
      async send(): Promise<SendOutcome> {
        return { ok: false, retryable: false, code: 'INVALID_DESTINATION', message: 'no such number' };
      },
    };
    await send();
    await t.drain();
    expect(only('deliver sms').status).toMatchObject({ code: 2, message: 'INVALID_DESTINATION' });
    expect(only('message failed').status).toMatchObject({ code: 2, message: 'INVALID_DESTINATION' });
  });
});

describeEachDialect('messages without traces', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(() => t.close());

  it('keep the id of the request that created them, and no trace context', async () => {
    const token = await t.tokenFor(await t.createAccount({ credits: 10 }));
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/sms/send',
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'req-untraced' },
      payload: { to: '+14155552671', message: 'not traced' },
    });
    expect(response.statusCode).toBe(200);
    const stored = await t.store.messages.findById(response.json().data.message_id);
    expect(stored).toMatchObject({ requestId: 'req-untraced', traceContext: null });
  });
});
