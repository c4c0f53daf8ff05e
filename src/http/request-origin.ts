import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SendRequest } from '../core/messages/accept-messages.js';
import type { Origin } from '../core/messages/message.js';
import type { TraceSpan, Tracing } from '../core/tracing.js';
import { keptAnswer } from './idempotency.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span when traces are on (request-origin.ts), else null. */
    traceSpan: TraceSpan | null;
  }
}

/** A caller's W3C trace context, checked for shape only: the tracer reads it (and drops what it cannot). */
const TRACEPARENT = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;

/**
 * One server span a request, named by its route template (`POST /v1/sms/send`, never the URL: its
 * ids would make a name each), from the moment it is routed to its answer. A caller that sends a
 * `traceparent` header gets Herald's spans in its own trace. Nothing is added when traces are off.
 */
export function traceRequests(app: FastifyInstance, tracing: Tracing): void {
  app.decorateRequest('traceSpan', null);
  if (!tracing.enabled) return;
  // Callback hooks, not async ones: no promise per request.
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers.traceparent;
    const route = request.routeOptions.url;
    request.traceSpan = tracing.start(route ? `${request.method} ${route}` : request.method, {
      kind: 'server',
      parent: typeof header === 'string' && TRACEPARENT.test(header) ? header : undefined,
      attributes: { 'http.request.method': request.method, 'http.route': route, 'herald.request_id': request.id },
    });
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = request.traceSpan;
    if (span) {
      span.set({ 'http.response.status_code': reply.statusCode });
      if (reply.statusCode >= 500) span.fail(`HTTP ${reply.statusCode}`);
      span.end();
    }
    done();
  });
}

/** Where messages a request creates come from: its id (X-Request-Id) and its span, if traced. */
export const originOf = (request: FastifyRequest): Origin => ({
  requestId: request.id,
  traceContext: request.traceSpan?.traceparent ?? null,
});

/**
 * How long the access a request read when it began (http/auth.ts) stands for its send's
 * suspension check; a send later than this (a slow upload, a wait for its Idempotency-Key) reads
 * the account's access again, so a suspension meanwhile stops it.
 */
const ACCESS_FRESH_MS = 1_000;

/**
 * What a send use case needs of its request (SendRequest): the answer to keep under its
 * Idempotency-Key (keptAnswer), its origin, which the messages keep, and the account's access as
 * the request read it, while that is fresh.
 */
export function sendRequest<R>(
  request: FastifyRequest,
  reply: FastifyReply,
  statusCode: number,
  present: (result: R) => unknown,
): SendRequest<R> {
  return {
    answer: keptAnswer(request, reply, statusCode, present),
    origin: originOf(request),
    access:
      request.access && request.principal && performance.now() - request.accessReadAt < ACCESS_FRESH_MS
        ? { accountId: request.principal.accountId, value: request.access }
        : undefined,
  };
}
