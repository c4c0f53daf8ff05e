import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { toIso } from '../../core/clock.js';
import { requirePrincipal } from '../auth.js';
import { commonErrors, Envelope, Timestamp } from '../envelope.js';

const TokenInfoSchema = Type.Object(
  {
    client_id: Type.String(),
    account_id: Type.String(),
    scopes: Type.Array(Type.String(), { description: 'The scopes the token holds, sorted.' }),
    expires_at: Timestamp,
  },
  { additionalProperties: false },
);

/**
 * What the caller's own access token says: which client and account it speaks for, its scopes and
 * its expiry. It needs no scope (it reveals nothing the token's holder cannot decode) and touches
 * no data, so it is also the cheapest authenticated call: a client's health check, and the
 * benchmark's baseline for the cost of authentication alone.
 */
export async function tokenInfoRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/v1/token',
    {
      schema: {
        summary: 'Describe the access token',
        operationId: 'getTokenInfo',
        description: 'Any valid token may call it. Answers with the client, account, scopes and expiry of the token sent.',
        tags: ['Account'],
        security: [{ oauth2: [] }],
        response: { 200: Envelope(TokenInfoSchema), ...commonErrors },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      return {
        success: true as const,
        data: {
          client_id: principal.clientId,
          account_id: principal.accountId,
          scopes: [...principal.scopes].sort(),
          expires_at: toIso(principal.expiresAt * 1000),
        },
      };
    },
  );
}
