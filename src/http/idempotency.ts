import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { Store } from '../core/ports.js';
import { requirePrincipal } from './auth.js';
import { ErrorEnvelope } from './envelope.js';
import { fingerprintOf } from './request-fingerprint.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The idempotency key this request claimed, to store its response under. */
    idempotencyClaim?: { accountId: string; key: string } | undefined;
  }
}

export interface IdempotencySettings {
  /** How long a key and its response are kept (24 h). */
  ttlMs: number;
  /** How long a running request holds its key before a retry may take it over (its process died). */
  lockMs: number;
}

export const DEFAULT_IDEMPOTENCY_SETTINGS: IdempotencySettings = { ttlMs: 24 * 3_600_000, lockMs: 60_000 };

const HEADER = 'idempotency-key';
const KEY = /^[\x21-\x7e]{1,255}$/;

const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        'Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.',
      examples: ['5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d'],
    }),
  ),
});

/**
 * `Idempotency-Key` on every POST under /v1 (CONTRACT: 409 IDEMPOTENCY_KEY_IN_USE, 422
 * IDEMPOTENCY_KEY_REUSED). The key is the account's: the first request with it runs and its
 * response (any status below 500) is stored for 24 h; a retry with the same method, path and body
 * gets that response again with `Idempotent-Replayed: true`, and nothing runs twice. A 5xx is not
 * stored, so a retry runs again. Keys live in the store, so every process sees them.
 */
export function registerIdempotency(v1: FastifyInstance, deps: { store: Store; clock: Clock; settings: IdempotencySettings }): void {
  // Every POST route documents the header and the answers it brings (registered before the routes).
  v1.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    route.schema ??= {};
    const schema = route.schema;
    if (schema.headers) throw new Error(`${route.url}: merge Idempotency-Key into its own headers schema`);
    schema.headers = IdempotencyHeaders;
    schema.response = { 409: ErrorEnvelope, 422: ErrorEnvelope, ...(schema.response as Record<string, unknown> | undefined) };
  });

  v1.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const header = request.headers[HEADER];
    if (header === undefined) return;
    if (typeof header !== 'string' || !KEY.test(header)) {
      throw new ApiError('INVALID_REQUEST', 'Idempotency-Key must be one header of 1 to 255 visible ASCII characters.');
    }
    const { accountId } = requirePrincipal(request);
    const now = deps.clock.now();
    const claim = await deps.store.transaction((tx) =>
      tx.idempotency.claim({
        accountId,
        key: header,
        fingerprint: fingerprintOf(request),
        now,
        lockMs: deps.settings.lockMs,
        ttlMs: deps.settings.ttlMs,
      }),
    );
    switch (claim.kind) {
      case 'claimed':
        request.idempotencyClaim = { accountId, key: header };
        return;
      case 'replay': {
        const { response } = claim;
        reply.code(response.statusCode).header('idempotent-replayed', 'true');
        if (response.contentType) reply.header('content-type', response.contentType);
        return reply.send(response.body);
      }
      case 'in_use':
        throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry it shortly.', {
          headers: { 'retry-after': '1' },
        });
      case 'mismatch':
        throw new ApiError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used with a different request (method, path or body); use a new key for a new request.',
        );
    }
  });

  v1.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = undefined;
    if (reply.statusCode >= 500) {
      await deps.store.idempotency.release(claim.accountId, claim.key);
      return payload;
    }
    const contentType = reply.getHeader('content-type');
    try {
      await deps.store.idempotency.complete(claim.accountId, claim.key, {
        statusCode: reply.statusCode,
        contentType: typeof contentType === 'string' ? contentType : null,
        body: typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '',
      });
    } catch (error) {
      // The request did run; only its replay is lost (the claim lapses after lockMs).
      request.log.error({ err: error }, 'could not store the response of an idempotent request');
    }
    return payload;
  });
}
