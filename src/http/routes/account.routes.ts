import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { balanceOf } from '../../core/accounts/account.js';
import { toIso } from '../../core/clock.js';
import { microsToCredits } from '../../core/credits.js';
import { notFound } from '../../core/errors.js';
import type { Store } from '../../core/ports.js';
import { requirePrincipal } from '../auth.js';
import { commonErrors, Envelope, Timestamp } from '../envelope.js';

const AccountSchema = Type.Object(
  {
    client_id: Type.String({ description: 'The client the access token was issued to.' }),
    account_id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    plan: Type.String({ description: 'One of `developer`, `business`, `enterprise`.' }),
    created_at: Timestamp,
  },
  { title: 'Account' },
);

const BalanceSchema = Type.Object(
  {
    credits: Type.Number({ description: 'Total credits (up to 6 decimals).' }),
    reserved: Type.Number({ description: 'Credits held by messages not yet accepted by a provider.' }),
    available: Type.Number({ description: 'credits − reserved: what new sends can spend.' }),
  },
  { title: 'Balance' },
);

/** `GET /v1/account`: the caller's own account and balance (docs/messages-and-credits.md, "The credit balance"). */
export async function accountRoutes(app: FastifyInstance, deps: { store: Store }): Promise<void> {
  const loadAccount = async (accountId: string) => {
    const account = await deps.store.accounts.findAccount(accountId);
    if (!account) throw notFound('Account');
    return account;
  };

  app.get(
    '/v1/account',
    {
      config: { scope: 'account:read' },
      schema: {
        summary: 'Get the account',
        description: 'The account the token belongs to: its ids, name, contact email and plan.',
        operationId: 'getAccount',
        tags: ['Account'],
        security: [{ oauth2: ['account:read'] }],
        response: { 200: Envelope(AccountSchema), 404: commonErrors[400], ...commonErrors },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const account = await loadAccount(principal.accountId);
      return {
        success: true as const,
        data: {
          client_id: principal.clientId,
          account_id: account.id,
          name: account.name,
          email: account.email,
          plan: account.plan,
          created_at: toIso(account.createdAt),
        },
      };
    },
  );

  app.get(
    '/v1/account/balance',
    {
      config: { scope: 'account:read' },
      schema: {
        summary: 'Get the credit balance',
        description: 'Credits on the account, credits reserved for messages not yet sent, and what is available to send with.',
        operationId: 'getBalance',
        tags: ['Account'],
        security: [{ oauth2: ['account:read'] }],
        response: { 200: Envelope(BalanceSchema), 404: commonErrors[400], ...commonErrors },
      },
    },
    async (request) => {
      const balance = balanceOf(await loadAccount(requirePrincipal(request).accountId));
      return {
        success: true as const,
        data: {
          credits: microsToCredits(balance.creditsMicros),
          reserved: microsToCredits(balance.reservedMicros),
          available: microsToCredits(balance.availableMicros),
        },
      };
    },
  );
}
