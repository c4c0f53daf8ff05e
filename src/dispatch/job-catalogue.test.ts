import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';
import { JOB_KINDS } from '../core/delivery/job-kinds.js';
import { JOB_CATALOGUE, runnable } from './job-catalogue.js';
import { JOB_FAILURE_POLICY } from './retry-policy.js';

const claimed = (kind: string, payload: unknown) => ({
  id: 'job_1',
  kind,
  messageId: null,
  payload,
  runAt: 0,
  attempts: 1,
  failures: 0,
  createdAt: 0,
});

describe('the job catalogue', () => {
  it('has a handler, a payload check and a failure policy for every kind', () => {
    for (const kind of Object.values(JOB_KINDS)) {
      const spec = JOB_CATALOGUE[kind];
      expect(spec.run, kind).toBeDefined();
      expect(spec.failures.maxAttempts, kind).toBeGreaterThan(0);
    }
  });

  it('hands a job to its handler only when its payload fits its kind, saying what does not', () => {
    const receipt = { channel: 'sms', providerMessageId: '42', status: 'delivered', occurredAt: 1 };
    expect(runnable(claimed('provider_receipt', receipt))).toMatchObject({ batch: expect.any(Function) });
    expect(runnable(claimed('deliver_webhook', { deliveryId: 'whd_1' }))).toMatchObject({ one: expect.any(Function) });
    expect(runnable(claimed('deliver_message', null))).toMatchObject({ batch: expect.any(Function) });

    const wrongStatus = runnable(claimed('provider_receipt', { ...receipt, status: 'lost' }));
    expect(wrongStatus).toBeInstanceOf(Error);
    expect((wrongStatus as Error).message).toMatch(/^provider_receipt job with a broken payload\/status/);
    expect((runnable(claimed('deliver_webhook', { deliveryId: 5 })) as Error).message).toMatch(/payload\/deliveryId/);
    expect((runnable(claimed('deliver_message', { extra: true })) as Error).message).toMatch(/^deliver_message job with a broken payload/);
    expect((runnable(claimed('carrier_pigeon', null)) as Error).message).toBe('no handler for job kind carrier_pigeon');
  });
});

describeEachDialect('jobs that cannot run', (dialect) => {
  let t: TestApp;
  let account: CreatedAccount;
  let token: string;

  beforeEach(async () => {
    t = await createTestApp(dialect);
    account = await t.createAccount({ credits: 100 });
    token = await t.tokenFor(account);
  });
  afterEach(() => t.close());

  const send = async (to: string) => {
    const response = await t.call('POST', '/v1/sms/send', token, { to, message: 'Your code is 123456' });
    expect(response.statusCode).toBe(200);
    return response.json().data.message_id as string;
  };
  const jobRows = () => t.database.db.selectFrom('jobs').select(['kind', 'failures', 'run_at', 'last_error']).orderBy('id').execute();

  it('sets a receipt with a broken payload aside alone: the receipts claimed with it are applied', async () => {
    const a = await send('+14155552671');
    const b = await send('+14155552672');
    await t.worker.runOnce(); // both sent; the sandbox queued a receipt for each
    expect((await jobRows()).map((row) => row.kind)).toEqual(['provider_receipt', 'provider_receipt']);
    const [first] = await t.database.db.selectFrom('jobs').select(['id', 'payload']).orderBy('id').execute();
    const broken = { ...JSON.parse(first?.payload as string), status: 'lost' };
    await t.database.db
      .updateTable('jobs')
      .set({ payload: JSON.stringify(broken) })
      .where('id', '=', first?.id as string)
      .execute();

    await t.worker.runOnce();
    const statuses = [(await t.store.messages.findById(a))?.status, (await t.store.messages.findById(b))?.status];
    expect(statuses.sort()).toEqual(['delivered', 'sent']);
    const [left] = await jobRows();
    expect(left).toMatchObject({ kind: 'provider_receipt', failures: 1 });
    expect(left?.last_error).toMatch(/broken payload\/status/);
    // Tried again on the failure policy: 1 s after the first failure, give or take its jitter.
    expect(left?.run_at).toBeGreaterThanOrEqual(t.clock.now() + JOB_FAILURE_POLICY.baseDelayMs / 2);
    expect(left?.run_at).toBeLessThanOrEqual(t.clock.now() + JOB_FAILURE_POLICY.baseDelayMs);
  });

  it('drops a job of a kind this version does not know after the failures in a row its policy allows', async () => {
    await t.store.jobs.enqueue({ kind: 'deliver_message', messageId: null, payload: null, runAt: t.clock.now() }, t.clock.now());
    await t.database.db
      .updateTable('jobs')
      .set({ kind: 'carrier_pigeon', failures: JOB_FAILURE_POLICY.maxAttempts - 2 })
      .execute();
    await t.worker.runOnce();
    const [kept] = await jobRows();
    expect(kept).toMatchObject({ failures: JOB_FAILURE_POLICY.maxAttempts - 1, last_error: 'no handler for job kind carrier_pigeon' });
    t.clock.advance(JOB_FAILURE_POLICY.maxDelayMs);
    await t.worker.runOnce();
    expect(await jobRows()).toEqual([]);
  });
});
