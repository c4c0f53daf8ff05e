import { CompiledQuery, type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDialect, migratedStore, recordingStatements, type TestDatabaseLocation } from '../../../test/databases.js';
import type { HeraldDatabase } from '../database.js';
import { Migrator } from '../migrator.js';
import { inboundStore } from '../stores/inbound.store.js';
import { messagesStore } from '../stores/messages.store.js';
import { MIGRATIONS } from './index.js';

const T0 = Date.UTC(2026, 11, 1);

/** A table of the numbers 0 to n - 1, in SQL both dialects read. */
const numbers = (n: number) => `(${Array.from({ length: n }, (_, i) => `select ${i} as x`).join(' union all ')})`;
const BEFORE = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0024'));
const THROUGH = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= '0024-route-keys'));

describeEachDialect('migration 0024: receipts and parts per route', (dialect) => {
  let location: TestDatabaseLocation;
  let database: HeraldDatabase;
  let db: Kysely<unknown>;

  beforeEach(async () => {
    ({ location, database, db } = await migratedStore(dialect, BEFORE, T0));
    await sql`insert into accounts (id, name, email, plan, scopes, credits_micros, reserved_micros, created_at)
              values ('acc_1', 'Acme', 'ops@acme.test', 'developer', 'sms:send', 0, 0, ${T0})`.execute(db);
    // old: sent before 0023 (no route); eu: sent through the route eu since; both given the id 7.
    // Two long messages the same way, whose parts (before 0024) could not share ids.
    const rows: Array<[string, string | null, string, number]> = [
      ['msg_old', null, '7', T0],
      ['msg_eu', 'eu', '7', T0 + 1],
      ['msg_old_long', null, '30', T0 + 2],
      ['msg_eu_long', 'eu', '40', T0 + 3],
    ];
    for (const [id, route, smscId, at] of rows) {
      await sql`insert into messages (id, account_id, channel, recipient, body, status, segments, cost_micros, charge_state,
                                      created_at, updated_at, provider_message_id, route)
                values (${id}, 'acc_1', 'sms', '+14155550100', 'hi', 'sent', 1, 0, 'captured', ${at}, ${at}, ${smscId}, ${route})`.execute(
        db,
      );
    }
    await sql`insert into message_parts (channel, provider_message_id, message_id, part, status)
              values ('sms', '30', 'msg_old_long', 1, null), ('sms', '31', 'msg_old_long', 2, null),
                     ('sms', '40', 'msg_eu_long', 1, 'delivered'), ('sms', '41', 'msg_eu_long', 2, null)`.execute(db);
    // The first part of a long message, waiting for its second when the upgrade runs.
    await sql`insert into inbound_parts (channel, sender, recipient, reference, total, part, body, received_at)
              values ('sms', '+14155553000', '+14155550100', 66, 2, 1, 'Before the upgrade, ', ${T0})`.execute(db);
  });

  afterEach(async () => {
    await database.close();
    await location.drop();
  });

  const migrate = () => new Migrator(db, dialect, THROUGH).migrate(T0);
  const messages = () => messagesStore(database.db, database.capabilities, 4);

  it("gives each part its message's route ('' before routes), and waiting inbound parts the default route", async () => {
    await migrate();
    const parts = await database.db
      .selectFrom('message_parts')
      .select(['provider_message_id', 'route', 'message_id', 'part', 'status'])
      .orderBy('provider_message_id')
      .execute();
    expect(parts).toEqual([
      { provider_message_id: '30', route: '', message_id: 'msg_old_long', part: 1, status: null },
      { provider_message_id: '31', route: '', message_id: 'msg_old_long', part: 2, status: null },
      { provider_message_id: '40', route: 'eu', message_id: 'msg_eu_long', part: 1, status: 'delivered' },
      { provider_message_id: '41', route: 'eu', message_id: 'msg_eu_long', part: 2, status: null },
    ]);
    expect(await database.db.selectFrom('inbound_parts').select(['route', 'part']).execute()).toEqual([{ route: 'default', part: 1 }]);
  });

  it('matches a receipt of the default route to messages and parts sent before routes, and a receipt of another route only to its own', async () => {
    await migrate();
    const store = messages();
    // By the id 7: the route's own message; for the default route, the one with no route too.
    expect(await store.messageIdsByProviderIds('sms', [['7'], ['40'], ['30']], 'default')).toEqual(['msg_old', undefined, 'part']);
    expect(await store.messageIdsByProviderIds('sms', [['7'], ['40'], ['30']], 'eu')).toEqual(['msg_eu', 'part', undefined]);
    expect(await store.messageIdsByProviderIds('sms', [['7'], ['40'], ['30']], 'us')).toEqual([undefined, undefined, undefined]);
    // A receipt with no route (a provider without routes) matches as before: the newest with the id.
    expect(await store.messageIdsByProviderIds('sms', [['7']])).toEqual(['msg_eu']);

    expect(await store.findByProviderIds('sms', ['7'], 'default')).toMatchObject({ message: { id: 'msg_old' } });
    expect(await store.findByProviderIds('sms', ['7'], 'eu')).toMatchObject({ message: { id: 'msg_eu' } });
    expect(await store.findByProviderIds('sms', ['31'], 'default')).toMatchObject({
      message: { id: 'msg_old_long' },
      part: { providerMessageId: '31', route: null },
    });
    expect(await store.findByProviderIds('sms', ['31'], 'eu')).toBeUndefined();
    expect(await store.findByProviderIds('sms', ['41'], 'default')).toBeUndefined();
    const found = await store.findByProviderIds('sms', ['41'], 'eu');
    expect(found).toMatchObject({ message: { id: 'msg_eu_long' }, part: { providerMessageId: '41', route: 'eu' } });
    // The last part of each settles its own message: 0 undelivered left.
    expect(await store.settlePart('sms', found?.part ?? { providerMessageId: '', route: null }, 'delivered')).toEqual({ undelivered: 0 });
    expect(await store.settlePart('sms', { providerMessageId: '31', route: null }, 'delivered')).toEqual({ undelivered: 1 });
  });

  it('keeps the parts of two routes that were given the same ids apart', async () => {
    await migrate();
    const store = messages();
    await store.recordParts('msg_eu', 'sms', ['30', '31'], 'eu');
    expect((await store.findByProviderIds('sms', ['30'], 'eu'))?.message.id).toBe('msg_eu');
    expect((await store.findByProviderIds('sms', ['30'], 'default'))?.message.id).toBe('msg_old_long');
    expect(await database.db.selectFrom('message_parts').select('route').where('provider_message_id', '=', '30').execute()).toHaveLength(2);
  });

  it('completes a long message half-received before the upgrade with the default route, never with another', async () => {
    await migrate();
    const inbound = inboundStore(database.db);
    const part2 = { channel: 'sms', from: '+14155553000', to: '+14155550100', reference: 66, total: 2, part: 2, receivedAt: T0 + 1 };
    expect(await inbound.addPart({ ...part2, route: 'eu', text: 'from eu.' })).toBeUndefined();
    expect(await inbound.addPart({ ...part2, route: 'default', text: 'after it.' })).toEqual(['Before the upgrade, ', 'after it.']);
    expect(await inbound.removeParts('sms', { from: part2.from, to: part2.to, reference: 66 })).toBe(2);
    expect(await inbound.removeParts('sms', { from: part2.from, to: part2.to, reference: 66, route: 'eu' })).toBe(1);
  });

  it("looks a receipt's id up through an index, in messages and in message_parts", async () => {
    await migrate();
    // Enough rows (each id given out by two routes) for PostgreSQL's planner to weigh the indexes as in use.
    await sql`insert into messages (id, account_id, channel, recipient, body, status, segments, cost_micros, charge_state,
                                    created_at, updated_at, provider_message_id, route)
              select 'msg_n' || n, 'acc_1', 'sms', '+14155550100', 'hi', 'sent', 1, 0, 'captured', cast(${T0} as bigint) + n, cast(${T0} as bigint) + n,
                     cast(1000 + n / 2 as text), case when n % 2 = 0 then 'eu' else 'us' end
              from (select a.x * 50 + b.x as n from ${sql.raw(numbers(50))} a cross join ${sql.raw(numbers(50))} b) counted`.execute(db);
    await sql`insert into message_parts (channel, provider_message_id, route, message_id, part, status)
              select 'sms', cast(1000 + n / 2 as text), case when n % 2 = 0 then 'eu' else 'us' end, 'msg_eu_long', 1, null
              from (select a.x * 50 + b.x as n from ${sql.raw(numbers(50))} a cross join ${sql.raw(numbers(50))} b) counted`.execute(db);
    await sql`analyze`.execute(db);

    const { db: recording, statements } = recordingStatements(database);
    const store = messagesStore(recording, database.capabilities, 4);
    await store.messageIdsByProviderIds('sms', [['7', '07']], 'default');
    await store.messageIdsByProviderIds('sms', [['7']], 'eu');
    await store.findByProviderIds('sms', ['31'], 'default');
    await store.findByProviderIds('sms', ['nothing'], 'eu');
    await store.messageIdsByProviderIds('sms', [['7']]);
    const lookups = statements.filter((statement) => /provider_message_id"? (=|in)/i.test(statement.sql));
    expect(lookups).toHaveLength(9);
    for (const statement of lookups) {
      const plan = await database.db.transaction().execute(async (trx) => {
        const explain = dialect === 'sqlite' ? 'explain query plan ' : 'explain (costs off) ';
        const { rows } = await trx.executeQuery<Record<string, string>>(
          CompiledQuery.raw(explain + statement.sql, [...statement.parameters]),
        );
        return rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
      });
      const table = /from "?message_parts"?/i.test(statement.sql) ? 'message_parts' : 'messages';
      const index =
        table === 'messages' ? 'messages_provider_id' : dialect === 'sqlite' ? 'sqlite_autoindex_message_parts_1' : 'message_parts_pk';
      // Found by the id in the index, whatever the route: never a scan of the channel's rows.
      const byId =
        dialect === 'sqlite'
          ? new RegExp(`USING (COVERING )?INDEX ${index} \\(channel=\\? AND provider_message_id=\\?`)
          : new RegExp(
              `using ${index} on ${table}\\n(.*\\n)*?\\s*Index Cond: \\(\\(channel = 'sms'::text\\) AND \\(provider_message_id = `,
            );
      expect(plan, statement.sql).toMatch(byId);
    }
  });
});
