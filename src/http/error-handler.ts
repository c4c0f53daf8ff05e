import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorCode, type FieldProblem } from '../core/errors.js';
import { createValidatorCompiler, FORMATS } from './validation.js';

/** The one place where error codes become HTTP statuses (the catalogue: docs/errors.md). */
export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case 'INVALID_REQUEST':
      return 400;
    case 'UNAUTHORIZED':
      return 401;
    case 'INSUFFICIENT_CREDITS':
      return 402;
    case 'INSUFFICIENT_SCOPE':
    case 'IP_NOT_ALLOWED':
    case 'ACCOUNT_SUSPENDED':
    case 'HTTPS_REQUIRED':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'MESSAGE_NOT_CANCELABLE':
    case 'WEBHOOK_DISABLED':
    case 'WEBHOOK_LIMIT_REACHED':
    case 'IDEMPOTENCY_KEY_IN_USE':
      return 409;
    case 'REQUEST_TIMEOUT':
      return 408;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'REQUEST_HEADERS_TOO_LARGE':
      return 431;
    case 'VALIDATION_ERROR':
    case 'INVALID_PHONE':
    case 'TEMPLATE_NOT_FOUND':
    case 'TEMPLATE_NOT_APPROVED':
    case 'TEMPLATE_PARAMS_MISMATCH':
    case 'SESSION_WINDOW_CLOSED':
    case 'RECIPIENT_SUPPRESSED':
    case 'IDEMPOTENCY_KEY_REUSED':
      return 422;
    case 'RATE_LIMITED':
      return 429;
    case 'INTERNAL_ERROR':
      return 500;
    case 'SERVICE_UNAVAILABLE':
      return 503;
  }
}

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  parentSchema?: { errorMessage?: string; anyOf?: Array<{ const?: unknown; type?: string }> };
  /** The offending value (Ajv's verbose mode). */
  data?: unknown;
}

/** "must be one of: a, b" for a union of constants (enums), whose branches Ajv reports one by one. */
function describeUnion(issue: AjvIssue): string | undefined {
  const branches = issue.parentSchema?.anyOf;
  if (!branches?.every((b) => 'const' in b || b.type === 'null')) return undefined;
  const values = branches.filter((b) => 'const' in b).map((b) => String(b.const));
  return `must be one of: ${values.join(', ')}`;
}

const pathToField = (instancePath: string): string => instancePath.replace(/^\//, '').replaceAll('/', '.');

function describeIssue(issue: AjvIssue): FieldProblem {
  const field = pathToField(issue.instancePath);
  const join = (child: unknown) => (field ? `${field}.${String(child)}` : String(child));
  switch (issue.keyword) {
    case 'required':
      return { field: join(issue.params.missingProperty), message: 'is required' };
    case 'additionalProperties':
      return { field: join(issue.params.additionalProperty), message: 'is not a known field' };
    case 'type':
      return {
        field,
        message: `must be ${/^[aeiou]/.test(String(issue.params.type)) ? 'an' : 'a'} ${String(issue.params.type).replace(',', ' or ')}`,
      };
    case 'maxLength':
      return { field, message: `must be at most ${issue.params.limit} characters` };
    case 'minLength':
      return { field, message: issue.params.limit === 1 ? 'must not be empty' : `must be at least ${issue.params.limit} characters` };
    default: {
      const own = issue.parentSchema?.errorMessage;
      return { field, message: own ?? boundsMessage(issue) ?? issue.message ?? 'is invalid' };
    }
  }
}

/** The bound an item count, a number or a list of choices broke, in the API's words (not Ajv's "must NOT have fewer than 1 items"). */
function boundsMessage(issue: AjvIssue): string | undefined {
  const limit = issue.params.limit;
  switch (issue.keyword) {
    case 'minItems':
      return limit === 1 ? 'must not be empty' : `must have at least ${limit} items`;
    case 'maxItems':
      return `must have at most ${limit} item${limit === 1 ? '' : 's'}`;
    case 'minimum':
      return `must be ${limit} or more`;
    case 'maximum':
      return `must be ${limit} or less`;
    case 'exclusiveMinimum':
      return `must be more than ${limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${limit}`;
    case 'uniqueItems':
      return 'must not list an item twice';
    case 'enum': {
      const allowed = issue.params.allowedValues;
      return Array.isArray(allowed) ? `must be one of ${allowed.map(String).join(', ')}` : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Turns Ajv's findings into one problem per field. A body that is not a JSON object at all is a
 * malformed request (400), not a field problem (422).
 */
function fromValidation(error: FastifyError): ApiError {
  const issues = (error.validation ?? []) as AjvIssue[];
  const context = (error as FastifyError & { validationContext?: string }).validationContext ?? 'body';
  if (context === 'body' && issues.some((i) => i.instancePath === '' && i.keyword === 'type')) {
    return new ApiError('INVALID_REQUEST', 'The request body must be a JSON object.');
  }
  if (context === 'querystring' && issues.some((i) => i.keyword === 'additionalProperties')) {
    const names = issues.filter((i) => i.keyword === 'additionalProperties').map((i) => String(i.params.additionalProperty));
    return new ApiError('INVALID_REQUEST', `Unknown query parameter${names.length > 1 ? 's' : ''}: ${names.join(', ')}.`);
  }
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  // A union reports once per branch and then once for itself; for an enum the union's line says
  // it best, so it goes first and the branches' lines for the same field are dropped.
  const unions = issues.filter((i) => i.keyword === 'anyOf' && describeUnion(i));
  const ordered = [...unions, ...issues.filter((i) => i.keyword !== 'anyOf' && i.keyword !== 'oneOf')];
  for (const issue of ordered.length > 0 ? ordered : issues) {
    const union = issue.keyword === 'anyOf' ? describeUnion(issue) : undefined;
    const problem = union ? { field: pathToField(issue.instancePath), message: union } : describeIssue(issue);
    if (context !== 'body') problem.field = problem.field || context;
    if (seen.has(problem.field)) continue;
    seen.add(problem.field);
    problems.push(problem);
  }
  const where = context === 'body' ? '' : ` in the ${context === 'querystring' ? 'query string' : 'path'}`;
  // A bad phone number alone has its own code, INVALID_PHONE (docs/errors.md); among other problems
  // it is one VALIDATION_ERROR detail of them.
  if (issues.length > 0 && issues.every((i) => i.keyword === 'format' && i.params.format === FORMATS.phone)) {
    const value = issues.length === 1 && typeof issues[0]?.data === 'string' ? `'${issues[0].data.slice(0, 40)}'` : 'The phone number';
    return new ApiError('INVALID_PHONE', `${value} is not a valid phone number in E.164 format (e.g. +14155552671).`, {
      details: problems,
    });
  }
  const message =
    problems.length === 1
      ? `Invalid field '${problems[0]?.field}'${where}: ${problems[0]?.message}.`
      : `${problems.length} fields are invalid${where}.`;
  return new ApiError('VALIDATION_ERROR', message, { details: problems });
}

/**
 * Checks a body against a route's schema outside a request, as the route would: the same Ajv, the
 * same problems in the same words (a form that fills an API request, such as the dashboard's test
 * message). The refusal the API would answer, or undefined.
 */
export function bodyValidator(schema: object): (body: unknown) => ApiError | undefined {
  const validate = createValidatorCompiler()({ schema, httpPart: 'body', method: 'POST', url: '' }) as ((body: unknown) => boolean) & {
    errors?: unknown[] | null;
  };
  return (body) => {
    if (validate(body)) return undefined;
    return fromValidation(
      Object.assign(new Error('invalid body'), { validation: validate.errors ?? [], validationContext: 'body' }) as FastifyError,
    );
  };
}

/** Fastify's own errors for malformed requests, in the catalogue's terms; undefined for others. */
function fromFastify(error: FastifyError): ApiError | undefined {
  if (error.validation) return fromValidation(error);
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', 'The request body is larger than this endpoint accepts.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('INVALID_REQUEST', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('INVALID_REQUEST', 'The request body must be sent as application/json.');
  }
  const status = error.statusCode ?? 0;
  if (error instanceof SyntaxError || (error.code?.startsWith('FST_') && status >= 400 && status < 500)) {
    return new ApiError('INVALID_REQUEST', 'The request could not be read.');
  }
  return undefined;
}

/** The catalogue's view of any thrown value: expected errors keep their code, bugs become 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const known = fromFastify(error as FastifyError);
  if (known) return known;
  return new ApiError('INTERNAL_ERROR', 'Something went wrong on our side. Quote the request id when you contact support.');
}

/** An error whose answer carries headers of HTTP's own (the bearer challenge of a 401). */
export class HttpApiError extends ApiError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly headers: Record<string, string>,
  ) {
    super(code, message);
  }
}

/**
 * The headers an error implies: Retry-After (RFC 9110) when it may succeed later, the
 * insufficient_scope challenge (RFC 6750 §3.1) naming the scope it needs, and an HttpApiError's own.
 */
export function impliedHeaders(error: ApiError): Record<string, string> {
  const headers: Record<string, string> = error instanceof HttpApiError ? Object.assign({}, error.headers) : {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error.code === 'INSUFFICIENT_SCOPE' && error.requiredScope) {
    headers['www-authenticate'] = `Bearer realm="herald", error="insufficient_scope", scope="${error.requiredScope}"`;
  }
  return headers;
}

/** The error's answer: its status, the headers it implies and the envelope. */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  const status = httpStatusOf(error.code);
  reply.headers(impliedHeaders(error));
  return reply.code(status).send({
    success: false,
    error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
  });
}

/** The answer to a request the store could not serve because it cannot be reached now. */
const STORE_UNAVAILABLE = 'The service cannot reach its store at the moment; retry the request shortly.';

/**
 * `storeUnavailable` tells an error of a store that cannot be reached now (a restart, a cut
 * connection) from a fault: such a request is answered 503 with Retry-After, not 500. Nearly
 * always it took no effect; but a connection cut during its commit leaves that unknown, so a
 * client retries a request that creates something with its Idempotency-Key (docs/idempotency.md).
 */
export function installErrorHandler(app: FastifyInstance, storeUnavailable?: (error: unknown) => boolean): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (!(error instanceof ApiError) && storeUnavailable?.(error)) {
      request.log.warn({ err: error }, 'the store cannot be reached; answered 503');
      return sendApiError(reply, new ApiError('SERVICE_UNAVAILABLE', STORE_UNAVAILABLE, { retryAfterSeconds: 1 }));
    }
    const apiError = toApiError(error);
    if (apiError.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'unhandled error');
    // A 503 is a refusal its source logs as a whole (the shutdown; shedding's count a second), not
    // line by line: under overload a line per refused request would add to the load.
    else if (httpStatusOf(apiError.code) >= 500 && apiError.code !== 'SERVICE_UNAVAILABLE') {
      request.log.warn({ err: error, code: apiError.code }, apiError.message);
    }
    return sendApiError(reply, apiError);
  });
  // A wrong path gets the way to the reference: someone who typed the server's address alone (GET /) first.
  app.setNotFoundHandler((request, reply) =>
    sendApiError(
      reply,
      new ApiError(
        'NOT_FOUND',
        `No endpoint ${request.method} ${request.url.split('?')[0]}. The API reference is at /docs (OpenAPI: /openapi.json).`,
      ),
    ),
  );
}
