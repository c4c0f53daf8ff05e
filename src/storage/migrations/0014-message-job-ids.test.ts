import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CHANNELS } from '../../../test/channels.js';
import { describeEachDialect, indexesOf, migratedStore, type TestDatabaseLocation } from '../../../test/databases.js';
import { jobIdOfMessage } from '../../core/ids.js';
import type { HeraldDatabase } from '../database.js';
import { Migrator } from '../migrator.js';
import { storeOf } from '../store.js';
import { MIGRATIONS } from './index.js';

const T0 = Date.UTC(2026, 10, 24);
const BEFORE = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0014'));
const THROUGH = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= '0014-message-job-ids'));

describeEachDialect('migration 0014: the job of a message is keyed by the message', (dialect) => {
  let location: TestDatabaseLocation;
  let database: HeraldDatabase;
  let db: Kysely<unknown>;

  /** Jobs as the versions before wrote them: random time-ordered ids, the message id beside. */
  const job = (id: string, kind: string, messageId: string | null, lockedBy: string | null = null) =>
    sql`insert into jobs (id, kind, message_id, payload, run_at, attempts, locked_by, locked_until, last_error, created_at, priority)
        values (${id}, ${kind}, ${messageId}, null, ${T0}, 0, ${lockedBy}, ${lockedBy ? T0 + 30_000 : null}, null, ${T0}, 1)`.execute(db);

  const jobs = async () =>
    (
      await sql<{ id: string; kind: string; message_id: string | null; locked_by: string | null }>`
        select id, kind, message_id, locked_by from jobs order by id`.execute(db)
    ).rows;

  beforeEach(async () => {
    ({ location, database, db } = await migratedStore(dialect, BEFORE, T0));
    await job('job_01aaaa', 'deliver_message', 'msg_sms_01x');
    await job('job_01bbbb', 'deliver_message', 'msg_email_01y', 'worker-1');
    await job('job_01cccc', 'deliver_webhook', null);
    await job('job_01dddd', 'provider_receipt', null);
  });

  afterEach(async () => {
    await database.close();
    await location.drop();
  });

  it('drops the index of message ids', async () => {
    expect((await indexesOf(database, 'jobs')).has('jobs_message')).toBe(true);
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    expect((await indexesOf(database, 'jobs')).has('jobs_message')).toBe(false);
  });

  it("gives the jobs of messages their message's key, claimed or not, and leaves the others as they were", async () => {
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    expect(await jobs()).toEqual([
      { id: 'job_01cccc', kind: 'deliver_webhook', message_id: null, locked_by: null },
      { id: 'job_01dddd', kind: 'provider_receipt', message_id: null, locked_by: null },
      { id: jobIdOfMessage('msg_email_01y'), kind: 'deliver_message', message_id: 'msg_email_01y', locked_by: 'worker-1' },
      { id: jobIdOfMessage('msg_sms_01x'), kind: 'deliver_message', message_id: 'msg_sms_01x', locked_by: null },
    ]);
  });

  it('keeps the oldest job of a message that had two, instead of failing on the clash', async () => {
    await job('job_01eeee', 'deliver_message', 'msg_sms_01x');
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    const ofMessage = (await jobs()).filter((row) => row.message_id === 'msg_sms_01x');
    expect(ofMessage).toEqual([{ id: jobIdOfMessage('msg_sms_01x'), kind: 'deliver_message', message_id: 'msg_sms_01x', locked_by: null }]);
    expect((await jobs()).length).toBe(4);
  });

  it("removes a migrated message's job by its key, and no other job", async () => {
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    await storeOf(database, { channels: CHANNELS }).jobs.deleteForMessage('msg_sms_01x');
    expect((await jobs()).map((row) => row.id)).toEqual(['job_01cccc', 'job_01dddd', jobIdOfMessage('msg_email_01y')]);
  });
});
