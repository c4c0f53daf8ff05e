import { expect, it } from 'vitest';
import { describeEachDialect } from '../databases.js';
import { metricsUrlOf } from '../process.js';
import { sampleOf } from '../prometheus-text.js';
import { until } from '../wait.js';
import { api } from './api.js';
import { useServerWithAccount } from './server-with-account.js';

/**
 * `herald serve` with METRICS_PORT: its own listener, the sum of its two threads (the API thread
 * counts accepts and requests, the dispatch thread hand-overs, receipts and webhooks), the
 * process's own metrics, and figures that add up to what the store holds.
 */
describeEachDialect('GET /metrics of a running server', (dialect) => {
  const ctx = useServerWithAccount(
    dialect,
    { name: 'Metrics', email: 'ops@example.com', credits: 1000 },
    { METRICS_PORT: '0', SANDBOX_DELAY_MS: '0', DISPATCH_SEMI_SPACE_MB: '1' },
  );

  const scrape = async () => {
    const response = await fetch(metricsUrlOf(ctx.server), { signal: AbortSignal.timeout(10_000) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  it('is served on a listener of its own, on loopback, not on the API', async () => {
    const metricsUrl = metricsUrlOf(ctx.server);
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(metricsUrl).port).not.toBe(new URL(ctx.server.url).port);
    expect((await fetch(`${ctx.server.url}/metrics`)).status).toBe(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).toBe(404);
    expect((await fetch(metricsUrlOf(ctx.server), { method: 'POST' })).status).toBe(405);
  });

  it('adds up both threads: messages accepted by the API thread, sent and delivered by the dispatch thread, as the store says', async () => {
    const sends = 20;
    for (let i = 0; i < sends; i++) {
      expect((await api(ctx.server.url, 'POST', '/v1/sms/send', ctx.token, { to: `+1415555${3000 + i}`, message: 'hello' })).status).toBe(
        200,
      );
    }
    let text = '';
    await until(async () => {
      text = await scrape();
      return sampleOf(text, 'herald_messages_total', { channel: 'sms', status: 'delivered' }) === sends;
    }, 'every message delivered, as counted');
    expect(sampleOf(text, 'herald_messages_total', { channel: 'sms', status: 'queued' })).toBe(sends);
    expect(sampleOf(text, 'herald_messages_total', { channel: 'sms', status: 'sent' })).toBe(sends);
    expect(sampleOf(text, 'herald_handover_duration_seconds_count', { channel: 'sms', provider: 'sandbox', outcome: 'accepted' })).toBe(
      sends,
    );
    expect(sampleOf(text, 'herald_credits_captured_total')).toBe(sends);
    expect(sampleOf(text, 'herald_http_requests_total', { route: '/v1/sms/send', method: 'POST', status: '200' })).toBe(sends);
    expect(sampleOf(text, 'herald_provider_links', { channel: 'sms', provider: 'sandbox' })).toBe(1);
    expect(sampleOf(text, 'herald_provider_in_flight', { channel: 'sms', provider: 'sandbox' })).toBe(0);
    // The process's own, once (not summed over its threads).
    expect(sampleOf(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(text.match(/^nodejs_heap_size_used_bytes /m)).not.toBeNull();
    // The store agrees.
    const listed = await api(ctx.server.url, 'GET', '/v1/messages?status=delivered&limit=100', ctx.token);
    expect(listed.status).toBe(200);
    expect(listed.body.data.pagination.total).toBe(sends);
  });

  it("shows each thread's heap by space, the dispatch thread's young generation held to DISPATCH_SEMI_SPACE_MB", async () => {
    const text = await scrape();
    const MiB = 1024 * 1024;
    const dispatchYoung = sampleOf(text, 'herald_heap_space_size_bytes', { thread: 'dispatch', space: 'new_space' });
    const mainYoung = sampleOf(text, 'herald_heap_space_size_bytes', { thread: 'main', space: 'new_space' });
    // Two semi-spaces of 1 MiB at most; the main thread, which started with V8's own, grew past that
    // loading the same modules (as the dispatch thread would have without the setting).
    expect(dispatchYoung).toBeGreaterThan(0);
    expect(dispatchYoung).toBeLessThanOrEqual(2 * MiB);
    expect(mainYoung).toBeGreaterThan(2 * MiB);
    expect(sampleOf(text, 'herald_heap_space_size_bytes', { thread: 'dispatch', space: 'old_space' })).toBeGreaterThan(MiB);
  });
});
