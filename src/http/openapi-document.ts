import { ERROR_CODES, type ErrorCode } from '../core/errors.js';
import { httpStatusOf } from './error-handler.js';
import { DELIVERY_HEADERS, WebhookEventSchema } from './webhooks/event-schema.js';

/**
 * The generated OpenAPI document, finished for readers and client generators (`finishDocument`).
 *
 * What the generated reference leaves out of each response, filled in once for every route: a
 * description instead of "Default Response", the headers Herald sends (X-Request-Id everywhere,
 * RateLimit-* on /v1 answers that passed the rate limit or were refused by it, Retry-After on 409,
 * 429 and 503, Idempotent-Replayed on a replayed POST), and,
 * for an error status, only the error codes that status can carry (docs/errors.md).
 */

interface Schema {
  type?: string;
  enum?: string[];
  description?: string;
  properties?: Record<string, Schema>;
  [keyword: string]: unknown;
}
interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  operationId?: string;
  responses?: Record<string, Response>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  callbacks?: Record<string, unknown>;
}
interface Document {
  paths?: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown>; [part: string]: unknown };
}

const CODES_BY_STATUS = new Map<number, ErrorCode[]>();
for (const code of ERROR_CODES) {
  const status = httpStatusOf(code);
  CODES_BY_STATUS.set(status, [...(CODES_BY_STATUS.get(status) ?? []), code]);
}

const SUCCESS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };
const FAILURE: Record<number, string> = {
  400: 'The request is malformed',
  401: 'No valid access token',
  402: 'Not enough credits',
  403: 'Not allowed to this token or address',
  404: 'Not found',
  408: 'The request took too long to arrive',
  409: 'In conflict with the current state',
  413: 'The body is too large',
  422: 'The request is well-formed but invalid',
  429: 'Too many requests',
  431: 'The headers are too large',
  500: 'A failure on our side',
  503: 'Shutting down or overloaded: nothing was done',
};

const header = (description: string, schema: Schema = { type: 'string' }) => ({ description, schema });
const REQUEST_ID = header(
  'The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support.',
);
/** Where rate limits are on (REDIS_URL or this process's buckets: every `herald serve`). */
const RATE_LIMIT = {
  'RateLimit-Limit': header("Requests the client's plan allows in a burst.", { type: 'integer' }),
  'RateLimit-Remaining': header('Requests left in the burst now.', { type: 'integer' }),
  'RateLimit-Reset': header('Seconds until the burst is whole again.', { type: 'integer' }),
};
const RETRY_AFTER = header(
  'Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE.',
  {
    type: 'integer',
  },
);
const REPLAYED = header('`true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one.', {
  type: 'string',
  enum: ['true'],
});

/**
 * The schema as a reference to `components.schemas[name]`, where it is put the first time; a
 * schema that differs from the one already there under that name stays inline. The error envelope
 * of each status is then written once, not once per route.
 */
function named(document: Document, name: string, schema: Schema): Schema {
  document.components ??= {};
  document.components.schemas ??= {};
  const schemas = document.components.schemas;
  const kept = schemas[name];
  if (kept === undefined) schemas[name] = schema;
  else if (JSON.stringify(kept) !== JSON.stringify(schema)) return schema;
  return { $ref: `#/components/schemas/${name}` };
}

/** Describes every response of `document` in place (see above) and returns it. */
export function describeResponses<T>(document: T): T {
  for (const [path, methods] of Object.entries((document as Document).paths ?? {})) {
    const v1 = path.startsWith('/v1/');
    for (const [method, operation] of Object.entries(methods)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const code = Number(status);
        const codes = CODES_BY_STATUS.get(code) ?? [];
        const body = response.content?.['application/json'];
        // Herald's envelope `{success: false, error: {code...}}`, not another body (OAuth's, /readyz's).
        const enveloped = code >= 400 && body?.schema?.properties?.error?.properties?.code !== undefined;
        if (!response.description || response.description === 'Default Response') {
          response.description =
            code < 400
              ? (SUCCESS[code] ?? 'OK')
              : `${FAILURE[code] ?? 'Failed'}${enveloped && codes.length > 0 ? `: ${codes.join(', ')}` : ''}`;
        }
        const has = (name: string) => Object.keys(response.headers ?? {}).some((key) => key.toLowerCase() === name.toLowerCase());
        // Copies, not shared objects: a YAML rendering would otherwise write anchors and aliases.
        response.headers = structuredClone(
          Object.assign(
            { 'X-Request-Id': REQUEST_ID },
            // Sent by the rate limit's hook: on what passed it (an answer) or was refused by it.
            v1 && (code < 300 || code === 429) ? RATE_LIMIT : {},
            v1 && (code === 429 || code === 503 || code === 409) && !has('Retry-After') ? { 'Retry-After': RETRY_AFTER } : {},
            v1 && method === 'post' && code < 500 ? { 'Idempotent-Replayed': REPLAYED } : {},
            response.headers,
          ),
        );
        const error = body?.schema?.properties?.error;
        if (body?.schema && enveloped && codes.length > 0 && error?.properties) {
          error.properties = Object.assign({}, error.properties, {
            code: { type: 'string', enum: codes, description: 'Stable machine-readable code; see the error catalogue in docs/errors.md.' },
          });
          body.schema = named(document as Document, `Error${status}`, body.schema);
        }
      }
    }
  }
  return document;
}

/** How the server reads a date-time it is sent (core/datetime.ts, parseIsoDateTime). */
const DATE_TIME_WITHOUT_OFFSET = 'Read as ISO 8601: without an offset it is UTC. ';
const DATE_TIME_READING = 'A date alone (2026-11-21) is its first moment, UTC.';

/** Ajv's own keywords and formats, which a client generator does not know, as OpenAPI tools read them. */
const PHONE_PATTERN = '^\\+[1-9][0-9]{1,14}$';

/**
 * Rewrites, in place, what only Herald's validator understands: `errorMessage` (its wording of a
 * failure) is dropped; `maxBytes` (a UTF-8 byte limit) becomes the extension `x-max-bytes`; the
 * format `iso-date-time` becomes `date-time` (its description saying what else is read), and `e164` a pattern (the numbering-plan check stays
 * the server's).
 */
export function portableSchemas<T>(document: T): T {
  const pending: unknown[] = [(document as Document).paths];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const schema = node as Schema;
    if ('errorMessage' in schema) delete schema.errorMessage;
    if ('maxBytes' in schema) {
      schema['x-max-bytes'] = schema.maxBytes;
      delete schema.maxBytes;
    }
    if (schema.format === 'iso-date-time') {
      // RFC 3339 for generators; the server also reads the ISO 8601 forms it documents here.
      schema.format = 'date-time';
      const said = schema.description ?? '';
      schema.description = `${said ? `${said} ` : ''}${/without an offset it is UTC/i.test(said) ? '' : DATE_TIME_WITHOUT_OFFSET}${DATE_TIME_READING}`;
    }
    if (schema.format === 'e164') {
      delete schema.format;
      schema.pattern ??= PHONE_PATTERN;
      schema['x-format'] = 'e164';
    }
    pending.push(...Object.values(schema));
  }
  return document;
}

/**
 * Schemas with a `title` (the API's main objects: `SmsDetail`, `Webhook`, `Balance`...) become
 * named schemas, `$ref`ed wherever they appear, so generators give them names of their own. One
 * whose shape differs from the first of its title stays inline.
 */
export function nameTitledSchemas<T>(document: T): T {
  const doc = document as Document;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const schema = node as Schema;
    for (const [key, value] of Object.entries(schema)) schema[key] = visit(value);
    return typeof schema.title === 'string' && schema.type === 'object' && !('$ref' in schema) ? named(doc, schema.title, schema) : schema;
  };
  for (const methods of Object.values(doc.paths ?? {})) for (const operation of Object.values(methods)) visit(operation);
  return document;
}

/**
 * What Herald posts to receivers, described as OpenAPI 3.1 lets it: under `webhooks` (the events a
 * registered webhook gets) and as the `callbacks` of every send that takes a `callback_url`.
 */
export function describeEvents<T>(document: T): T {
  const doc = document as Document;
  const event = named(doc, 'WebhookEvent', structuredClone(WebhookEventSchema) as unknown as Schema);
  const delivery = (operationId: string, summary: string) => ({
    operationId,
    summary,
    description:
      'A signed event, posted as JSON (docs/webhooks.md). Verify the signature over the raw body before trusting it; deduplicate by `id`.',
    tags: ['Webhooks'],
    // Authenticated by its signature, not by a credential of the receiver's.
    security: [],
    parameters: DELIVERY_HEADERS.map(([name, description]) => ({
      in: 'header',
      name,
      required: true,
      description,
      schema: { type: 'string' },
    })),
    requestBody: { required: true, content: { 'application/json': { schema: event } } },
    responses: {
      '2XX': {
        description: 'Taken. Anything else, or no answer within the timeout (10 s), is tried again later; 410 Gone disables a webhook.',
      },
      '410': { description: 'Gone: the webhook is disabled at once (a callback_url is not retried).' },
    },
  });
  doc.webhooks = { messageEvent: { post: delivery('receiveEvent', 'An event, to a registered webhook') } };
  for (const methods of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      const body = operation.requestBody?.content?.['application/json']?.schema;
      // Named by now (nameTitledSchemas): read through the reference.
      const ref = typeof body?.$ref === 'string' ? body.$ref.replace('#/components/schemas/', '') : undefined;
      const schema = (ref ? doc.components?.schemas?.[ref] : body) as Schema | undefined;
      if (!schema?.properties?.callback_url) continue;
      operation.callbacks = {
        messageEvents: {
          '{$request.body#/callback_url}': {
            post: delivery(`${operation.operationId}Callback`, 'Every event of the message, to its callback_url'),
          },
        },
      };
    }
  }
  return document;
}

/**
 * The token request as the document states it: `grant_type` required, `client_credentials` only.
 * The route itself accepts any form and answers what is missing or unsupported in OAuth's own
 * error shape (RFC 6749 §5.2: `invalid_request`, `unsupported_grant_type`), which a validator in
 * front of it would replace with Herald's envelope; unknown fields stay allowed, as RFC 6749 §3.1
 * has servers ignore them.
 */
export function describeTokenRequest<T>(document: T): T {
  const form = (document as Document).paths?.['/oauth/token']?.post?.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
  const grantType = form?.properties?.grant_type;
  if (form && grantType) {
    form.required = ['grant_type'];
    grantType.enum = ['client_credentials'];
  }
  return document;
}

/** All of the above: what `openApiOptions` gives @fastify/swagger to run on the document it generated. */
// A copy: the generated document may share schema objects with the routes, whose validation
// still needs `errorMessage` and `maxBytes`.
export const finishDocument = <T>(document: T): T =>
  describeTokenRequest(describeEvents(nameTitledSchemas(portableSchemas(describeResponses(structuredClone(document))))));
