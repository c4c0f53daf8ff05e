import { randomBytes } from 'node:crypto';
import { errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../core/clock.js';
import { type Scope, splitScopes } from '../core/scopes.js';
import { type KeyRing, TOKEN_ALGORITHM } from './key-ring.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

/** How long an access token lives unless ACCESS_TOKEN_TTL_SECONDS says otherwise. */
export const TOKEN_TTL_SECONDS = 3600;
export const DEFAULT_TOKEN_CACHE_SIZE = 10_000;

/** What a verified access token says about its caller. */
export interface TokenPrincipal {
  clientId: string;
  accountId: string;
  scopes: ReadonlySet<Scope>;
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  scopes: Scope[];
}

/** Why a presented token was refused; all of them mean 401 to the caller. */
export class InvalidTokenError extends Error {
  constructor(readonly reason: 'malformed' | 'expired' | 'signature' | 'claims' | 'unknown_key') {
    super(`invalid access token (${reason})`);
    this.name = 'InvalidTokenError';
  }
}

interface HeraldClaims extends JWTPayload {
  client_id?: unknown;
  account_id?: unknown;
  scope?: unknown;
}

/**
 * RFC 9068 JWT access tokens: `typ: at+jwt`, signed with the key ring's current key (named by
 * `kid`), verified with the algorithm pinned, so `alg: none` or an HMAC forgery never passes.
 */
export class AccessTokens {
  readonly #verified: VerifiedTokenCache;

  constructor(
    private readonly keys: KeyRing,
    private readonly clock: Clock,
    private readonly issuer: string,
    private readonly audience: string,
    /** Verified tokens remembered (TOKEN_CACHE_SIZE); 0 verifies every request afresh. */
    cacheSize = DEFAULT_TOKEN_CACHE_SIZE,
    /** How long a token lives (ACCESS_TOKEN_TTL_SECONDS); none older is accepted either. */
    private readonly ttlSeconds = TOKEN_TTL_SECONDS,
  ) {
    this.#verified = new VerifiedTokenCache(cacheSize);
  }

  async issue(input: { clientId: string; accountId: string; scopes: Scope[] }): Promise<IssuedToken> {
    const key = await this.keys.signingKey();
    const now = Math.floor(this.clock.now() / 1000);
    // Given in the catalogue's order by the token endpoint (core/channels.ts), without repeats.
    const scopes = [...new Set(input.scopes)];
    const accessToken = await new SignJWT({
      client_id: input.clientId,
      account_id: input.accountId,
      scope: scopes.join(' '),
    })
      .setProtectedHeader({ alg: TOKEN_ALGORITHM, typ: 'at+jwt', kid: key.kid })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject(input.clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + this.ttlSeconds)
      .setJti(randomBytes(16).toString('base64url'))
      .sign(key.privateKey);
    return { accessToken, expiresIn: this.ttlSeconds, scopes };
  }

  /** The token's caller, from the cache when this token was verified before and has not expired. */
  async verify(token: string): Promise<TokenPrincipal> {
    const key = VerifiedTokenCache.keyOf(token);
    const cached = this.#verified.get(key, this.clock.now());
    if (cached) return cached;
    const { principal, kid } = await this.verifyAfresh(token);
    // A token is valid while now < exp; a retired key verifies up to its own deadline.
    const keyDeadline = this.keys.verificationDeadline(kid) ?? Number.POSITIVE_INFINITY;
    this.#verified.set(key, principal, Math.min(principal.expiresAt * 1000 - 1, keyDeadline));
    return principal;
  }

  private async verifyAfresh(token: string): Promise<{ principal: TokenPrincipal; kid: string }> {
    let payload: HeraldClaims;
    let kid = '';
    try {
      const result = await jwtVerify<HeraldClaims>(
        token,
        async (header) => {
          if (typeof header.kid !== 'string') throw new InvalidTokenError('unknown_key');
          kid = header.kid;
          const key = await this.keys.verificationKey(header.kid);
          if (!key) throw new InvalidTokenError('unknown_key');
          return key;
        },
        {
          algorithms: [TOKEN_ALGORITHM],
          issuer: this.issuer,
          audience: this.audience,
          typ: 'at+jwt',
          requiredClaims: ['exp', 'iat', 'sub', 'jti'],
          // Herald never issues a token that lives longer than this, nor one issued in the future.
          maxTokenAge: this.ttlSeconds,
          currentDate: new Date(this.clock.now()),
        },
      );
      payload = result.payload;
    } catch (error) {
      throw toInvalidTokenError(error);
    }
    const { client_id: clientId, account_id: accountId, scope, sub, exp, iat } = payload;
    if (typeof exp !== 'number' || typeof iat !== 'number' || exp - iat > this.ttlSeconds) throw new InvalidTokenError('claims');
    if (typeof clientId !== 'string' || clientId !== sub || typeof accountId !== 'string' || typeof scope !== 'string') {
      throw new InvalidTokenError('claims');
    }
    return {
      principal: { clientId, accountId, scopes: new Set(splitScopes(scope)), expiresAt: exp },
      kid,
    };
  }
}

function toInvalidTokenError(error: unknown): InvalidTokenError {
  if (error instanceof InvalidTokenError) return error;
  if (error instanceof errors.JWTExpired) return new InvalidTokenError('expired');
  if (error instanceof errors.JWSSignatureVerificationFailed) return new InvalidTokenError('signature');
  if (error instanceof errors.JWTClaimValidationFailed) return new InvalidTokenError('claims');
  if (error instanceof errors.JOSEError) return new InvalidTokenError('malformed');
  throw error;
}
