import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { CreatedAccount } from '../src/core/accounts/manage-accounts.js';
import type { TestApp } from './app-harness.js';

export interface ErrorBody {
  code: string;
  message: string;
  details?: { field: string; message: string }[];
}

/** Checks an error answer's status, envelope and code; returns its `error`. */
export function expectError(response: LightMyRequestResponse, status: number, code: string): ErrorBody {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json();
  expect(body).toMatchObject({ success: false, error: { code, message: expect.stringMatching(/\S/) } });
  expect(body.data).toBeUndefined();
  return body.error as ErrorBody;
}

/** A VALIDATION_ERROR naming exactly `fields` (in any order), one detail each; returns the details. */
export function expectFieldProblems(response: LightMyRequestResponse, fields: string[]): { field: string; message: string }[] {
  const error = expectError(response, 422, 'VALIDATION_ERROR');
  expect(error.details?.map((d) => d.field).sort()).toEqual([...fields].sort());
  for (const detail of error.details ?? []) expect(detail.message).toMatch(/\S/);
  return error.details ?? [];
}

/** What a rejected request must leave untouched: the balance, the ledger and the account's messages. */
export async function accountSnapshot(t: TestApp, account: CreatedAccount) {
  const stored = await t.store.accounts.findAccount(account.account.id);
  const messages = await t.database.db.selectFrom('messages').select(['id']).where('account_id', '=', account.account.id).execute();
  return {
    credits: stored?.creditsMicros,
    reserved: stored?.reservedMicros,
    ledger: await t.store.credits.ledger(account.account.id),
    messages: messages.map((m) => m.id).sort(),
  };
}

/** Runs a request that must be refused and checks that it changed nothing of the account's. */
export async function expectNothingWritten(
  t: TestApp,
  account: CreatedAccount,
  request: () => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse> {
  const before = await accountSnapshot(t, account);
  const response = await request();
  expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
  expect(await accountSnapshot(t, account)).toEqual(before);
  return response;
}
