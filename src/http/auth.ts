import type { FastifyRequest } from 'fastify';
import { InvalidTokenError, type TokenPrincipal } from '../auth/access-tokens.js';
import type { AccountAccess } from '../core/accounts/account.js';
import { checkAccess } from '../core/accounts/ip-allow-list.js';
import type { ChannelCatalogue } from '../core/channels.js';
import { ApiError } from '../core/errors.js';
import type { Store } from '../core/ports.js';
import { readScopeOf, type Scope, sendScopeOf } from '../core/scopes.js';
import { HttpApiError } from './error-handler.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified caller of an authenticated route; set by the bearer hook. */
    principal: TokenPrincipal | null;
    /**
     * The caller's account's access as the access hook read it when the request began; the rate
     * limit (its plan) and a send (its suspension) use it rather than read it again.
     */
    access: AccountAccess | null;
    /** When `access` was read (performance.now()). */
    accessReadAt: number;
  }
  interface FastifyContextConfig {
    /** The scope a route needs (`<channel>:send` or `<channel>:read`), checked before the body is read. */
    scope?: Scope;
    /** Routes that need some `*:read` scope, the exact one depending on the resource. */
    anyReadScope?: boolean;
    /** Routes that need some `*:send` scope, the exact one depending on the body (checked again once it is read). */
    anySendScope?: boolean;
  }
}

export interface TokenVerifier {
  verify(token: string): Promise<TokenPrincipal>;
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

const unauthorized = (message: string, tokenSent: boolean): ApiError =>
  new HttpApiError('UNAUTHORIZED', message, {
    // RFC 6750 §3.1: no error code when the request carried no credentials at all.
    'www-authenticate': tokenSent ? 'Bearer realm="herald", error="invalid_token"' : 'Bearer realm="herald"',
  });

export const insufficientScope = (scope: Scope): ApiError =>
  new ApiError('INSUFFICIENT_SCOPE', `This request needs the '${scope}' scope, which the access token does not have.`, {
    requiredScope: scope,
  });

/** Fails with INSUFFICIENT_SCOPE unless the caller holds `scope`. */
export function requireScope(request: FastifyRequest, scope: Scope): TokenPrincipal {
  const principal = requirePrincipal(request);
  if (!principal.scopes.has(scope)) throw insufficientScope(scope);
  return principal;
}

export function requirePrincipal(request: FastifyRequest): TokenPrincipal {
  if (!request.principal) throw new Error('route is missing the bearer hook');
  return request.principal;
}

/**
 * An onRequest hook after the bearer hook: the account is not suspended, the caller's address is on
 * its allow-list, and the token's client has not been revoked since the token was issued. What it
 * read is kept as `request.access` for the rest of the request (one read of it a request).
 */
export function accountAccessHook(store: Pick<Store, 'accounts'>) {
  return async (request: FastifyRequest): Promise<void> => {
    const { access, revoked } = await checkAccess(store.accounts, requirePrincipal(request), request.ip);
    if (revoked) throw unauthorized('The access token belongs to an API client that was revoked.', true);
    request.access = access;
    request.accessReadAt = performance.now();
  };
}

/**
 * An onRequest hook: verifies the bearer token and the route's scope before anything else reads
 * the request, so an unauthenticated caller learns nothing from validation errors.
 */
export function bearerAuthHook(verifier: TokenVerifier, channels: ChannelCatalogue) {
  /** The read scope of every channel: any one of them lets a caller list messages. */
  const channelReadScopes = channels.names.map(readScopeOf);
  const channelSendScopes = channels.names.map(sendScopeOf);
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      throw unauthorized('An access token is required: send "Authorization: Bearer <token>".', false);
    }
    const match = BEARER.exec(header);
    if (!match?.[1]) throw unauthorized('The Authorization header must be "Bearer <token>".', true);
    try {
      request.principal = await verifier.verify(match[1]);
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
      const message =
        error.reason === 'expired' ? 'The access token has expired; request a new one from /oauth/token.' : 'The access token is invalid.';
      throw unauthorized(message, true);
    }
    const { scope, anyReadScope, anySendScope } = request.routeOptions.config;
    if (anySendScope && !channelSendScopes.some((send) => request.principal?.scopes.has(send))) {
      throw new ApiError('INSUFFICIENT_SCOPE', 'This request needs a send scope of a channel, e.g. sms:send.', {
        requiredScope: channelSendScopes.join(' '),
      });
    }
    if (scope) requireScope(request, scope);
    if (anyReadScope && !channelReadScopes.some((read) => request.principal?.scopes.has(read))) {
      throw new ApiError('INSUFFICIENT_SCOPE', 'This request needs a read scope of a channel, e.g. sms:read.', {
        requiredScope: channelReadScopes.join(' '),
      });
    }
  };
}
