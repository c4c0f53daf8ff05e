import { CompiledQuery, type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDialect, indexesOf, migratedStore, recordingStatements, type TestDatabaseLocation } from '../../../test/databases.js';
import type { MessageListQuery } from '../../core/ports.js';
import type { HeraldDatabase } from '../database.js';
import { Migrator } from '../migrator.js';
import { messagesStore } from '../stores/messages.store.js';
import { LIST_INDEXES } from './0013-ascending-list-indexes.js';
import { MIGRATIONS } from './index.js';

const T0 = Date.UTC(2026, 10, 24);
const BEFORE = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0013'));
const THROUGH = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= '0013-ascending-list-indexes'));

/** Messages of two accounts, several in one millisecond (their order is then the id's, descending). */
const ROWS: Array<{ id: string; account: string; channel: string; status: string; at: number }> = [
  { id: 'msg_a1', account: 'acc_1', channel: 'sms', status: 'delivered', at: T0 },
  { id: 'msg_a2', account: 'acc_1', channel: 'email', status: 'queued', at: T0 + 1 },
  { id: 'msg_a4', account: 'acc_1', channel: 'sms', status: 'failed', at: T0 + 2 },
  { id: 'msg_a3', account: 'acc_1', channel: 'sms', status: 'delivered', at: T0 + 2 },
  { id: 'msg_a5', account: 'acc_1', channel: 'sms', status: 'delivered', at: T0 + 2 },
  { id: 'msg_b1', account: 'acc_2', channel: 'sms', status: 'delivered', at: T0 + 1 },
  { id: 'msg_a6', account: 'acc_1', channel: 'telegram', status: 'delivered', at: T0 + 3 },
];

const ALL_CHANNELS = ['sms', 'whatsapp', 'email', 'telegram'] as const;

/** The list queries the API makes: unfiltered, by channel, by status, by both, and by time. */
const QUERIES: Array<Omit<MessageListQuery, 'accountId' | 'limit' | 'offset'>> = [
  { channels: ALL_CHANNELS },
  { channels: ['sms'] },
  { channels: ALL_CHANNELS, status: 'delivered' },
  { channels: ['sms'], status: 'delivered' },
  { channels: ALL_CHANNELS, from: T0 + 1, to: T0 + 3 },
];

describeEachDialect('migration 0013: list indexes of messages in ascending order', (dialect) => {
  let location: TestDatabaseLocation;
  let database: HeraldDatabase;
  let db: Kysely<unknown>;

  beforeEach(async () => {
    ({ location, database, db } = await migratedStore(dialect, BEFORE, T0));
    for (const account of ['acc_1', 'acc_2']) {
      await sql`insert into accounts (id, name, email, plan, scopes, credits_micros, reserved_micros, created_at)
                values (${account}, 'Acme', 'ops@acme.test', 'developer', 'sms:send', 0, 0, ${T0})`.execute(db);
    }
    for (const row of ROWS) {
      await sql`insert into messages (id, account_id, channel, recipient, body, status, segments, cost_micros, charge_state, created_at, updated_at)
                values (${row.id}, ${row.account}, ${row.channel}, '+14155550100', 'hi', ${row.status}, 1, 0, 'held', ${row.at}, ${row.at})`.execute(
        db,
      );
    }
    // The per-channel counters an unfiltered list's total is read from, as sends keep them.
    // (Today's store reads them from migration 0016's table, made here ahead of its time.)
    await sql`create table account_message_counts (account_id text not null, channel text not null, messages bigint not null, primary key (account_id, channel))`.execute(
      db,
    );
    await sql`insert into account_message_counts values ('acc_1', 'sms', 4), ('acc_1', 'email', 1), ('acc_1', 'telegram', 1)`.execute(db);
    // Today's store reads every column of a message row: migrations 0017's and 0023's, ahead of their time too.
    await sql`alter table messages add column request_id text`.execute(db);
    await sql`alter table messages add column trace_context text`.execute(db);
    await sql`alter table messages add column route text`.execute(db);
  });

  afterEach(async () => {
    await database.close();
    await location.drop();
  });

  /** Every list query's ids, page by page (two to a page), and its total. */
  const lists = async () => {
    const store = messagesStore(database.db, database.capabilities, 4);
    const results: Array<{ pages: string[][]; total: number }> = [];
    for (const query of QUERIES) {
      const pages: string[][] = [];
      let total = 0;
      for (let offset = 0; offset < ROWS.length; offset += 2) {
        const page = await store.list({ ...query, accountId: 'acc_1', limit: 2, offset });
        pages.push(page.messages.map((m) => m.id));
        total = page.total;
      }
      results.push({ pages, total });
    }
    return results;
  };

  // Declared for the dialect it is about, rather than skipped on the other.
  if (dialect === 'sqlite')
    it('builds the four list indexes ascending on SQLite', async () => {
      for (const name of Object.keys(LIST_INDEXES)) expect((await indexesOf(database, 'messages')).get(name)).toMatch(/desc/i);
      await new Migrator(db, dialect, THROUGH).migrate(T0);
      const indexes = await indexesOf(database, 'messages');
      for (const [name, columns] of Object.entries(LIST_INDEXES)) {
        const definition = indexes.get(name) ?? '';
        expect(definition).not.toMatch(/desc/i);
        expect(definition.replace(/["\s]/g, '')).toContain(`(${[...columns, 'created_at', 'id'].join(',')})`);
      }
    });

  if (dialect === 'postgres')
    it('leaves the list indexes of PostgreSQL as they were', async () => {
      const before = await indexesOf(database, 'messages');
      await new Migrator(db, dialect, THROUGH).migrate(T0);
      expect(await indexesOf(database, 'messages')).toEqual(before);
    });

  it('lists every page in the same order as before: newest first, ties by id descending', async () => {
    const before = await lists();
    expect(before[0]).toEqual({ pages: [['msg_a6', 'msg_a5'], ['msg_a4', 'msg_a3'], ['msg_a2', 'msg_a1'], []], total: 6 });
    expect(before[3]?.pages.flat()).toEqual(['msg_a5', 'msg_a3', 'msg_a1']);
    expect(before[4]?.pages.flat()).toEqual(['msg_a5', 'msg_a4', 'msg_a3', 'msg_a2']);
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    expect(await lists()).toEqual(before);
  });

  if (dialect === 'sqlite')
    it('walks an index backwards for each list, with no sort', async () => {
      await new Migrator(db, dialect, THROUGH).migrate(T0);
      // The store's own statements, recorded on their way to the database, then explained.
      const { db: recording, statements } = recordingStatements(database);
      const store = messagesStore(recording, database.capabilities, 4);
      const expected = [
        'messages_account_created',
        'messages_account_channel_created',
        'messages_account_status_created',
        'messages_account_channel_status_created',
        'messages_account_created',
      ];
      for (const [i, query] of QUERIES.entries()) {
        statements.length = 0;
        await store.list({ ...query, accountId: 'acc_1', limit: 2, offset: 0 });
        const page = statements.find((s) => /order by/i.test(s.sql));
        if (!page) throw new Error('the store ran no list statement');
        const { rows } = await database.db.executeQuery(CompiledQuery.raw(`explain query plan ${page.sql}`, [...page.parameters]));
        const plan = JSON.stringify(rows);
        expect(plan).toContain(`USING INDEX ${expected[i]}`);
        expect(plan).not.toContain('TEMP B-TREE');
      }
    });
});
