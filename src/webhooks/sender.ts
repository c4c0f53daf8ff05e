import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Target } from './ssrf-guard.js';

export interface PostResult {
  /** The receiver's HTTP status, when it answered. */
  statusCode: number | undefined;
  /** Why there was no answer (timeout, refused, reset ...). */
  error: string | undefined;
  latencyMs: number;
}

/** How much of a receiver's answer is read; the rest is dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs a webhook body to the address the SSRF guard checked, never to a fresh DNS answer.
 * Redirects are not followed (a 3xx is an answer like any non-2xx), and the whole exchange is
 * bounded by `timeoutMs`. The bound is a timer and the worker's `signal` a listener, both taken
 * down when the exchange ends: `AbortSignal.any` of a timeout signal and the worker's, made for
 * every delivery, cost the dispatch thread about 2 % of its time with receipts (its signals are
 * kept weakly and collected late).
 */
export function postWebhook(
  target: Extract<Target, { ok: true }>,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<PostResult> {
  const started = performance.now();
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    const finish = (result: Omit<PostResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      resolve(Object.assign({}, result, { latencyMs: Math.round(performance.now() - started) }));
    };
    const request = send(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Herald-Webhooks/1',
          ...headers,
        },
      },
      (response: IncomingMessage) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        const done = () => finish({ statusCode: response.statusCode, error: undefined });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    const stop = () => request.destroy(new Error('the worker stopped'));
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(new Error('timeout'));
    }, timeoutMs);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
    request.on('error', (error: NodeJS.ErrnoException) => {
      const reason = timedOut || signal?.aborted ? `no answer within ${timeoutMs} ms` : (error.code ?? error.message);
      finish({ statusCode: undefined, error: reason });
    });
    request.end(body);
  });
}
