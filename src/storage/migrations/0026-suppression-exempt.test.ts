import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDialect, migratedStore, type TestDatabaseLocation } from '../../../test/databases.js';
import type { HeraldDatabase } from '../database.js';
import { Migrator } from '../migrator.js';
import { MIGRATIONS } from './index.js';

const T0 = Date.UTC(2026, 11, 1);
const BEFORE = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0026'));
const THROUGH = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= '0026-suppression-exempt'));

describeEachDialect('migration 0026: STOP confirmations exempt from the hand-over check', (dialect) => {
  let location: TestDatabaseLocation;
  let database: HeraldDatabase;
  let db: Kysely<unknown>;

  beforeEach(async () => {
    ({ location, database, db } = await migratedStore(dialect, BEFORE, T0));
    await sql`insert into accounts (id, name, email, plan, scopes, credits_micros, reserved_micros, created_at)
              values ('acc_1', 'Acme', 'ops@acme.test', 'developer', 'sms:send', 0, 0, ${T0})`.execute(db);
    await sql`insert into suppressions (account_id, channel, recipient, reason, source, note, created_at)
              values ('acc_1', 'sms', '+14155550100', 'opt_out', 'inbound', null, ${T0}),
                     ('acc_1', 'sms', '+14155550200', 'manual', 'api', null, ${T0})`.execute(db);
    const rows: Array<[string, string, string, number]> = [
      ['msg_confirmation', '+14155550100', 'queued', T0 + 1], // accepted after the STOP: its confirmation
      ['msg_before_stop', '+14155550100', 'queued', T0 - 1], // accepted before it: to be stopped
      ['msg_sent', '+14155550100', 'sent', T0 + 2],
      ['msg_manual', '+14155550200', 'queued', T0 + 1], // a manual entry sends no confirmation
      ['msg_other', '+14155550300', 'queued', T0 + 1],
    ];
    for (const [id, to, status, at] of rows) {
      await sql`insert into messages (id, account_id, channel, recipient, body, status, segments, cost_micros, charge_state, created_at, updated_at)
                values (${id}, 'acc_1', 'sms', ${to}, 'hi', ${status}, 1, 0, 'reserved', ${at}, ${at})`.execute(db);
    }
  });

  afterEach(async () => {
    await database.close();
    await location.drop();
  });

  it('marks only the queued messages to someone a STOP listed at or before their acceptance', async () => {
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    const rows = await database.db.selectFrom('messages').select(['id', 'suppression_exempt']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'msg_before_stop', suppression_exempt: null },
      { id: 'msg_confirmation', suppression_exempt: 1 },
      { id: 'msg_manual', suppression_exempt: null },
      { id: 'msg_other', suppression_exempt: null },
      { id: 'msg_sent', suppression_exempt: null },
    ]);
  });
});
