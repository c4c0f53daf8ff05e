import { type ExpressionBuilder, sql, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import { JOB_PRIORITY, type JobKind } from '../../core/delivery/job-kinds.js';
import { jobIdOfMessage, newJobId } from '../../core/ids.js';
import type { ClaimedJob, JobsPort, NewJob } from '../../core/ports.js';
import type { Capabilities, Executor } from '../database.js';
import type { Database, JobsTable } from '../schema.js';
import { chunks } from './chunks.js';
import { insertRows } from './insert-rows.js';

/** What a claim reads back of each job it leased: a ClaimedJob. */
const CLAIMED_COLUMNS = ['id', 'kind', 'message_id', 'payload', 'run_at', 'attempts', 'failures', 'created_at'] as const;

const toClaimed = (row: Pick<JobsTable, (typeof CLAIMED_COLUMNS)[number]>): ClaimedJob => ({
  id: row.id,
  kind: row.kind,
  messageId: row.message_id,
  payload: row.payload === null ? null : JSON.parse(row.payload),
  runAt: row.run_at,
  attempts: row.attempts,
  failures: row.failures,
  createdAt: row.created_at,
});

export interface JobsStoreOptions {
  capabilities: Capabilities;
  /** Called after each insert (the store announces it, in this process and to others, once committed). */
  onEnqueued?: () => void;
}

/**
 * A claim in one statement (PostgreSQL): the jobs whose worker died with them (read from the index
 * of running leases) and each priority's free jobs due by `now` (a range of the index of free jobs
 * that ends at `now`), each read skipping rows other workers are claiming, and of those the first
 * `limit` in claim order (priority, taken-back jobs before free ones of their priority, due time)
 * leased (found by primary key: joined to the CTE alone, the planner hashed a scan of the whole
 * table). One round trip where a read and an update per priority were three or four. Expired leases
 * read but not taken (nearly always none) stay locked until the claim commits, as they did.
 */
async function claimInOneStatement(db: Executor, workerId: string, now: number, leaseMs: number, limit: number): Promise<ClaimedJob[]> {
  // Each priority reads (and locks) only what the batch has room for after the jobs ahead of it:
  // a row locked but not taken would stay locked until this transaction commits, and a cancel
  // deleting its job (which does not skip locked rows) would wait on the claim.
  const free = PRIORITIES.map((priority, i) => {
    const ahead = [
      sql`(select count(*) from expired where priority <= ${priority})`,
      ...PRIORITIES.slice(0, i).map((_, j) => sql`(select count(*) from ${sql.ref(`free_${j}`)})`),
    ];
    return sql`${sql.ref(`free_${i}`)} as (select id, priority, 1 as free, run_at from jobs
        where priority = ${priority} and locked_until is null and run_at <= ${now}
        order by run_at, id limit greatest(0, ${limit} - ${sql.join(ahead, sql` - `)}) for update skip locked)`;
  });
  const candidates = [sql`select * from expired`, ...PRIORITIES.map((_, i) => sql`select * from ${sql.ref(`free_${i}`)}`)];
  const { rows } = await sql<Pick<JobsTable, (typeof CLAIMED_COLUMNS)[number]> & { claim_free: number; claim_priority: number }>`
    with expired as (select id, priority, 0 as free, run_at from jobs where locked_until < ${now}
      order by locked_until limit ${limit} for update skip locked),
    ${sql.join(free)},
    chosen as (${sql.join(candidates, sql` union all `)} order by priority, free, run_at, id limit ${limit})
    update jobs set locked_by = ${workerId}, locked_until = ${now + leaseMs}, attempts = jobs.attempts + 1
    from chosen where jobs.id = any(array(select id from chosen)) and jobs.id = chosen.id
    returning ${sql.join(CLAIMED_COLUMNS.map((column) => sql.ref(`jobs.${column}`)))}, chosen.free as claim_free, chosen.priority as claim_priority`.execute(
    db,
  );
  rows.sort(
    (a, b) =>
      a.claim_priority - b.claim_priority || a.claim_free - b.claim_free || a.run_at - b.run_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return rows.map(toClaimed);
}

/** Every priority jobs are given, first claimed first. */
const PRIORITIES = [...new Set(Object.values(JOB_PRIORITY))].sort((a, b) => a - b);

/** Free jobs of one priority, first claimed first, read from the index of free jobs (migration 0010). */
const freeJobsInClaimOrder = (db: Executor, priority: number) =>
  db.selectFrom('jobs').where('priority', '=', priority).where('locked_until', 'is', null).orderBy('run_at').orderBy('id');

/** The ids a claim takes of one priority's free jobs due by `now`. */
export const dueFreeJobIds = (db: Executor, priority: number, now: number, limit: number) =>
  freeJobsInClaimOrder(db, priority).select('id').where('run_at', '<=', now).limit(limit);

/**
 * The durable job queue. Jobs are deleted when finished, so the table only ever holds work still
 * to do (and its size is the backlog).
 */
export function jobsStore(db: Executor, options: JobsStoreOptions): JobsPort {
  /** Inserts jobs with ids made here; the store announces them once they are committed. */
  const insert = async (jobs: readonly NewJob[], at: number): Promise<string[]> => {
    const rows = jobs.map((job) => ({
      id: job.messageId === null ? newJobId(at) : jobIdOfMessage(job.messageId),
      kind: job.kind,
      message_id: job.messageId,
      payload: job.payload === null || job.payload === undefined ? null : JSON.stringify(job.payload),
      run_at: job.runAt,
      priority: JOB_PRIORITY[job.kind as JobKind] ?? 1,
      attempts: 0,
      failures: 0,
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: at,
    }));
    if (rows.length === 0) return [];
    for (const chunk of chunks(rows, 1000)) await insertRows(db, 'jobs', chunk);
    options.onEnqueued?.();
    return rows.map((row) => row.id);
  };

  const rescheduleMany: JobsPort['rescheduleMany'] = async (jobIds, workerId, runAt, error) => {
    for (const chunk of chunks(jobIds, 1000)) {
      await db
        .updateTable('jobs')
        .set({ run_at: runAt, locked_by: null, locked_until: null, last_error: error, failures: 0 })
        .where('id', 'in', chunk)
        .where('locked_by', '=', workerId)
        .execute();
    }
  };

  return {
    async enqueue(job, at) {
      const [id] = await insert([job], at);
      return id as string;
    },

    async enqueueMany(jobs, at) {
      await insert(jobs, at);
    },

    async claimDue(workerId, now, leaseMs, limit) {
      // PostgreSQL: one statement, skipping rows other workers are claiming. SQLite has a single
      // writer, so its claims are serialised anyway, and each statement is a call in process.
      if (options.capabilities.skipLocked) return claimInOneStatement(db, workerId, now, leaseMs, limit);
      const claimed: Array<Pick<JobsTable, (typeof CLAIMED_COLUMNS)[number]>> = [];
      const lease = (update: UpdateQueryBuilder<Database, 'jobs', 'jobs', UpdateResult>) =>
        update
          .set((eb) => ({ locked_by: workerId, locked_until: now + leaseMs, attempts: eb('attempts', '+', 1) }))
          .returning(CLAIMED_COLUMNS)
          .execute()
          .then((rows) => claimed.push(...rows.sort((a, b) => a.run_at - b.run_at || (a.id < b.id ? -1 : 1))));
      // Jobs whose worker died with them, read from the index of running leases (nearly always
      // none); each is taken back before the free jobs of its own priority.
      const expired = await db
        .selectFrom('jobs')
        .select(['id', 'priority'])
        .where('locked_until', '<', now)
        .orderBy('locked_until')
        .limit(limit)
        .execute();
      // Then free jobs, one priority at a time, highest first: with `priority = p` the index of free
      // jobs is read as a range that ends at `now`, so jobs due later (scheduled sends, retries hours
      // out) are never scanned, however many there are, nor are the jobs being worked on.
      for (const priority of PRIORITIES) {
        const expiredHere = expired.filter((row) => row.priority === priority).map((row) => row.id);
        const wantedExpired = expiredHere.slice(0, limit - claimed.length);
        if (wantedExpired.length > 0) {
          // Still expired when written (a claim outside a transaction).
          await lease(db.updateTable('jobs').where('id', 'in', wantedExpired).where('locked_until', '<', now));
        }
        const wanted = limit - claimed.length;
        if (wanted <= 0) break;
        await lease(db.updateTable('jobs').where('id', 'in', dueFreeJobIds(db, priority, now, wanted)));
      }
      return claimed.map(toClaimed);
    },

    async complete(jobId, workerId) {
      await db.deleteFrom('jobs').where('id', '=', jobId).where('locked_by', '=', workerId).execute();
    },

    async completeMany(jobIds, workerId) {
      const removed: string[] = [];
      for (const chunk of chunks(jobIds, 1000)) {
        const rows = await db.deleteFrom('jobs').where('id', 'in', chunk).where('locked_by', '=', workerId).returning('id').execute();
        for (const row of rows) removed.push(row.id);
      }
      return removed;
    },

    async reschedule(jobId, workerId, runAt, error) {
      await rescheduleMany([jobId], workerId, runAt, error);
    },

    rescheduleMany,

    async rescheduleFailed(jobIds, workerId, runAt, error) {
      for (const chunk of chunks(jobIds, 1000)) {
        await db
          .updateTable('jobs')
          .set((eb) => ({ run_at: runAt, locked_by: null, locked_until: null, last_error: error, failures: eb('failures', '+', 1) }))
          .where('id', 'in', chunk)
          .where('locked_by', '=', workerId)
          .execute();
      }
    },

    async drop(claims, workerId) {
      const dropped: string[] = [];
      for (const { id, attempts } of claims) {
        const rows = await db
          .deleteFrom('jobs')
          .where('id', '=', id)
          .where('locked_by', '=', workerId)
          .where('attempts', '=', attempts)
          .returning('id')
          .execute();
        dropped.push(...rows.map((row) => row.id));
      }
      return dropped;
    },

    async releaseAll(workerId) {
      const result = await db
        .updateTable('jobs')
        .set({ locked_by: null, locked_until: null })
        .where('locked_by', '=', workerId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async renewLeases(workerId, jobIds, until) {
      let renewed = 0;
      for (const ids of chunks(jobIds, 1_000)) {
        // PostgreSQL: rows another transaction holds (this worker settling that job right now) are
        // skipped, not waited for. A renewal takes its rows in no set order, a settle its own: waiting,
        // the two deadlocked now and then, and the settle lost (a webhook delivery sent twice).
        const held = options.capabilities.skipLocked
          ? (eb: ExpressionBuilder<Database, 'jobs'>) =>
              eb.selectFrom('jobs').select('id').where('id', 'in', ids).where('locked_by', '=', workerId).forUpdate().skipLocked()
          : undefined;
        const result = await db
          .updateTable('jobs')
          .set({ locked_until: until })
          .where('id', 'in', held ?? ids)
          .where('locked_until', 'is not', null)
          .where('locked_by', '=', workerId)
          .executeTakeFirst();
        renewed += Number(result.numUpdatedRows);
      }
      return renewed;
    },

    async nextDueAt(now) {
      // The first free job of each priority, read in claim order from the index of free jobs (so
      // neither jobs due much later nor jobs being worked on are scanned), and the first lease to
      // run out, from the index of running leases.
      const candidates: number[] = [];
      for (const priority of PRIORITIES) {
        const row = await freeJobsInClaimOrder(db, priority).select('run_at').limit(1).executeTakeFirst();
        if (row) candidates.push(Number(row.run_at));
      }
      const lease = await db
        .selectFrom('jobs')
        .select((eb) => eb.fn.min('locked_until').as('next'))
        .where('locked_until', 'is not', null)
        .executeTakeFirst();
      if (lease?.next !== null && lease?.next !== undefined) candidates.push(Math.max(now, Number(lease.next)));
      return candidates.length ? Math.min(...candidates) : undefined;
    },

    async deleteForMessage(messageId) {
      await db.deleteFrom('jobs').where('id', '=', jobIdOfMessage(messageId)).execute();
    },

    async backlog(now) {
      // Due: may be claimed now (its time has come, and no worker holds it).
      const due = (eb: ExpressionBuilder<Database, 'jobs'>) =>
        eb.and([eb('run_at', '<=', now), eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)])]);
      const rows = await db
        .selectFrom('jobs')
        .select((eb) => [
          'kind',
          eb.fn.countAll<number | string>().as('jobs'),
          eb.fn.sum<number | string | null>(eb.case().when(due(eb)).then(1).else(0).end()).as('due'),
          eb.fn.sum<number | string | null>(eb.case().when('locked_until', '>', now).then(1).else(0).end()).as('held'),
          eb.fn.min<number | string | null>(eb.case().when(due(eb)).then(eb.ref('run_at')).end()).as('oldest'),
        ])
        .groupBy('kind')
        .orderBy('kind')
        .execute();
      return rows.map((row) => ({
        kind: row.kind,
        jobs: Number(row.jobs),
        due: Number(row.due ?? 0),
        held: Number(row.held ?? 0),
        oldestDueAt: row.oldest === null ? undefined : Number(row.oldest),
      }));
    },

    async count() {
      const row = await db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
  };
}
