import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDialect, migratedStore, type TestDatabaseLocation } from '../../../test/databases.js';
import type { HeraldDatabase } from '../database.js';
import { Migrator } from '../migrator.js';
import { MIGRATIONS } from './index.js';

const T0 = Date.UTC(2026, 11, 2);
const BEFORE = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0028'));
const THROUGH = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= '0028-audit-actor-email'));

describeEachDialect('migration 0028: the audit log keeps who acted by address', (dialect) => {
  let location: TestDatabaseLocation;
  let database: HeraldDatabase;
  let db: Kysely<unknown>;

  beforeEach(async () => {
    ({ location, database, db } = await migratedStore(dialect, BEFORE, T0));
    await sql`insert into accounts (id, name, email, plan, scopes, credits_micros, reserved_micros, created_at)
              values ('acc_1', 'Acme', 'ops@acme.test', 'developer', 'sms:send', 0, 0, ${T0})`.execute(db);
    await sql`insert into users (id, account_id, email, role, password_hash, created_at)
              values ('usr_stays', 'acc_1', 'ana@acme.test', 'owner', 'x', ${T0})`.execute(db);
    await sql`insert into operators (id, email, password_hash, created_at) values ('opr_1', 'ops@herald.test', 'x', ${T0})`.execute(db);
    const rows: Array<[id: string, actor: string, action: string, target: string | null]> = [
      ['aud_1', 'usr_stays', 'user.joined', 'ana@acme.test (owner)'],
      ['aud_2', 'usr_gone', 'user.joined', 'bob@acme.test (developer)'],
      ['aud_3', 'usr_gone', 'client.created', 'cli_1'],
      ['aud_4', 'usr_stays', 'user.removed', 'bob@acme.test (developer)'],
      ['aud_5', 'opr_1', 'credits.added', 'acc_1'],
      ['aud_6', 'operator', 'account.suspended', null],
      ['aud_7', 'usr_never_joined', 'user.signed_in', null],
      // A joining row written without its role: the whole target is the address, on both stores.
      ['aud_8', 'usr_bare', 'user.joined', 'cy@acme.test'],
    ];
    for (const [id, actor, action, target] of rows) {
      await sql`insert into audit_log (id, account_id, actor, action, target, ip, at)
                values (${id}, 'acc_1', ${actor}, ${action}, ${target}, null, ${T0})`.execute(db);
    }
  });

  afterEach(async () => {
    await database.close();
    await location.drop();
  });

  it("writes each earlier row's address: a user's, a removed user's from their joining, an operator's; none for the CLI", async () => {
    await new Migrator(db, dialect, THROUGH).migrate(T0);
    const rows = await database.db.selectFrom('audit_log').select(['id', 'actor_email']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'aud_1', actor_email: 'ana@acme.test' },
      { id: 'aud_2', actor_email: 'bob@acme.test' },
      { id: 'aud_3', actor_email: 'bob@acme.test' },
      { id: 'aud_4', actor_email: 'ana@acme.test' },
      { id: 'aud_5', actor_email: 'ops@herald.test' },
      { id: 'aud_6', actor_email: null },
      { id: 'aud_7', actor_email: null },
      { id: 'aud_8', actor_email: 'cy@acme.test' },
    ]);
  });
});
