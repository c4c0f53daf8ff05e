import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';
import type { Plan } from '../core/plans.js';
import type { Store } from '../core/ports.js';
import { headersOf, type RateLimitStore, type RateRule } from '../core/rate-limits.js';
import { requirePrincipal } from './auth.js';

export interface RateLimitSettings {
  /** REDIS_URL: buckets in Redis, shared by every process; without it, per process. */
  redisUrl?: string | undefined;
  /** Requests per client, by the account's plan. */
  plans: Record<Plan, RateRule>;
  /** Failed token requests allowed per client_id and per address (brute force). */
  tokenFailures: { perClient: RateRule; perIp: RateRule };
}

export interface RateLimiting {
  store: RateLimitStore;
  settings: RateLimitSettings;
}

const setHeaders = (reply: FastifyReply, figures: ReturnType<typeof headersOf>) => {
  reply.header('ratelimit-limit', String(figures.limit));
  reply.header('ratelimit-remaining', String(figures.remaining));
  reply.header('ratelimit-reset', String(figures.reset));
};

/**
 * An onRequest hook for /v1, after authentication: one token from the client's bucket, sized by its
 * account's plan; RateLimit-Limit/-Remaining/-Reset on every answer; 429 RATE_LIMITED with
 * Retry-After once it is empty.
 */
export function rateLimitHook(limiting: RateLimiting, store: Pick<Store, 'accounts'>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const principal = requirePrincipal(request);
    // The plan comes with the account's access, as the access hook read it for this request (or
    // kept, where the store keeps it), so a new plan applies on every node as soon as it is announced.
    const { plan } = request.access ?? (await store.accounts.access(principal.accountId));
    const rule = limiting.settings.plans[plan as Plan] ?? limiting.settings.plans.developer;
    const bucket = await limiting.store.take(`api:${principal.clientId}`, rule, 1);
    const figures = headersOf(rule, bucket);
    setHeaders(reply, figures);
    if (!bucket.allowed) {
      throw new ApiError('RATE_LIMITED', `Too many requests: this client may make ${rule.burst} at once and ${rule.perSecond} a second.`, {
        retryAfterSeconds: figures.retryAfter,
      });
    }
  };
}

/** Token-endpoint brute-force guard: failures per client_id and per address. */
export function tokenFailureGuard(limiting: RateLimiting) {
  const keys = (clientId: string, ip: string) =>
    [
      [`auth-client:${clientId}`, limiting.settings.tokenFailures.perClient],
      [`auth-ip:${ip}`, limiting.settings.tokenFailures.perIp],
    ] as const;
  return {
    /** Refuses (429) a client_id or an address that has failed too often lately, before any secret is checked. */
    async check(clientId: string, ip: string): Promise<void> {
      for (const [key, rule] of keys(clientId, ip)) {
        const bucket = await limiting.store.take(key, rule, 0);
        if (!bucket.allowed) {
          throw new ApiError('RATE_LIMITED', 'Too many failed token requests; wait before trying again.', {
            retryAfterSeconds: headersOf(rule, bucket).retryAfter,
          });
        }
      }
    },
    /** Counts a failed authentication against both. */
    async failed(clientId: string, ip: string): Promise<void> {
      for (const [key, rule] of keys(clientId, ip)) await limiting.store.take(key, rule, 1);
    },
  };
}
