/** RFC 6749 §5.2 error codes the token endpoint uses, with their HTTP statuses. */
export const OAUTH_ERRORS = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  server_error: 500,
  temporarily_unavailable: 503,
} as const;

export type OAuthErrorCode = keyof typeof OAUTH_ERRORS;

/** A token-endpoint failure, answered as `{error, error_description}` instead of the /v1 envelope. */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** Set when the client authenticated with HTTP Basic: the 401 then carries WWW-Authenticate. */
    readonly basicChallenge = false,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  get status(): number {
    return OAUTH_ERRORS[this.error];
  }
}
