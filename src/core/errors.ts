/**
 * The closed catalogue of API error codes (docs/errors.md). Domain code throws or returns these;
 * the HTTP status for each code is assigned in exactly one place: http/error-handler.ts.
 */
export const ERROR_CODES = [
  'INVALID_REQUEST',
  'VALIDATION_ERROR',
  'INVALID_PHONE',
  'UNAUTHORIZED',
  'INSUFFICIENT_SCOPE',
  'IP_NOT_ALLOWED',
  'ACCOUNT_SUSPENDED',
  'HTTPS_REQUIRED',
  'INSUFFICIENT_CREDITS',
  'NOT_FOUND',
  'TEMPLATE_NOT_FOUND',
  'TEMPLATE_NOT_APPROVED',
  'TEMPLATE_PARAMS_MISMATCH',
  'SESSION_WINDOW_CLOSED',
  'RECIPIENT_SUPPRESSED',
  'MESSAGE_NOT_CANCELABLE',
  'WEBHOOK_DISABLED',
  'WEBHOOK_LIMIT_REACHED',
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_KEY_REUSED',
  'REQUEST_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'REQUEST_HEADERS_TOO_LARGE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** One problem with one field of a request; `field` is a dotted path such as `to` or `attachments.0.content`. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * An expected failure that reaches the API caller. `details` lists field problems
 * (VALIDATION_ERROR, INVALID_PHONE); `retryAfterSeconds`, when the same request may succeed if sent
 * again (RATE_LIMITED, SERVICE_UNAVAILABLE, IDEMPOTENCY_KEY_IN_USE); `requiredScope`, with
 * INSUFFICIENT_SCOPE, the scope (or scopes, space-separated) that would have allowed it. How these
 * reach the caller (headers) is the HTTP layer's business (http/error-handler.ts).
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: FieldProblem[] | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly requiredScope: string | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: FieldProblem[]; retryAfterSeconds?: number; requiredScope?: string } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.requiredScope = options.requiredScope;
  }
}

export const notFound = (what: string): ApiError => new ApiError('NOT_FOUND', `${what} not found.`);

export const ipNotAllowed = (address: string): ApiError =>
  new ApiError('IP_NOT_ALLOWED', `Requests from ${address} are not allowed for this account (its IP allow-list).`);

export const accountSuspended = (): ApiError =>
  new ApiError('ACCOUNT_SUSPENDED', 'This account is suspended: its API access is stopped. Contact the operator of this service.');

export const validationError = (problems: FieldProblem[]): ApiError =>
  new ApiError(
    'VALIDATION_ERROR',
    problems.length === 1 ? `Invalid field '${problems[0]?.field}': ${problems[0]?.message}` : `${problems.length} fields are invalid.`,
    { details: problems },
  );
