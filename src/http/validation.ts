import { Ajv, type Options } from 'ajv';
import formatsPlugin from 'ajv-formats';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { parseIsoDateTime } from '../core/datetime.js';
import { ApiError } from '../core/errors.js';
import { isValidE164 } from '../core/phone.js';

/** Formats of our own, so every field problem is found in one pass and reported together. */
export const FORMATS = {
  /** A phone number in E.164 that exists in its country's numbering plan. */
  phone: 'e164',
  /** ISO 8601 date-time, with or without a UTC offset (without one it is UTC). */
  dateTime: 'iso-date-time',
} as const;

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true, // one `details` entry per invalid field, not just the first
    verbose: true, // gives each error its parentSchema, where `errorMessage` lives
    useDefaults: true,
    removeAdditional: false, // unknown fields are reported, not silently dropped
    strict: false,
    ...options,
  });
  // ajv-formats is CommonJS: its function is the default export's `default` under NodeNext.
  (formatsPlugin as unknown as { default: (a: Ajv) => void }).default(ajv);
  // A sentence shown instead of Ajv's own when a `pattern` or `format` check fails.
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  // A length limit in UTF-8 bytes, for fields limited in bytes rather than characters (Telegram's callback_data).
  ajv.addKeyword({
    keyword: 'maxBytes',
    type: 'string',
    schemaType: 'number',
    validate: (limit: number, data: string) => Buffer.byteLength(data, 'utf8') <= limit,
  });
  ajv.addFormat(FORMATS.phone, { type: 'string', validate: isValidE164 });
  ajv.addFormat(FORMATS.dateTime, { type: 'string', validate: (text: string) => parseIsoDateTime(text) !== undefined });
  return ajv;
}

/**
 * JSON bodies are validated as sent: `{"to": 123}` is a type error, not the string "123".
 * Query strings and path parameters are text by nature, so they are coerced to the declared types.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodyAjv = createAjv({ coerceTypes: false });
  const textAjv = createAjv({ coerceTypes: true });
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv;
    return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}

/**
 * Deepest nesting of arrays and objects accepted in a request: a body nested deeper is refused with
 * 400 INVALID_REQUEST before anything walks it. No route's schema goes past 5 levels; the bound is
 * there so that no walk of client input (Ajv, the idempotency fingerprint, JSON.stringify, which
 * recurses) can exhaust the stack.
 */
export const MAX_NESTING_DEPTH = 64;

/**
 * Whether a store can hold the text: PostgreSQL's text cannot contain U+0000, and an unpaired UTF-16
 * surrogate has no UTF-8 encoding (pg would send U+FFFD in its place, storing something other than
 * what was sent). SQLite would keep both, but the API answers alike on every store.
 */
export function isStorableText(text: string): boolean {
  // isWellFormed is in Node 20 (V8 11.3), though not yet in TypeScript's ES2023 lib; native, and
  // about three times faster than /[\0\p{Cs}]/u on a 10 MiB email.
  return !text.includes('\u0000') && (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/**
 * The text with what a store cannot hold replaced by U+FFFD (as a decoder marks bytes it could not
 * read): for input Herald must take as it comes rather than refuse, a provider's notification.
 */
export function toStorableText(text: string): string {
  if (isStorableText(text)) return text;
  return (text.replaceAll('\u0000', '\uFFFD') as string & { toWellFormed(): string }).toWellFormed();
}

/** What a walk of one request part found: nesting past the limit, or the paths of unstorable strings. */
export interface InputProblems {
  tooDeep: boolean;
  /** Dotted paths (`parameters.0`, `to`) of strings, or object keys, a store cannot hold; '' is the part itself. */
  unstorable: string[];
}

/** An array or object still to walk, at its depth (the part itself is at 1) and dotted path. */
interface Visit {
  container: object;
  depth: number;
  path: string;
}

const childPath = (parent: string, key: string): string => (parent ? `${parent}.${key}` : key);

const isContainer = (value: unknown): value is object => value !== null && typeof value === 'object' && !ArrayBuffer.isView(value);

/**
 * Walks a parsed request part (body, query string, path parameters) without recursion, so a body
 * nested 100,000 levels deep costs a loop, not the stack. Stops at the first container past
 * `maxDepth`. Strings are checked where they are met, so only containers are queued (a bulk send's
 * thousand recipients allocate nothing). Buffers (raw bodies a route parses itself) are not walked.
 */
export function findInputProblems(part: unknown, maxDepth = MAX_NESTING_DEPTH): InputProblems {
  const unstorable: string[] = [];
  if (typeof part === 'string') return { tooDeep: false, unstorable: isStorableText(part) ? unstorable : [''] };
  if (!isContainer(part)) return { tooDeep: false, unstorable };
  const pending: Visit[] = [{ container: part, depth: 1, path: '' }];
  // A string is checked in place; a container is queued with its path (built only for containers).
  const meet = (value: unknown, depth: number, path: string, key: string | number): void => {
    if (typeof value === 'string') {
      if (!isStorableText(value)) unstorable.push(childPath(path, String(key)));
    } else if (isContainer(value)) {
      pending.push({ container: value, depth: depth + 1, path: childPath(path, String(key)) });
    }
  };
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const { container, depth, path } = visit;
    if (depth > maxDepth) return { tooDeep: true, unstorable };
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) meet(container[i], depth, path, i);
      continue;
    }
    for (const key of Object.keys(container)) {
      if (isStorableText(key)) meet((container as Record<string, unknown>)[key], depth, path, key);
      else unstorable.push(childPath(path, key));
    }
  }
  return { tooDeep: false, unstorable };
}

const UNSTORABLE = 'must not contain U+0000 or an unpaired UTF-16 surrogate';

/** A field problem for each unstorable string, worded as the validator's own (see error-handler.ts). */
function unstorableFields(paths: string[], part: 'body' | 'querystring'): ApiError {
  const details = paths.map((path) => ({ field: path || part, message: UNSTORABLE }));
  const where = part === 'body' ? '' : ' in the query string';
  const message =
    details.length === 1 ? `Invalid field '${details[0]?.field}'${where}: ${UNSTORABLE}.` : `${details.length} fields are invalid${where}.`;
  return new ApiError('VALIDATION_ERROR', message, { details });
}

/**
 * Whether every `%`-escape of a query string decodes: a `%` followed by two hex digits, making
 * UTF-8. The query parser reads one that does not (`%ZZ`, `%FF`) as the text itself; the router
 * refuses one in the path.
 */
function queryDecodes(query: string): boolean {
  if (!query.includes('%')) return true;
  try {
    for (const pair of query.split('&')) decodeURIComponent(pair);
    return true;
  } catch {
    return false;
  }
}

/**
 * A preValidation step every route gets (app.ts adds it at the root): refuses, before any schema
 * check, handler or store sees it, input that no store could hold or that is nested past
 * MAX_NESTING_DEPTH. A path parameter with such a character names nothing (404); a body or query
 * field is 422 VALIDATION_ERROR naming the field; too deep a body is 400 INVALID_REQUEST.
 */
export async function refuseUnstorableInput(request: FastifyRequest): Promise<void> {
  if (findInputProblems(request.params).unstorable.length > 0) {
    throw new ApiError('NOT_FOUND', 'Nothing has the id in this path: ids never contain U+0000 or an unpaired UTF-16 surrogate.');
  }
  const body = findInputProblems(request.body);
  if (body.tooDeep) {
    throw new ApiError('INVALID_REQUEST', `The request body is nested more than ${MAX_NESTING_DEPTH} levels deep.`);
  }
  // A query string is read only by routes that declare it; on others it reaches nothing.
  const readsQuery = request.routeOptions.schema?.querystring !== undefined;
  // Refused as the router refuses a bad escape in the path, rather than matched against a filter
  // as literal text.
  if (readsQuery && !queryDecodes(request.url.slice(request.url.indexOf('?') + 1 || request.url.length))) {
    throw new ApiError('INVALID_REQUEST', 'The query string cannot be read: a % must start an escape of UTF-8, such as %20.');
  }
  const query = readsQuery ? findInputProblems(request.query) : { tooDeep: false, unstorable: [] };
  if (query.tooDeep) throw new ApiError('INVALID_REQUEST', `The query string is nested more than ${MAX_NESTING_DEPTH} levels deep.`);
  if (query.unstorable.length > 0) throw unstorableFields(query.unstorable, 'querystring');
  if (body.unstorable.length > 0) throw unstorableFields(body.unstorable, 'body');
}
