import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got, with the raw body exactly as sent. */
export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Order of arrival (1, 2, ...). */
  n: number;
}

/** How the receiver answers a request: a status, a status with headers, or never ('hang'). */
export type Answer = number | { status: number; headers: Record<string, string> } | 'hang';

/** A webhook receiver on 127.0.0.1 that records every request; closed by `close()`. */
export interface WebhookReceiver {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly received: ReceivedDelivery[];
  /** TCP connections accepted, answered or not. */
  readonly connections: () => number;
  /** Requests received whose answer has not been sent (hanging) and whose socket is still open. */
  readonly open: () => number;
  /** Requests whose socket closed before an answer was sent (the sender gave up). */
  readonly abandoned: () => number;
  /** Highest number of unanswered requests at one time. */
  readonly maxOpen: () => number;
  /** Answers every request left hanging so far with `status`. */
  release(status?: number): void;
  /** Changes how later requests are answered. */
  answer(decide: (request: ReceivedDelivery) => Answer): void;
  /** Called after each request is recorded (before it is answered). */
  onRequest(listener: (request: ReceivedDelivery) => void): void;
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Bodies larger than this are cut off: a receiver in a test never buffers without bound. */
const MAX_BODY_BYTES = 1024 * 1024;

export async function startReceiver(decide: (request: ReceivedDelivery) => Answer = () => 204): Promise<WebhookReceiver> {
  let answerOf = decide;
  const listeners: Array<(request: ReceivedDelivery) => void> = [];
  const received: ReceivedDelivery[] = [];
  const hanging = new Set<ServerResponse>();
  let connections = 0;
  let abandoned = 0;
  let maxOpen = 0;

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) request.destroy();
      else chunks.push(chunk);
    });
    request.on('end', () => {
      const delivery: ReceivedDelivery = {
        path: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        n: received.length + 1,
      };
      received.push(delivery);
      const answer = answerOf(delivery);
      for (const listener of listeners) listener(delivery);
      if (answer === 'hang') {
        hanging.add(response);
        maxOpen = Math.max(maxOpen, hanging.size);
        response.on('close', () => {
          if (hanging.delete(response)) abandoned++;
        });
        return;
      }
      const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      response.writeHead(status, headers).end();
    });
  });
  server.on('connection', () => connections++);
  // Bounded: a stuck client cannot keep the test's server open for long.
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    connections: () => connections,
    open: () => hanging.size,
    abandoned: () => abandoned,
    maxOpen: () => maxOpen,
    answer(next) {
      answerOf = next;
    },
    release(status = 204) {
      for (const response of [...hanging]) {
        hanging.delete(response);
        response.writeHead(status).end();
      }
    },
    onRequest(listener) {
      listeners.push(listener);
    },
    async waitFor(count, timeoutMs) {
      const until = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`the receiver got ${received.length} of ${count} requests within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
