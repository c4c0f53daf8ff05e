import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { ApiError } from '../core/errors.js';
import { randomId } from '../core/ids.js';
import { httpStatusOf } from './error-handler.js';

/**
 * What one connection may cost the server before a request is even routed: the size of its
 * request line and headers, and how long a client may take to send them and its body. Slow
 * clients (slowloris, a stalled upload) are cut off here, in Node's HTTP parser, with an answer in
 * the API's error envelope.
 */
export interface ConnectionLimits {
  /** MAX_HEADER_BYTES: request line plus headers; larger → 431 REQUEST_HEADERS_TOO_LARGE. */
  maxHeaderBytes: number;
  /** HEADERS_TIMEOUT_MS: time to receive the request line and headers → 408 REQUEST_TIMEOUT. */
  headersTimeoutMs: number;
  /** REQUEST_TIMEOUT_MS: time to receive the whole request, body included → 408 REQUEST_TIMEOUT. */
  requestTimeoutMs: number;
  /** KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxHeaderBytes: 16 * 1024,
  headersTimeoutMs: 10_000,
  // Long enough for the largest email body (2 × EMAIL_MAX_BYTES = 20 MiB) at about 1.5 Mbit/s.
  requestTimeoutMs: 120_000,
  // Above the 60 s idle timeout of common load balancers, so the balancer, not Herald, closes first.
  keepAliveTimeoutMs: 72_000,
};

/**
 * How often Node looks for connections past their headers or request deadline. Its default (30 s)
 * would let a deadline of 10 s stretch to 40; a fifth of the headers deadline keeps the overrun
 * small, and once a second is plenty for the defaults.
 */
export const checkingIntervalOf = (limits: ConnectionLimits): number =>
  Math.min(1_000, Math.max(25, Math.floor(limits.headersTimeoutMs / 5)));

function clientErrorOf(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('REQUEST_TIMEOUT', 'The request was not received in full in time; the connection is closed.');
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('REQUEST_HEADERS_TOO_LARGE', 'The request line and headers are larger than this server accepts.');
    default:
      return new ApiError('INVALID_REQUEST', 'The request is not valid HTTP/1.1.');
  }
}

/**
 * Answers a request Node's parser refused (timeout, header overflow, malformed HTTP) in the error
 * envelope, then closes the connection: no route ran, so there is no reply object to go through.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already started on this socket cannot be followed by another; only close it.
  if (socket.writable && !(socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    const apiError = clientErrorOf(error);
    const status = httpStatusOf(apiError.code);
    const body = JSON.stringify({ success: false, error: { code: apiError.code, message: apiError.message } });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: req_${randomId(20)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}

/** The Fastify server options that apply these limits (over TLS too). */
export function connectionOptions(
  limits: ConnectionLimits,
  tls: { cert: string; key: string } | undefined,
): Pick<FastifyServerOptions, 'requestTimeout' | 'keepAliveTimeout' | 'connectionTimeout' | 'clientErrorHandler'> & {
  http?: object;
  https?: object;
} {
  const server = {
    maxHeaderSize: limits.maxHeaderBytes,
    // Node checks headersTimeout <= requestTimeout when it builds the server, against its own
    // default (300 s) unless told: Fastify sets the request deadline only afterwards.
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    connectionsCheckingInterval: checkingIntervalOf(limits),
  };
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // A socket on which nothing moves for this long (a client that stopped reading its response)
    // is closed. A second past the request deadline, so a stalled upload still gets its 408 first.
    connectionTimeout: limits.requestTimeoutMs + 1_000,
    clientErrorHandler: answerClientError,
    ...(tls ? { https: Object.assign({}, tls, server) } : { http: server }),
  };
}
