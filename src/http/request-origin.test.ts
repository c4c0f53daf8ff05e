import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AccountAccess } from '../core/accounts/account.js';
import { sendRequest } from './request-origin.js';

const ACCESS: AccountAccess = { suspended: false, plan: 'developer', ipRules: [], clientIds: ['cli_a'] };

/** A request as the bearer and access hooks leave it, its access read `ageMs` ago. */
const requestWith = (access: AccountAccess | null, ageMs: number) =>
  ({
    id: 'req_1',
    traceSpan: null,
    idempotencyClaim: undefined,
    principal: { accountId: 'acc_a', clientId: 'cli_a' },
    access,
    accessReadAt: performance.now() - ageMs,
  }) as unknown as FastifyRequest;

describe('what a send takes of its request', () => {
  const reply = {} as FastifyReply;
  const present = (result: unknown) => result;

  it('the access read when the request began, for its own account, while under a second old', () => {
    expect(sendRequest(requestWith(ACCESS, 10), reply, 200, present).access).toEqual({ accountId: 'acc_a', value: ACCESS });
  });

  it('none once it is older (a slow upload, a wait for its key): the send reads the account again', () => {
    expect(sendRequest(requestWith(ACCESS, 1_500), reply, 200, present).access).toBeUndefined();
  });

  it('none on a request the access hook did not read for', () => {
    expect(sendRequest(requestWith(null, 0), reply, 200, present).access).toBeUndefined();
  });
});
