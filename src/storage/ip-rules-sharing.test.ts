import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { allocateDatabase, describeEachDialect, openDatabase, type TestDatabaseLocation } from '../../test/databases.js';
import { until } from '../../test/wait.js';
import { createAccount } from '../core/accounts/manage-accounts.js';
import { systemClock } from '../core/clock.js';
import type { Store } from '../core/ports.js';
import type { Dialect, HeraldDatabase } from './database.js';
import { IpRulesCache } from './ip-rules-cache.js';
import { type Listener, listenForIpRuleChanges } from './notifications.js';
import { storeOf } from './store.js';

const quiet = { warn: () => {} };

interface TwoProcesses {
  location: TestDatabaseLocation;
  serverDb: HeraldDatabase;
  cliDb: HeraldDatabase;
  cache: IpRulesCache;
  /** The server's store: keeps lists in memory where the database can tell it of changes. */
  server: Store;
  /** The CLI's store, which changes the lists. */
  cli: Store;
  listener: Listener | undefined;
  accountId: string;
  /** A list changed behind the stores' backs (no notification): shows whether the server reads or remembers. */
  changeBehindTheBack(cidr: string): Promise<unknown>;
}

/** Two processes' views of one database of the test's own, made before each test. */
function useTwoProcesses(dialect: Dialect): TwoProcesses {
  const v = {} as TwoProcesses;
  beforeEach(async () => {
    v.location = allocateDatabase(dialect);
    v.serverDb = await openDatabase(v.location);
    v.cliDb = await openDatabase(v.location);
    v.cache = new IpRulesCache();
    v.server = storeOf(v.serverDb, undefined, { ipRulesCache: v.cache });
    v.cli = storeOf(v.cliDb);
    v.listener = listenForIpRuleChanges(v.serverDb, v.cache, quiet);
    v.accountId = (await createAccount(v.cli, systemClock, { name: 'Locked', email: 'locked@example.com', creditsMicros: 0 })).account.id;
    v.changeBehindTheBack = (cidr) =>
      sql`insert into ip_allow_rules (account_id, cidr, created_at) values (${v.accountId}, ${cidr}, ${Date.now()})`.execute(v.cliDb.db);
    if (dialect === 'postgres') await until(async () => v.cache.live, 'the listener to be in place', 5_000);
  });
  afterEach(async () => {
    await v.listener?.close();
    await v.serverDb.close();
    await v.cliDb.close();
    await v.location.drop();
  });
  return v;
}

describeEachDialect('IP allow-lists shared between processes', (dialect) => {
  const v = useTwoProcesses(dialect);

  it('a rule added or removed by another process applies to the server’s next check once the change is announced', async () => {
    const { server, cli, accountId } = v;
    expect(await server.accounts.ipRules(accountId)).toEqual([]);

    expect(await cli.accounts.addIpRule(accountId, '127.0.0.2/32', 1)).toBe(true);
    // SQLite: the server reads its list on every check. PostgreSQL: the change's NOTIFY arrives
    // within moments (it is sent at commit) and drops what the server kept.
    await until(async () => (await server.accounts.ipRules(accountId)).length === 1, 'the added rule to apply', 5_000);
    expect(await server.accounts.ipRules(accountId)).toEqual(['127.0.0.2/32']);

    expect(await cli.accounts.removeIpRule(accountId, '127.0.0.2/32')).toBe(true);
    await until(async () => (await server.accounts.ipRules(accountId)).length === 0, 'the removal to apply', 5_000);
    expect(await cli.accounts.removeIpRule(accountId, '127.0.0.2/32')).toBe(false);
  });

  it('a change the server makes itself applies to its very next check', async () => {
    const { server, accountId } = v;
    expect(await server.accounts.ipRules(accountId)).toEqual([]);
    await server.accounts.addIpRule(accountId, '10.0.0.0/8', 1);
    expect(await server.accounts.ipRules(accountId)).toEqual(['10.0.0.0/8']);
    await server.accounts.removeIpRule(accountId, '10.0.0.0/8');
    expect(await server.accounts.ipRules(accountId)).toEqual([]);
  });

  it('SQLite reads the list on every check; PostgreSQL answers from memory while it hears of changes', async () => {
    const { server, cli, accountId } = v;
    expect(await server.accounts.ipRules(accountId)).toEqual([]);
    await v.changeBehindTheBack('192.0.2.1/32');
    if (dialect === 'sqlite') {
      expect(v.cache.live).toBe(false);
      expect(await server.accounts.ipRules(accountId)).toEqual(['192.0.2.1/32']);
      return;
    }
    expect(await server.accounts.ipRules(accountId)).toEqual([]);
    // An announced change (here of another rule) makes it read the account's list again.
    await cli.accounts.addIpRule(accountId, '192.0.2.2/32', 2);
    await until(async () => (await server.accounts.ipRules(accountId)).length === 2, 'the announced change', 5_000);
  });
});

describe.skipIf(!inject('postgresUrl'))('IP allow-list changes announced through PostgreSQL NOTIFY', () => {
  const v = useTwoProcesses('postgres');

  it('a change that rolls back announces nothing; one that commits announces its account once', async () => {
    const { cli, accountId } = v;
    const heard: string[] = [];
    const spy = new pg.Client({ connectionString: v.location.url });
    await spy.connect();
    try {
      spy.on('notification', (message) => heard.push(message.payload ?? ''));
      await spy.query(`LISTEN "${v.serverDb.ipRulesChannel}"`);
      await expect(
        cli.transaction(async (tx) => {
          await tx.accounts.addIpRule(accountId, '10.1.0.0/16', 1);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await cli.accounts.ipRules(accountId)).toEqual([]);
      await cli.transaction(async (tx) => {
        await tx.accounts.addIpRule(accountId, '10.2.0.0/16', 1);
      });
      // An unchanged list (the rule is there already; no such rule to remove) announces nothing.
      expect(await cli.accounts.addIpRule(accountId, '10.2.0.0/16', 2)).toBe(false);
      expect(await cli.accounts.removeIpRule(accountId, '10.3.0.0/16')).toBe(false);
      await until(async () => heard.length >= 1, 'the committed change to be announced', 5_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(heard).toEqual([accountId]);
    } finally {
      await spy.end();
    }
  });

  it('while its listening connection is down the server reads on every check, and keeps lists again once it is back', async () => {
    const { server, accountId } = v;
    await server.accounts.ipRules(accountId);
    const admin = new pg.Client({ connectionString: v.location.url });
    await admin.connect();
    try {
      const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where query = $1', [
        `LISTEN "${v.serverDb.ipRulesChannel}"`,
      ]);
      expect(rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await until(async () => !v.cache.live, 'the server to notice the lost connection', 5_000);
    await v.changeBehindTheBack('198.51.100.0/24');
    expect(await server.accounts.ipRules(accountId)).toEqual(['198.51.100.0/24']);

    await until(async () => v.cache.live, 'the server to listen again', 10_000);
    // Nothing from before the outage is served: the list is read afresh, then kept.
    expect(await server.accounts.ipRules(accountId)).toEqual(['198.51.100.0/24']);
    await v.changeBehindTheBack('198.51.100.7/32');
    expect(await server.accounts.ipRules(accountId)).toEqual(['198.51.100.0/24']);
  });
});
