import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../databases.js';
import type { ProcessEnv } from '../process.js';
import { until } from '../wait.js';
import { startReceiver, type WebhookReceiver } from '../webhook-receiver.js';
import { api } from './api.js';
import { useServerWithAccount } from './server-with-account.js';

/** A span as OTLP/JSON carries it (ids in hex). */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  status?: { code?: number };
  thread: string;
}

/** Every span of every export the stand-in collector received, with the thread that sent it. */
function spansIn(receiver: WebhookReceiver): ExportedSpan[] {
  const spans: ExportedSpan[] = [];
  for (const request of receiver.received) {
    if (request.path !== '/v1/traces') continue;
    const body = JSON.parse(request.body) as {
      resourceSpans: Array<{
        resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
        scopeSpans: Array<{ spans: Array<Omit<ExportedSpan, 'thread'>> }>;
      }>;
    };
    for (const resource of body.resourceSpans) {
      const thread = resource.resource.attributes.find((a) => a.key === 'herald.thread')?.value.stringValue ?? '';
      for (const scope of resource.scopeSpans) for (const span of scope.spans) spans.push({ ...span, thread });
    }
  }
  return spans;
}

/**
 * `herald serve` as an operator runs it, following one message: every log line of its life, from
 * the HTTP request to its webhook, carries its message id and the id of the request that created
 * it; and with an OTLP endpoint set, its spans reach the collector (a stand-in here that records
 * what it is sent, as OTLP/HTTP JSON) from both threads, in one trace.
 */
describeEachDialect('following a message through a running server', (dialect) => {
  let collector: WebhookReceiver;
  let callbacks: WebhookReceiver;
  // Filled before the server starts (this beforeAll runs first): the collector's address is known by then.
  const extra: ProcessEnv = { SANDBOX_DELAY_MS: '0', WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' };
  beforeAll(async () => {
    collector = await startReceiver(() => 200);
    callbacks = await startReceiver(() => 204);
    extra.OTEL_EXPORTER_OTLP_ENDPOINT = `${collector.url}/`;
  });
  afterAll(async () => {
    await collector?.close();
    await callbacks?.close();
  });
  const ctx = useServerWithAccount(dialect, { name: 'Followed', email: 'ops@example.com', credits: 100 }, extra);

  it('logs each step of a message with its message_id and request_id, and exports its spans in one trace', async () => {
    const sent = await api(
      ctx.server.url,
      'POST',
      '/v1/sms/send',
      ctx.token,
      { to: '+14155550100', message: 'follow me', callback_url: `${callbacks.url}/hook` },
      { 'x-request-id': 'req-follow-me' },
    );
    expect(sent.status).toBe(200);
    const messageId: string = sent.body.data.message_id;
    // sent, then delivered: two callbacks.
    await callbacks.waitFor(2, 20_000);

    // One grep: every line about the message, from the request to the webhook, and each names the request.
    const steps = () => ctx.server.logRecords().filter((record) => record.message_id === messageId);
    await until(async () => steps().filter((r) => r.msg === 'webhook delivered').length === 2, 'both webhook lines');
    expect(steps().map((r) => r.msg)).toEqual(
      expect.arrayContaining(['message accepted', 'message sent', 'message delivered', 'webhook delivered']),
    );
    for (const record of steps()) expect(record.request_id).toBe('req-follow-me');
    // And the request's id finds the HTTP request itself.
    const request = ctx.server.logRecords().filter((record) => record.request_id === 'req-follow-me');
    expect(request.map((r) => r.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    // Nothing of the recipient or the text in any of them.
    expect(JSON.stringify(steps())).not.toMatch(/4155550100|follow me/);

    // Stopping exports what both threads still hold (the batch processors flush on shutdown).
    expect(await ctx.server.stop()).toEqual({ code: 0, signal: null });
    console.log(
      spansIn(collector).map((s) => [s.name, s.traceId.slice(0, 6), s.spanId.slice(0, 6), s.parentSpanId?.slice(0, 6), s.thread]),
    );
    const spans = spansIn(collector);
    const request_ = spans.find((s) => s.name === 'POST /v1/sms/send');
    expect(request_?.thread).toBe('main');
    const trace = spans.filter((s) => s.traceId === request_?.traceId);
    const named = (name: string) => trace.filter((s) => s.name === name);
    const accept = named('accept messages')[0];
    const job = named('deliver sms')[0];
    const handOver = named('sandbox send')[0];
    expect(accept?.parentSpanId).toBe(request_?.spanId);
    // Across the queue, in the other thread: the job names the accept as its parent.
    expect(job).toMatchObject({ parentSpanId: accept?.spanId, thread: 'dispatch' });
    expect(handOver?.parentSpanId).toBe(job?.spanId);
    expect(named('message delivered')[0]?.parentSpanId).toBe(accept?.spanId);
    expect(named('webhook POST').map((s) => s.parentSpanId)).toEqual([accept?.spanId, accept?.spanId]);
    // None failed.
    expect(trace.filter((s) => s.status?.code === 2)).toEqual([]);
  });
});
