import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from './sender.js';

describe('posting a webhook (sender.ts)', () => {
  let server: Server;
  let port: number;
  const hanging: ServerResponse[] = [];
  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      request.resume();
      if (request.url === '/hang') hanging.push(response);
      else if (request.url === '/big') response.end('x'.repeat(200 * 1024));
      else response.writeHead(202).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const target = (path: string) => ({
    ok: true as const,
    url: new URL(`http://receiver.example:${port}${path}`),
    address: '127.0.0.1',
    family: 4 as const,
  });

  it('answers the receiver status, connecting to the address checked rather than the name', async () => {
    const result = await postWebhook(target('/'), '{}', { 'x-test': '1' }, 2_000);
    expect(result).toMatchObject({ statusCode: 202, error: undefined });
  });

  it('reads at most 64 KiB of an answer and still answers its status', async () => {
    expect(await postWebhook(target('/big'), '{}', {}, 2_000)).toMatchObject({ statusCode: 200 });
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const result = await postWebhook(target('/hang'), '{}', {}, 150);
    expect(result).toMatchObject({ statusCode: undefined, error: 'no answer within 150 ms' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(140);
  });

  it('stops when the worker stops, and leaves no listener on its signal once done', async () => {
    const worker = new AbortController();
    const posting = postWebhook(target('/hang'), '{}', {}, 60_000, worker.signal);
    await new Promise((resolve) => setTimeout(resolve, 50));
    worker.abort();
    expect(await posting).toMatchObject({ statusCode: undefined, error: 'no answer within 60000 ms' });

    const other = new AbortController();
    expect(await postWebhook(target('/'), '{}', {}, 2_000, other.signal)).toMatchObject({ statusCode: 202 });
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
    const timedOut = new AbortController();
    await postWebhook(target('/hang'), '{}', {}, 50, timedOut.signal);
    expect(getEventListeners(timedOut.signal, 'abort')).toHaveLength(0);
  });

  it('does not start when the worker has stopped already', async () => {
    const worker = new AbortController();
    worker.abort();
    const result = await postWebhook(target('/'), '{}', {}, 2_000, worker.signal);
    expect(result.statusCode).toBeUndefined();
    expect(result.error).toBe('no answer within 2000 ms');
  });
});
