import type { ApiErrorCode } from './types.js';

/**
 * Every error the API answers, and every failure of a call the client gives up on, is a
 * HeraldError: `status` (0 when no answer came), `code` from Herald's error catalogue
 * (`INSUFFICIENT_CREDITS`, `RATE_LIMITED`...; `NETWORK_ERROR` and `TIMEOUT` for calls that got no
 * answer), the server's `message` and `details` (the fields a 422 names), and the `requestId` to
 * quote when asking the operator.
 */
export class HeraldError extends Error {
  override readonly name = 'HeraldError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ReadonlyArray<{ field: string; message: string }> = [],
    readonly requestId: string | undefined = undefined,
    /** Seconds the server asked to wait before trying again (Retry-After), when it said. */
    readonly retryAfterSeconds: number | undefined = undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A code the client itself gives a call that got no usable answer, or a webhook that failed verification. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'TOKEN_REFUSED' | 'WEBHOOK_SIGNATURE_INVALID';

/**
 * Whether `error` is a HeraldError, of `code` when given: `if (isHeraldError(e, 'INSUFFICIENT_CREDITS')) ...`;
 * the code is checked against the catalogue at compile time.
 */
export function isHeraldError<C extends ApiErrorCode | ClientErrorCode>(
  error: unknown,
  code?: C,
): error is HeraldError & { readonly code: C } {
  return error instanceof HeraldError && (code === undefined || error.code === code);
}
