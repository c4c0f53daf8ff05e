import { CompiledQuery, type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDialect, indexesOf, migratedStore, recordingStatements, type TestDatabaseLocation } from '../../../test/databases.js';
import type { HeraldDatabase } from '../database.js';
import { Migrator } from '../migrator.js';
import { messagesStore } from '../stores/messages.store.js';
import { MIGRATIONS } from './index.js';

const T0 = Date.UTC(2026, 10, 22);
const BEFORE = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0012'));
const THROUGH = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= '0012-whatsapp-recipient-index'));

describeEachDialect('migration 0012: an index of WhatsApp recipients only', (dialect) => {
  let location: TestDatabaseLocation;
  let database: HeraldDatabase;
  let db: Kysely<unknown>;

  beforeEach(async () => {
    ({ location, database, db } = await migratedStore(dialect, BEFORE, T0));
    await sql`insert into accounts (id, name, email, plan, scopes, credits_micros, reserved_micros, created_at)
              values ('acc_1', 'Acme', 'ops@acme.test', 'developer', 'sms:send', 0, 0, ${T0}),
                     ('acc_2', 'Beta', 'ops@beta.test', 'developer', 'sms:send', 0, 0, ${T0})`.execute(db);
    const rows: Array<[string, string, string, string]> = [
      ['msg_1', 'acc_1', 'whatsapp', '+14155550100'],
      ['msg_2', 'acc_1', 'whatsapp', '+14155550100'],
      ['msg_3', 'acc_2', 'sms', '+14155550100'],
      ['msg_4', 'acc_2', 'whatsapp', '+14155550199'],
    ];
    for (const [id, account, channel, recipient] of rows) {
      await sql`insert into messages (id, account_id, channel, recipient, body, status, segments, cost_micros, charge_state, created_at, updated_at)
                values (${id}, ${account}, ${channel}, ${recipient}, 'hi', 'queued', 1, 0, 'held', ${T0}, ${T0})`.execute(db);
    }
  });

  afterEach(async () => {
    await database.close();
    await location.drop();
  });

  it('replaces the recipient index of every message by one of WhatsApp messages only', async () => {
    expect((await indexesOf(database, 'messages')).has('messages_recipient_channel')).toBe(true);
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    const indexes = await indexesOf(database, 'messages');
    expect(indexes.has('messages_recipient_channel')).toBe(false);
    expect(indexes.get('messages_whatsapp_recipient')).toMatch(/\(\s*"?recipient"?\s*\).*where.*channel.*=\s*'whatsapp'/is);
  });

  it('finds the accounts that wrote to a WhatsApp number, and not those that sent it an SMS', async () => {
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    const messages = messagesStore(database.db, database.capabilities, 4);
    expect(await messages.whatsAppAccountsWriting('+14155550100')).toEqual(['acc_1']);
    expect((await messages.whatsAppAccountsWriting('+14155550199')).sort()).toEqual(['acc_2']);
    expect(await messages.whatsAppAccountsWriting('+14155550123')).toEqual([]);
  });

  it('answers that question through the new index', async () => {
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    // The store's own statement, recorded on its way to the database, then explained.
    const { db: recording, statements } = recordingStatements(database);
    await messagesStore(recording, database.capabilities, 4).whatsAppAccountsWriting('+14155550100');
    const [statement] = statements;
    if (!statement) throw new Error('the store ran no statement');
    const plan = await database.db.transaction().execute(async (trx) => {
      // A table this small would let PostgreSQL prefer a sequential scan; the plan is what is tested.
      if (dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
      const explain = dialect === 'sqlite' ? 'explain query plan ' : 'explain (costs off) ';
      const { rows } = await trx.executeQuery(CompiledQuery.raw(explain + statement.sql, [...statement.parameters]));
      return JSON.stringify(rows);
    });
    expect(plan).toContain('messages_whatsapp_recipient');
  });
});
