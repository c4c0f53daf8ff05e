import { CompiledQuery, sql } from 'kysely';
import { beforeEach, expect, it } from 'vitest';
import { CHANNELS } from '../../../test/channels.js';
import { describeEachDialect, recordingStatements, useTestDatabase } from '../../../test/databases.js';
import { JOB_PRIORITY } from '../../core/delivery/job-kinds.js';
import { jobIdOfMessage } from '../../core/ids.js';
import type { Store } from '../../core/ports.js';
import { storeOf } from '../store.js';
import { dueFreeJobIds, jobsStore } from './jobs.store.js';

describeEachDialect('job queue store', (dialect) => {
  const test = useTestDatabase(dialect, { each: true });
  let store: Store;
  const T0 = 1_800_000_000_000;

  beforeEach(() => {
    store = storeOf(test.database, { channels: CHANNELS });
  });

  /** A delivery job; with a payload, a webhook delivery's (the kinds share a priority). */
  const enqueue = (runAt: number, payload?: { deliveryId: string }) =>
    store.jobs.enqueue(
      payload
        ? { kind: 'deliver_webhook', messageId: null, payload, runAt }
        : { kind: 'deliver_message', messageId: null, payload: null, runAt },
      T0,
    );
  const receiptPayload = { channel: 'sms', providerMessageId: 'p1', status: 'delivered', occurredAt: T0 } as const;
  const webhookPayload = { deliveryId: 'whd_1', receiver: 'wh_1' };

  it("keys the job of a message by the message, and removes it, and only it, by the message's id", async () => {
    const ofMessage = await store.jobs.enqueue({ kind: 'deliver_message', messageId: 'msg_sms_01abc', payload: null, runAt: T0 }, T0);
    const other = await store.jobs.enqueue({ kind: 'deliver_message', messageId: 'msg_sms_01abd', payload: null, runAt: T0 }, T0);
    const webhook = await store.jobs.enqueue({ kind: 'deliver_webhook', messageId: null, payload: webhookPayload, runAt: T0 }, T0);
    expect(ofMessage).toBe(jobIdOfMessage('msg_sms_01abc'));
    expect(webhook).toMatch(/^job_[0-9a-z]{26}$/);
    await store.jobs.deleteForMessage('msg_sms_01abc');
    await store.jobs.deleteForMessage('msg_sms_01zzz'); // a message without a job: nothing to remove
    const left = await store.jobs.claimDue('w1', T0, 30_000, 10);
    expect(left.map((j) => j.id).sort()).toEqual([other, webhook].sort());
    expect(left.find((j) => j.id === other)?.messageId).toBe('msg_sms_01abd');
  });

  it('refuses a second job for a message that has one', async () => {
    await store.jobs.enqueue({ kind: 'deliver_message', messageId: 'msg_sms_01abc', payload: null, runAt: T0 }, T0);
    await expect(
      store.jobs.enqueue({ kind: 'deliver_message', messageId: 'msg_sms_01abc', payload: null, runAt: T0 }, T0),
    ).rejects.toThrow();
    expect(await store.jobs.count()).toBe(1);
  });

  it('hands out only jobs that are due, oldest first, with their payload', async () => {
    const late = await enqueue(T0 + 2_000, { deliveryId: 'whd_2' });
    const early = await enqueue(T0 + 1_000, { deliveryId: 'whd_1' });
    await enqueue(T0 + 60_000);
    expect(await store.jobs.claimDue('w1', T0, 30_000, 10)).toEqual([]);
    const claimed = await store.jobs.claimDue('w1', T0 + 2_000, 30_000, 10);
    expect(claimed.map((j) => j.id)).toEqual([early, late]);
    expect(claimed.map((j) => j.payload)).toEqual([{ deliveryId: 'whd_1' }, { deliveryId: 'whd_2' }]);
    expect(claimed.every((j) => j.attempts === 1)).toBe(true);
  });

  it('hands out due receipts before any waiting delivery, however long the deliveries have waited', async () => {
    const deliveries = [await enqueue(T0), await enqueue(T0 + 1), await enqueue(T0 + 2)];
    const receipt = await store.jobs.enqueue({ kind: 'provider_receipt', messageId: null, payload: receiptPayload, runAt: T0 + 5_000 }, T0);
    const webhook = await store.jobs.enqueue({ kind: 'deliver_webhook', messageId: null, payload: webhookPayload, runAt: T0 + 3 }, T0);
    // Not due yet: it waits like any job.
    expect((await store.jobs.claimDue('w1', T0 + 4_999, 30_000, 1)).map((j) => j.id)).toEqual([deliveries[0]]);
    const claimed = await store.jobs.claimDue('w1', T0 + 5_000, 30_000, 10);
    expect(claimed.map((j) => j.id)).toEqual([receipt, deliveries[1], deliveries[2], webhook]);
  });

  it('never hands a leased job to a second worker until its lease runs out', async () => {
    const id = await enqueue(T0);
    expect((await store.jobs.claimDue('w1', T0, 30_000, 10)).map((j) => j.id)).toEqual([id]);
    expect(await store.jobs.claimDue('w2', T0 + 29_999, 30_000, 10)).toEqual([]);
    const reclaimed = await store.jobs.claimDue('w2', T0 + 30_001, 30_000, 10);
    expect(reclaimed.map((j) => [j.id, j.attempts])).toEqual([[id, 2]]);
    // The first worker woke up late: its completion must not remove the job the second now holds.
    await store.jobs.complete(id, 'w1');
    expect(await store.jobs.count()).toBe(1);
    await store.jobs.complete(id, 'w2');
    expect(await store.jobs.count()).toBe(0);
  });

  it('counts failures in a row apart from claims: a failed reschedule adds one, an ordinary one resets them', async () => {
    const id = await enqueue(T0);
    const claim = async (at: number) => (await store.jobs.claimDue('w1', at, 30_000, 10)).map((j) => [j.attempts, j.failures]);
    expect(await claim(T0)).toEqual([[1, 0]]);
    await store.jobs.rescheduleFailed([id], 'w1', T0 + 1, 'boom');
    expect(await claim(T0 + 1)).toEqual([[2, 1]]);
    await store.jobs.rescheduleFailed([id], 'w1', T0 + 2, 'boom');
    expect(await claim(T0 + 2)).toEqual([[3, 2]]);
    await store.jobs.reschedule(id, 'w1', T0 + 3, 'provider busy');
    expect(await claim(T0 + 3)).toEqual([[4, 0]]);
  });

  it('drops only the jobs its worker still holds under the same claim, and says which', async () => {
    const [a, b] = [await enqueue(T0), await enqueue(T0)];
    await store.jobs.claimDue('w1', T0, 30_000, 10);
    // w1's lease on both ran out; w2 took them over.
    await store.jobs.claimDue('w2', T0 + 30_001, 30_000, 10);
    const second = [
      { id: a as string, attempts: 2 },
      { id: b as string, attempts: 2 },
    ];
    expect(await store.jobs.drop(second, 'w1')).toEqual([]);
    expect(await store.jobs.count()).toBe(2);
    // w2's lease ran out too, and w2 claimed again: its first claim's late drop is not this one's.
    await store.jobs.claimDue('w2', T0 + 60_002, 30_000, 10);
    expect(await store.jobs.drop([{ id: a as string, attempts: 2 }], 'w2')).toEqual([]);
    expect(await store.jobs.drop([{ id: a as string, attempts: 3 }], 'w2')).toEqual([a]);
    expect(await store.jobs.count()).toBe(1);
  });

  it('renews only the leases its worker holds: a renewed job stays with it, a job left unrenewed goes to another worker', async () => {
    const free = await enqueue(T0 + 50_000);
    await enqueue(T0);
    await enqueue(T0);
    const [kept] = (await store.jobs.claimDue('alive', T0, 15_000, 1)).map((j) => j.id);
    const [other] = (await store.jobs.claimDue('dead', T0, 15_000, 1)).map((j) => j.id);
    // The living worker's heartbeat, 10 s in: its one lease now ends 15 s later; the dead one's does not move.
    expect(await store.jobs.renewLeases('alive', [kept as string, other as string, free], T0 + 25_000)).toBe(1);
    expect(await store.jobs.renewLeases('nobody', [kept as string, other as string], T0 + 25_000)).toBe(0);
    // Only the jobs named: one its worker no longer works on is left to its lease.
    expect(await store.jobs.renewLeases('dead', [], T0 + 25_000)).toBe(0);
    const taken = await store.jobs.claimDue('w2', T0 + 15_001, 15_000, 10);
    expect(taken.map((j) => [j.id, j.attempts])).toEqual([[other, 2]]);
    expect(await store.jobs.claimDue('w2', T0 + 24_999, 15_000, 10)).toEqual([]);
    // A free job is never given a lease by a renewal.
    const row = await test.database.db
      .selectFrom('jobs')
      .select(['locked_by', 'locked_until'])
      .where('id', '=', free)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ locked_by: null, locked_until: null });
    // Renewed, the living worker's job is still its own: its completion removes it.
    await store.jobs.complete(kept as string, 'alive');
    expect(await store.jobs.count()).toBe(2);
  });

  it('splits due jobs between workers claiming at the same time, without overlap', async () => {
    for (let i = 0; i < 60; i++) await enqueue(T0);
    const claims = await Promise.all(['a', 'b', 'c', 'd'].map((w) => store.jobs.claimDue(w, T0, 30_000, 20)));
    const ids = claims.flat().map((j) => j.id);
    expect(ids.length).toBe(60);
    expect(new Set(ids).size).toBe(60);
  });

  it('puts a rescheduled job back for later and gives back a stopping worker’s jobs at once', async () => {
    const [a, b] = [await enqueue(T0), await enqueue(T0)];
    await store.jobs.claimDue('w1', T0, 30_000, 10);
    await store.jobs.reschedule(a, 'w1', T0 + 5_000, 'THROTTLED: later');
    expect(await store.jobs.releaseAll('w1')).toBe(1);
    expect((await store.jobs.claimDue('w2', T0, 30_000, 10)).map((j) => j.id)).toEqual([b]);
    const row = await test.database.db.selectFrom('jobs').selectAll().where('id', '=', a).executeTakeFirstOrThrow();
    expect(row.last_error).toBe('THROTTLED: later');
    expect((await store.jobs.claimDue('w2', T0 + 5_000, 30_000, 10)).map((j) => j.id)).toEqual([a]);
  });

  it('takes back a job whose lease ran out before any free job, and finds free jobs behind a thousand leased ones', async () => {
    const stale = await enqueue(T0 + 500);
    await store.jobs.claimDue('dead', T0 + 500, 1_000, 1);
    const leased: string[] = [];
    for (let i = 0; i < 1_000; i++) leased.push(await enqueue(T0));
    const free = await enqueue(T0 + 1_000);
    expect((await store.jobs.claimDue('w1', T0 + 1_000, 60_000, 1_000)).map((j) => j.id).sort()).toEqual(leased.sort());
    const claimed = await store.jobs.claimDue('w2', T0 + 1_501, 60_000, 10);
    expect(claimed.map((j) => [j.id, j.attempts])).toEqual([
      [stale, 2],
      [free, 1],
    ]);
  });

  it('takes back an expired job in its own priority: a free receipt still goes before an expired delivery', async () => {
    const delivery = await enqueue(T0);
    await store.jobs.claimDue('dead', T0, 1_000, 1);
    const receipt = await store.jobs.enqueue({ kind: 'provider_receipt', messageId: null, payload: receiptPayload, runAt: T0 }, T0);
    const later = await enqueue(T0 + 10);
    expect((await store.jobs.claimDue('w1', T0 + 2_000, 60_000, 2)).map((j) => j.id)).toEqual([receipt, delivery]);
    expect((await store.jobs.claimDue('w1', T0 + 2_000, 60_000, 2)).map((j) => j.id)).toEqual([later]);
  });

  it('reads free jobs from an index that leaves out the jobs being worked on', async () => {
    const claimSql = dueFreeJobIds(test.database.db, 1, T0, 10).compile();
    const explain = dialect === 'sqlite' ? 'explain query plan ' : 'explain (costs off) ';
    const plan = await test.database.db.transaction().execute(async (trx) => {
      // An empty table would let PostgreSQL prefer a sequential scan; the plan is what is tested.
      if (dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await trx.executeQuery(CompiledQuery.raw(explain + claimSql.sql, [...claimSql.parameters]));
      return JSON.stringify(rows);
    });
    expect(plan).toContain('jobs_free');
  });

  // SQLite claims statement by statement; its read of free jobs is the one explained above.
  it.skipIf(dialect !== 'postgres')(
    'claims in one statement that reads every priority from the index of free jobs and lapsed leases from the index of leases',
    async () => {
      await enqueue(T0);
      // The store's own statement, recorded on its way to the database, then explained.
      const { db: recording, statements } = recordingStatements(test.database);
      const claimed = await jobsStore(recording, { capabilities: test.database.capabilities }).claimDue('w1', T0, 60_000, 10);
      expect(claimed).toHaveLength(1);
      const [claim] = statements;
      if (!claim || statements.length !== 1) throw new Error(`the claim ran ${statements.length} statements, not one`);
      const plan = await test.database.db.transaction().execute(async (trx) => {
        // An empty table would let PostgreSQL prefer a sequential scan; the plan is what is tested.
        await sql`set local enable_seqscan = off`.execute(trx);
        const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain (costs off) ${claim.sql}`, [...claim.parameters]),
        );
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
      expect(plan.match(/Index Scan using jobs_free on jobs/g)?.length ?? 0, plan).toBe(new Set(Object.values(JOB_PRIORITY)).size);
      expect(plan, plan).toMatch(/Index Scan using jobs_lease_end on jobs/);
      // The update finds the chosen rows by primary key, from the array of their ids.
      expect(plan, plan).toMatch(/Index Scan (using|on) jobs_pkey[^\n]*\n\s*Index Cond: \(id = ANY/);
      expect(plan, plan).not.toMatch(/Seq Scan/);
    },
  );

  // Row locks are PostgreSQL's: SQLite's single writer serialises the two transactions instead.
  it.skipIf(dialect !== 'postgres')(
    'locks only the jobs a claim takes: a job left for later can be deleted while the claim commits',
    async () => {
      const receipt = await store.jobs.enqueue({ kind: 'provider_receipt', messageId: null, payload: receiptPayload, runAt: T0 }, T0);
      const leftFor = [await enqueue(T0), await enqueue(T0 + 1)];
      const deleted = await store.transaction(async (tx) => {
        expect((await tx.jobs.claimDue('w1', T0 + 10, 60_000, 2)).map((job) => job.id)).toEqual([receipt, leftFor[0]]);
        // Another connection, as a cancel's would be, while the claim's transaction is still open.
        return test.database.db.transaction().execute(async (trx) => {
          await sql`set local lock_timeout = '2s'`.execute(trx);
          return trx
            .deleteFrom('jobs')
            .where('id', '=', leftFor[1] as string)
            .returning('id')
            .execute();
        });
      });
      expect(deleted).toEqual([{ id: leftFor[1] }]);
    },
  );

  it('tells when the next job falls due, counting leases that will run out', async () => {
    expect(await store.jobs.nextDueAt(T0)).toBeUndefined();
    await enqueue(T0 + 9_000);
    expect(await store.jobs.nextDueAt(T0)).toBe(T0 + 9_000);
    await enqueue(T0);
    await store.jobs.claimDue('w1', T0, 4_000, 1);
    expect(await store.jobs.nextDueAt(T0)).toBe(T0 + 4_000);
    // A lease that already ran out (its worker died) is due now.
    expect(await store.jobs.nextDueAt(T0 + 5_000)).toBe(T0 + 5_000);
  });

  it('adds a job in a transaction only when the transaction commits', async () => {
    let announced = 0;
    const announcing = storeOf(test.database, { channels: CHANNELS, onJobsCommitted: () => announced++ });
    await expect(
      announcing.transaction(async (tx) => {
        await tx.jobs.enqueue({ kind: 'deliver_message', messageId: null, payload: null, runAt: T0 }, T0);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store.jobs.count()).toBe(0);
    expect(announced).toBe(0);
    await announcing.transaction((tx) => tx.jobs.enqueue({ kind: 'deliver_message', messageId: null, payload: null, runAt: T0 }, T0));
    expect(announced).toBe(1);
  });
});
