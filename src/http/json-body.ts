import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { ApiError } from '../core/errors.js';

/**
 * Reads `application/json` bodies as the API takes them, before Fastify's own JSON parser:
 *
 * - Bodies come uncompressed: a `Content-Encoding` (gzip, say) is refused rather than its bytes
 *   read as JSON text.
 * - JSON is UTF-8 (RFC 8259): bytes that are not UTF-8 are refused. Read as a string, they became
 *   U+FFFD, a different text that was then sent and charged (one stray Latin-1 byte turns a GSM-7
 *   SMS into UCS-2, and a third of the segments). A `charset` parameter means nothing to JSON
 *   (RFC 8259, 11): ASCII sent as `charset=ISO-8859-1` by an older client is taken; UTF-16 and
 *   UTF-32, whose bytes are never JSON text as UTF-8 reads it, are refused by name.
 * - An empty body is no body on a route that takes none (`POST /v1/messages/{id}/cancel` sent by
 *   a client that puts `Content-Type: application/json` on every request); on a route that takes
 *   one it is still "not valid JSON".
 * - A `__proto__` key, or a `prototype` inside a `constructor` key, is refused as such (Fastify's parser refuses it as
 *   invalid JSON, which it is not). The parser is Fastify's own, secure-json-parse, called here so
 *   its reason is kept.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0 && !takesBody(request)) {
      done(null, undefined);
      return;
    }
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') {
      done(new ApiError('INVALID_REQUEST', `The request body must be sent uncompressed (got Content-Encoding: ${encoding}).`), undefined);
      return;
    }
    const charset = charsetOf(request.headers['content-type']);
    if (charset?.startsWith('utf-16') || charset?.startsWith('utf-32')) {
      done(new ApiError('INVALID_REQUEST', `The request body must be JSON in UTF-8 (got charset=${charset}).`), undefined);
      return;
    }
    if (!isUtf8(bytes)) {
      done(new ApiError('INVALID_REQUEST', 'The request body is not valid UTF-8, which JSON must be.'), undefined);
      return;
    }
    if (bytes.length === 0) {
      done(new ApiError('INVALID_REQUEST', NOT_JSON), undefined);
      return;
    }
    let value: unknown;
    try {
      value = secureJson.parse(bytes.toString('utf8'), null, PARSE_OPTIONS);
    } catch (error) {
      const poisoned = error instanceof SyntaxError && error.message.includes('forbidden prototype property');
      done(new ApiError('INVALID_REQUEST', poisoned ? POISONED : NOT_JSON), undefined);
      return;
    }
    done(null, value);
  });
}

const PARSE_OPTIONS = { protoAction: 'error', constructorAction: 'error' } as const;
const NOT_JSON = 'The request body is not valid JSON.';
const POISONED = 'The request body has a "__proto__" key, or a "prototype" in a "constructor" key, which is refused.';

/** The `charset` parameter of a Content-Type, lower-cased and unquoted; undefined without one. */
function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType ?? '');
  return match ? (match[2] as string).toLowerCase() : undefined;
}

/** Whether the route declares a body (its schema has one). */
function takesBody(request: FastifyRequest): boolean {
  const schema = request.routeOptions.schema as { body?: unknown } | undefined;
  return schema?.body !== undefined;
}
