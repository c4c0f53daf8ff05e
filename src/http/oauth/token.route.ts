import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AccessTokens } from '../../auth/access-tokens.js';
import { type ApiClient, grantableScopes } from '../../core/accounts/account.js';
import { verifyClientSecret } from '../../core/accounts/client-secrets.js';
import { checkAccess } from '../../core/accounts/ip-allow-list.js';
import type { Clock } from '../../core/clock.js';
import { ApiError, type ErrorCode } from '../../core/errors.js';
import type { Store } from '../../core/ports.js';
import { type Scope, splitScopes } from '../../core/scopes.js';
import { httpStatusOf, impliedHeaders } from '../error-handler.js';
import type { tokenFailureGuard } from '../rate-limits.js';
import { type ClientCredentials, readClientCredentials } from './client-authentication.js';
import { OAuthError } from './oauth-errors.js';

export interface TokenEndpointDeps {
  store: Store;
  clock: Clock;
  tokens: AccessTokens;
  /** Brute-force guard: failures counted per client_id and per address (absent: no limit). */
  failures?: ReturnType<typeof tokenFailureGuard> | undefined;
}

const TokenForm = Type.Object(
  {
    grant_type: Type.Optional(Type.String({ description: 'Must be `client_credentials`.' })),
    client_id: Type.Optional(Type.String({ description: 'With client_secret_post; or use HTTP Basic.' })),
    client_secret: Type.Optional(Type.String({ description: 'With client_secret_post; or use HTTP Basic.' })),
    scope: Type.Optional(
      Type.String({
        description:
          "Space-separated scopes; all the client may have when omitted or empty (the account's, unless the client was limited).",
      }),
    ),
  },
  { additionalProperties: true },
);
type TokenForm = Type.Static<typeof TokenForm>;

const TokenResponse = Type.Object({
  access_token: Type.String({ description: 'A signed JWT (RFC 9068); send it as `Authorization: Bearer <token>`.' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds of validity: 3600 unless the operator set ACCESS_TOKEN_TTL_SECONDS.' }),
  scope: Type.String({ description: 'Space-separated scopes granted.' }),
});

const TokenError = Type.Object({
  error: Type.Union(
    [
      'invalid_request',
      'invalid_client',
      'unauthorized_client',
      'slow_down',
      'unsupported_grant_type',
      'invalid_scope',
      'server_error',
      'temporarily_unavailable',
    ].map((c) => Type.Literal(c)),
  ),
  error_description: Type.String(),
  code: Type.Optional(
    Type.String({
      description:
        "Herald's own code for a refusal the API would give too (ACCOUNT_SUSPENDED, IP_NOT_ALLOWED, RATE_LIMITED, SERVICE_UNAVAILABLE, HTTPS_REQUIRED), as `error.code` in the API's envelope: an extension member, which OAuth clients ignore",
    }),
  ),
});

interface TokenRequestContext {
  form: TokenForm;
  credentials?: ClientCredentials;
  client?: ApiClient;
  scopes?: Scope[];
}

type Step = (ctx: TokenRequestContext, request: FastifyRequest) => Promise<void> | void;

/** Server-wide refusals (ApiError) in the token endpoint's OAuth shape; `slow_down` is RFC 8628's. */
const OAUTH_CODE_OF: Partial<Record<ErrorCode, string>> = {
  SERVICE_UNAVAILABLE: 'temporarily_unavailable',
  IP_NOT_ALLOWED: 'unauthorized_client',
  ACCOUNT_SUSPENDED: 'unauthorized_client',
  RATE_LIMITED: 'slow_down',
};

/** Grant types this server supports, by `grant_type`: only client credentials (server-to-server API access). */
const GRANT_TYPES: Record<string, true> = { client_credentials: true };

/**
 * The token endpoint as a pipeline of named checks, each failing with its RFC 6749 error:
 * parse body → authenticate client → check grant type → check scope → issue.
 */
function pipeline(deps: TokenEndpointDeps): Step[] {
  const parseBody: Step = (ctx, request) => {
    if (!request.headers['content-type']?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      throw new OAuthError('invalid_request', 'The token request must be sent as application/x-www-form-urlencoded.');
    }
    if (request.validationError) {
      // The permissive form schema only fails when a parameter was sent twice (RFC 6749 §3.2).
      throw new OAuthError('invalid_request', 'A parameter was sent more than once.');
    }
    if (!ctx.form.grant_type) throw new OAuthError('invalid_request', 'The grant_type parameter is missing.');
  };

  const authenticateClient: Step = async (ctx, request) => {
    const credentials = readClientCredentials(request.headers.authorization, ctx.form);
    await deps.failures?.check(credentials.clientId, request.ip);
    const client = await deps.store.accounts.findClient(credentials.clientId);
    // Verified even when the client is unknown, so response time does not reveal which ids exist;
    // and against the replaced secret too, every time, accepted only while its grace period lasts.
    const current = verifyClientSecret(credentials.clientSecret, client?.secretHash);
    const previous = verifyClientSecret(credentials.clientSecret, client?.previousSecretHash ?? undefined);
    const inGrace = (client?.previousSecretUntil ?? 0) > deps.clock.now();
    if (!client || !(current || (previous && inGrace))) {
      await deps.failures?.failed(credentials.clientId, request.ip);
      throw new OAuthError('invalid_client', 'Client authentication failed.', credentials.method === 'client_secret_basic');
    }
    ctx.credentials = credentials;
    ctx.client = client;
  };

  // The account's suspension and IP allow-list, checked once the client is known (and only then: an
  // unknown client learns nothing about any account).
  const checkAddress: Step = async (ctx, request) => {
    if (!ctx.client) return;
    if ((await checkAccess(deps.store.accounts, ctx.client, request.ip)).revoked) {
      throw new OAuthError('invalid_client', 'Client authentication failed.');
    }
  };

  const checkGrantType: Step = (ctx) => {
    if (!GRANT_TYPES[ctx.form.grant_type ?? '']) {
      throw new OAuthError('unsupported_grant_type', 'Only the client_credentials grant is supported.');
    }
  };

  const checkScope: Step = async (ctx) => {
    const account = ctx.client && (await deps.store.accounts.findAccount(ctx.client.accountId));
    if (!account) throw new OAuthError('invalid_client', 'Client authentication failed.');
    const requested = splitScopes(ctx.form.scope ?? '');
    const { channels } = deps.store;
    // The client's own scopes, within the account's.
    const grantable = grantableScopes(account, ctx.client as ApiClient);
    if (requested.length === 0) {
      ctx.scopes = grantable;
      return;
    }
    const unknown = requested.filter((s) => !channels.isScope(s));
    if (unknown.length > 0) {
      throw new OAuthError('invalid_scope', `Unknown scope: ${unknown.join(' ')}. Known scopes: ${channels.scopes.join(' ')}.`);
    }
    const granted = new Set<string>(grantable);
    const denied = requested.filter((s) => !granted.has(s));
    if (denied.length > 0) {
      throw new OAuthError('invalid_scope', `This client may not be granted: ${denied.join(' ')}.`);
    }
    ctx.scopes = channels.normalizeScopes(requested);
  };

  return [parseBody, authenticateClient, checkAddress, checkGrantType, checkScope];
}

function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  if (error.error === 'invalid_client' && error.basicChallenge) {
    reply.header('www-authenticate', 'Basic realm="herald", charset="UTF-8"');
  }
  return reply.code(error.status).send({ error: error.error, error_description: error.description });
}

/**
 * `POST /oauth/token` (RFC 6749 client credentials; docs/authentication.md), in its own plugin so it
 * gets the form parser and RFC 6749 errors instead of the API's envelope.
 */
export async function tokenEndpoint(app: FastifyInstance, deps: TokenEndpointDeps): Promise<void> {
  await app.register(formbody);
  const steps = pipeline(deps);

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('pragma', 'no-cache');
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof OAuthError) return sendOAuthError(reply, error);
    // A parameter no client could have sent in good faith (refuseUnstorableInput): a malformed request.
    if (error instanceof ApiError && error.code === 'VALIDATION_ERROR') {
      return sendOAuthError(reply, new OAuthError('invalid_request', error.message));
    }
    // Refusals from the server-wide hooks (draining, HTTPS required), in the OAuth shape.
    if (error instanceof ApiError) {
      reply.headers(impliedHeaders(error));
      const oauthCode = OAUTH_CODE_OF[error.code] ?? 'invalid_request';
      return reply.code(httpStatusOf(error.code)).send({ error: oauthCode, error_description: error.message, code: error.code });
    }
    const fastifyError = error as { statusCode?: number; code?: string };
    // OAuth has no code of its own for a body too large (RFC 6749 §5.2): invalid_request, saying so.
    if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendOAuthError(
        reply,
        new OAuthError('invalid_request', `The token request is larger than this server takes (${app.initialConfig.bodyLimit} bytes).`),
      );
    }
    if ((fastifyError.statusCode ?? 500) < 500) {
      return sendOAuthError(reply, new OAuthError('invalid_request', 'The token request could not be read.'));
    }
    request.log.error({ err: error }, 'token endpoint failed');
    return sendOAuthError(reply, new OAuthError('server_error', 'The token could not be issued; try again.'));
  });

  app.post(
    '/oauth/token',
    {
      attachValidation: true,
      // A refusal for load, written at the front door (admission.ts), is in OAuth's shape too.
      config: { oauthErrors: true },
      schema: {
        summary: 'Get an access token (OAuth 2.0 client credentials)',
        operationId: 'createToken',
        // The client's own credentials, not a bearer token: HTTP Basic (client_secret_basic), or
        // none in the header and both in the form (client_secret_post).
        security: [{ clientBasic: [] }, {}],
        description:
          'RFC 6749 §4.4. Authenticate with `client_secret_post` (form fields) or `client_secret_basic` ' +
          '(HTTP Basic). Answers carry `Cache-Control: no-store`. Errors use the OAuth body `{error, error_description}`.',
        tags: ['OAuth'],
        consumes: ['application/x-www-form-urlencoded'],
        body: TokenForm,
        response: {
          200: TokenResponse,
          400: TokenError,
          401: TokenError,
          403: TokenError,
          429: TokenError,
          500: TokenError,
          503: TokenError,
        },
      },
    },
    async (request, reply) => {
      const ctx: TokenRequestContext = { form: (request.body ?? {}) as TokenForm };
      for (const step of steps) await step(ctx, request);
      const { client, scopes } = ctx;
      if (!client || !scopes) throw new Error('token pipeline finished without a client and scopes');
      const issued = await deps.tokens.issue({ clientId: client.clientId, accountId: client.accountId, scopes });
      return reply.send({
        access_token: issued.accessToken,
        token_type: 'Bearer',
        expires_in: issued.expiresIn,
        scope: issued.scopes.join(' '),
      });
    },
  );
}
