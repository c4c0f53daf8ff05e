import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { FastifyServerFactory, RouteOptions } from 'fastify';
import { requestIdOf } from './request-id.js';
import { HSTS, SECURITY_HEADERS } from './transport-security.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Never shed under load: health checks, which must answer however busy the node is. */
    alwaysAdmitted?: boolean;
    /** Refusals are written in OAuth's error shape (RFC 6749 §5.2), not the API's envelope: the token endpoint. */
    oauthErrors?: boolean;
  }
}

/**
 * The HTTP server's front door: where a request can be refused before Fastify routes it or builds
 * its request and reply, so that a refusal costs little more than Node's parsing of it. Load
 * shedding (admission.ts) decides; this file tells requests apart and writes the refusal.
 */

/** What a route is to load shedding: a send, never shed, answered in OAuth's shape; or none of these. */
export type RouteKind = 'send' | 'always' | 'oauth';

/** The headers of every refusal: those every answer carries (transport-security.ts), never cached, JSON. */
const REFUSAL_HEADERS: readonly string[] = [
  ...Object.entries(SECURITY_HEADERS).flat(),
  'cache-control',
  'no-store',
  'content-type',
  'application/json; charset=utf-8',
];

/** Request bodies larger than this are not read to be refused: the connection is closed instead. */
const READ_TO_REFUSE_BYTES = 64 * 1024;

/** Routes by kind, learnt as Fastify adds them (`learn` from an onRoute hook). */
export class RouteKinds {
  readonly #exact = new Map<string, RouteKind>();
  readonly #alwaysPrefixes: string[] = [];

  learn(route: RouteOptions): void {
    const config = route.config ?? {};
    const kind: RouteKind | undefined = config.alwaysAdmitted
      ? 'always'
      : config.oauthErrors
        ? 'oauth'
        : config.scope?.endsWith(':send')
          ? 'send'
          : undefined;
    if (!kind) return;
    const dynamic = route.url.search(/[:*]/);
    if (dynamic >= 0) {
      // Only never-shed routes may have parameters: they are matched by the static part before them.
      if (kind !== 'always') throw new Error(`admission: route ${route.url} must have a static URL to be told apart at the front door`);
      this.#alwaysPrefixes.push(route.url.slice(0, dynamic));
      return;
    }
    for (const method of [route.method].flat()) this.#exact.set(`${method} ${withoutTrailingSlash(route.url)}`, kind);
  }

  /** The kind of the route a request line names, read as Fastify's router reads it. */
  kindOf(method: string, url: string): RouteKind | undefined {
    const path = pathOf(url);
    const kind = this.#exact.get(`${method} ${path}`);
    if (kind) return kind;
    for (const prefix of this.#alwaysPrefixes) if (path.startsWith(prefix)) return 'always';
    return undefined;
  }
}

const withoutTrailingSlash = (path: string): string => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/**
 * The path of a request target as the router sees it: an absolute URL's (`http://host/path`) path,
 * cut at `?` or `#`, percent-escapes decoded except those of reserved characters (`%2F` stays, as
 * in the router), and one trailing slash ignored (the app's ignoreTrailingSlash).
 */
export function pathOf(url: string): string {
  let path = url;
  if (!path.startsWith('/')) path = path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') || '/';
  const end = path.search(/[?#]/);
  if (end >= 0) path = path.slice(0, end);
  if (path.includes('%')) {
    try {
      path = decodeURI(path);
    } catch {
      // A malformed escape: the router answers it (400); no route of ours is named so.
    }
  }
  return withoutTrailingSlash(path);
}

/**
 * Answers 503 with Retry-After in the API's error envelope (OAuth's shape on the token endpoint),
 * with the headers every answer carries (transport-security.ts; HSTS where the client reached this
 * server over TLS: behind a proxy that terminates it, the proxy's own). A body larger than
 * READ_TO_REFUSE_BYTES, of unknown length, or not sent yet (`Expect: 100-continue`) is not read:
 * the connection is closed after the answer. Otherwise Node reads and drops the rest of the body,
 * and the connection serves its next request.
 */
export function writeRefusal(
  req: IncomingMessage,
  res: ServerResponse,
  kind: RouteKind | undefined,
  message: string,
  retryAfterSeconds: number,
): void {
  const body =
    kind === 'oauth'
      ? JSON.stringify({ error: 'temporarily_unavailable', error_description: message })
      : JSON.stringify({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message } });
  const length = Number(req.headers['content-length'] ?? 0);
  const close = req.headers['transfer-encoding'] !== undefined || req.headers.expect !== undefined || !(length <= READ_TO_REFUSE_BYTES);
  // A flat list of names and values, built without spreading objects: writeHead with an object
  // made by spreads cost a third more per refusal (about 37 against 24 µs, measured), and under
  // overload refusals are most of the node's work.
  const headers: string[] = [...REFUSAL_HEADERS];
  if ((req.socket as TLSSocket).encrypted) headers.push('strict-transport-security', HSTS);
  if (kind === 'oauth') headers.push('pragma', 'no-cache');
  if (close) headers.push('connection', 'close');
  headers.push(
    'content-length',
    String(Buffer.byteLength(body)),
    'retry-after',
    String(retryAfterSeconds),
    'x-request-id',
    requestIdOf(req.headers['x-request-id']),
  );
  res.writeHead(503, headers);
  res.end(body);
}

/**
 * Fastify's `serverFactory` for a server whose requests pass `refused` first (true: it answered).
 * It builds the server as Fastify does when it builds it itself (lib/server.js getServerInstance):
 * HTTP or HTTPS with the app's options, its keep-alive, request and connection timeouts; Fastify
 * adds its clientError handler afterwards. Not carried over, as Herald uses none of them: HTTP/2,
 * `https: true`, maxRequestsPerSocket. A `listen` on `localhost` binds only its first address (Fastify
 * binds the others itself only for servers it built).
 */
export function gatedServerFactory(refused: (req: IncomingMessage, res: ServerResponse) => boolean): FastifyServerFactory {
  return (handler, options) => {
    if (options.http2 || options.https === true || Number(options.maxRequestsPerSocket ?? 0) > 0) {
      throw new Error('the front door serves HTTP/1.1 and HTTPS with options only (see front-door.ts)');
    }
    const gated = (req: IncomingMessage, res: ServerResponse) => {
      if (!refused(req, res)) handler(req, res);
    };
    const server: Server = options.https
      ? createHttpsServer(options.https as object, gated)
      : createHttpServer((options.http ?? {}) as object, gated);
    // A request that waits for 100 Continue is judged before its body is asked for.
    server.on('checkContinue', (req, res) => {
      if (refused(req, res)) return;
      res.writeContinue();
      handler(req, res);
    });
    // Fastify has filled these in with its defaults before it calls the factory.
    server.keepAliveTimeout = Number(options.keepAliveTimeout);
    server.requestTimeout = Number(options.requestTimeout);
    server.setTimeout(Number(options.connectionTimeout));
    return server;
  };
}
