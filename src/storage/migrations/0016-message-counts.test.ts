import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CHANNELS } from '../../../test/channels.js';
import { describeEachDialect, migratedStore, type TestDatabaseLocation } from '../../../test/databases.js';
import type { HeraldDatabase } from '../database.js';
import { Migrator } from '../migrator.js';
import { storeOf } from '../store.js';
import { MIGRATIONS } from './index.js';

const T0 = Date.UTC(2026, 10, 27);
const BEFORE = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0016'));
const THROUGH = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= '0016-message-counts'));

describeEachDialect('migration 0016: messages per channel are rows, not columns', (dialect) => {
  let location: TestDatabaseLocation;
  let database: HeraldDatabase;
  let db: Kysely<unknown>;

  beforeEach(async () => {
    ({ location, database, db } = await migratedStore(dialect, BEFORE, T0));
    for (const [account, sms, email] of [
      ['acc_1', 4, 1],
      ['acc_2', 0, 0],
    ] as const) {
      await sql`insert into accounts (id, name, email, plan, scopes, credits_micros, reserved_micros, created_at, messages_sms, messages_email)
                values (${account}, 'Acme', 'ops@acme.test', 'developer', 'sms:send', 0, 0, ${T0}, ${sms}, ${email})`.execute(db);
    }
  });

  afterEach(async () => {
    await database.close();
    await location.drop();
  });

  it("carries each account's counts over as rows, one per channel it sent on, and drops the columns", async () => {
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    const rows = (
      await sql<{ account_id: string; channel: string; messages: number | string }>`
        select account_id, channel, messages from account_message_counts order by account_id, channel`.execute(db)
    ).rows;
    expect(rows.map((row) => [row.account_id, row.channel, Number(row.messages)])).toEqual([
      ['acc_1', 'email', 1],
      ['acc_1', 'sms', 4],
    ]);
    const columns = Object.keys((await sql`select * from accounts where id = 'acc_1'`.execute(db)).rows[0] as object);
    expect(columns.filter((column) => column.startsWith('messages_'))).toEqual([]);
  });

  it('keeps the totals an unfiltered list gives, per channel readable', async () => {
    // With the migrations since, whose columns today's store reads.
    await new Migrator(db, dialect, MIGRATIONS).migrate(T0);
    const store = storeOf(database, { channels: CHANNELS });
    const total = async (channels: string[]) => (await store.messages.list({ accountId: 'acc_1', channels, limit: 1, offset: 0 })).total;
    expect(await total([...CHANNELS.names])).toBe(5);
    expect(await total(['sms', 'whatsapp'])).toBe(4);
    expect(await total(['telegram'])).toBe(0);
  });

  it('counts the sends of a channel it has never seen in a row of its own', async () => {
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    const store = storeOf(database, { channels: CHANNELS });
    await sql`update accounts set credits_micros = 10 where id = 'acc_2'`.execute(db);
    expect(await store.credits.reserveMany('acc_2', [{ messageId: 'msg_echo_1', micros: 1 }], T0, { echo: 3, sms: 1 })).toBe(true);
    expect(await store.credits.reserveMany('acc_2', [{ messageId: 'msg_echo_2', micros: 1 }], T0, { echo: 2 })).toBe(true);
    // A hold that does not take counts nothing.
    expect(await store.credits.reserveMany('acc_2', [{ messageId: 'msg_echo_3', micros: 100 }], T0, { echo: 7, sms: 7 })).toBe(false);
    const rows = (
      await sql<{ channel: string; messages: number | string }>`
        select channel, messages from account_message_counts where account_id = 'acc_2' order by channel`.execute(db)
    ).rows;
    expect(rows.map((row) => [row.channel, Number(row.messages)])).toEqual([
      ['echo', 5],
      ['sms', 1],
    ]);
  });
});
