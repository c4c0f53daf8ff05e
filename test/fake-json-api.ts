import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake API received. */
export interface FakeApiCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export type FakeApiAnswer = { status: number; json: unknown };

/**
 * A stand-in for a provider's JSON HTTP API on loopback (the Telegram Bot API, the Graph API):
 * it records every request and answers what `respond` says for it.
 */
export async function startFakeJsonApi(
  respond: (call: FakeApiCall) => FakeApiAnswer,
): Promise<{ url: string; calls: FakeApiCall[]; close: () => Promise<void> }> {
  const calls: FakeApiCall[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const call = {
        path: request.url ?? '',
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>,
      };
      calls.push(call);
      const { status, json } = respond(call);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
