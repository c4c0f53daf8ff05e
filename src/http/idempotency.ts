import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { KeptAnswer, Store } from '../core/ports.js';
import { requirePrincipal } from './auth.js';
import { ErrorEnvelope } from './envelope.js';
import { fingerprintOf } from './request-fingerprint.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST that writes nothing (a preview): no Idempotency-Key is claimed or kept for it. */
    changesNothing?: boolean;
  }
  interface FastifyRequest {
    /** The idempotency key this request claimed, to store its response under. */
    idempotencyClaim?: IdempotencyClaimOfRequest | undefined;
  }
}

interface IdempotencyClaimOfRequest {
  accountId: string;
  key: string;
  /** Names this claim: the store keeps an answer under the key only while the claim is this one. */
  lease: number;
  /** The status of the answer the use case kept in its own transaction, if it did (keptAnswer). */
  keptStatus?: number;
}

export interface IdempotencySettings {
  /** How long a key and its response are kept (24 h). */
  ttlMs: number;
  /**
   * How long a running request holds its key before a retry may take it over (its process died).
   * Short, because it is what a retry waits (409) after a crash; safe, because a request that runs
   * past it and is taken over can no longer keep its answer, so its transaction rolls back (409)
   * instead of finishing beside the retry.
   */
  lockMs: number;
}

export const DEFAULT_IDEMPOTENCY_SETTINGS: IdempotencySettings = { ttlMs: 24 * 3_600_000, lockMs: 10_000 };

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
 * `Idempotency-Key` on every POST under /v1 (409 IDEMPOTENCY_KEY_IN_USE while the first runs, 422
 * IDEMPOTENCY_KEY_REUSED for another request under the key). The key is the account's: the first request with it runs and its
 * response (any status below 500) is stored for 24 h; a retry with the same method, path and body
 * gets that response again with `Idempotent-Replayed: true`, and nothing runs twice. A 5xx is not
 * stored, so a retry runs again. Keys live in the store, so every process sees them.
 */
export function registerIdempotency(v1: FastifyInstance, deps: { store: Store; clock: Clock; settings: IdempotencySettings }): void {
  // Every POST route documents the header and the answers it brings (registered before the routes).
  v1.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST') || route.config?.changesNothing) return;
    route.schema ??= {};
    const schema = route.schema;
    if (schema.headers) throw new Error(`${route.url}: merge Idempotency-Key into its own headers schema`);
    schema.headers = IdempotencyHeaders;
    schema.response = { 409: ErrorEnvelope, 422: ErrorEnvelope, ...(schema.response as Record<string, unknown> | undefined) };
  });

  v1.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    // A POST that changes nothing (a preview) has nothing to keep: its header is ignored, and a retry just asks again.
    if (request.method !== 'POST' || request.routeOptions.config.changesNothing) return;
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
        request.idempotencyClaim = { accountId, key: header, lease: claim.lease };
        return;
      case 'replay': {
        const { response } = claim;
        reply.code(response.statusCode).header('idempotent-replayed', 'true');
        if (response.contentType) reply.header('content-type', response.contentType);
        return reply.send(response.body);
      }
      case 'in_use':
        throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry it shortly.', {
          retryAfterSeconds: 1,
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
    // Kept in the transaction that wrote what the request made (a crash could not split them).
    if (claim.keptStatus === reply.statusCode) return payload;
    if (reply.statusCode >= 500) {
      // A store that cannot be reached (the likely cause of this answer) cannot release it either:
      // the claim then lapses after lockMs (retries meanwhile get 409 with Retry-After). A release
      // that throws must not turn the answer into a 500.
      await deps.store.idempotency.release(claim.accountId, claim.key, claim.lease).catch((error: unknown) => {
        request.log.warn({ err: error }, 'could not release the Idempotency-Key claim; it lapses on its own');
      });
      return payload;
    }
    const contentType = reply.getHeader('content-type');
    try {
      // A request that created nothing (a refusal, or a route that keeps no answer itself): its
      // answer is kept now. Nothing is kept if a retry took the key over meanwhile.
      await deps.store.idempotency.complete(claim.accountId, claim.key, claim.lease, {
        statusCode: reply.statusCode,
        contentType: typeof contentType === 'string' ? contentType : null,
        body: typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '',
      });
    } catch (error) {
      // Only the replay is lost: the claim lapses after lockMs and a retry runs the request again.
      request.log.error({ err: error }, 'could not store the response of an idempotent request');
    }
    return payload;
  });
}

/** The content type of every JSON answer under /v1, as Fastify sends it. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The answer of a request that creates something, for its use case to keep in the transaction that
 * creates it (KeptAnswer): `present` turns the use case's result into the body the route answers
 * with `statusCode`, serialized as the route serializes it, so a replay is the answer byte for byte.
 * Undefined when the request carries no Idempotency-Key.
 */
export function keptAnswer<R>(
  request: FastifyRequest,
  reply: FastifyReply,
  statusCode: number,
  present: (result: R) => unknown,
): KeptAnswer<R> | undefined {
  const claim = request.idempotencyClaim;
  if (!claim) return undefined;
  return {
    async keep(tx, result) {
      const body = reply.getSerializationFunction(String(statusCode))?.(present(result) as Record<string, unknown>);
      if (body === undefined) throw new Error(`${request.routeOptions.url}: no response schema for ${statusCode} to keep an answer with`);
      const kept = await tx.idempotency.complete(claim.accountId, claim.key, claim.lease, {
        statusCode,
        contentType: JSON_CONTENT_TYPE,
        body,
      });
      if (!kept) {
        throw new ApiError(
          'IDEMPOTENCY_KEY_IN_USE',
          'This request ran past its claim on the Idempotency-Key and a retry took the key over; nothing was done. Retry to get the answer.',
          { retryAfterSeconds: 1 },
        );
      }
      claim.keptStatus = statusCode;
    },
  };
}
