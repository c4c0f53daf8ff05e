import net from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { CHANNELS } from '../../test/channels.js';
import { allocateDatabase, describeEachDialect, openDatabase, type TestDatabaseLocation } from '../../test/databases.js';
import { until } from '../../test/wait.js';
import { createAccount } from '../core/accounts/manage-accounts.js';
import { systemClock } from '../core/clock.js';
import type { Store } from '../core/ports.js';
import { AccessCache } from './access-cache.js';
import { channelName, createDatabase, type Dialect, type HeraldDatabase } from './database.js';
import { type Listener, listenForAccessChanges } from './notifications.js';
import { storeOf } from './store.js';

const quiet = { warn: () => {} };

interface TwoProcesses {
  location: TestDatabaseLocation;
  serverDb: HeraldDatabase;
  cliDb: HeraldDatabase;
  cache: AccessCache;
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
    v.cache = new AccessCache();
    v.server = storeOf(v.serverDb, { channels: CHANNELS, accessCache: v.cache });
    v.cli = storeOf(v.cliDb, { channels: CHANNELS });
    v.listener = listenForAccessChanges(v.serverDb, v.cache, quiet);
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

describeEachDialect('Account access (allow-lists, suspension, clients) shared between processes', (dialect) => {
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

  it('a suspension or a revoked client made by another process applies to the server’s next check once announced', async () => {
    const { server, cli, accountId } = v;
    const [client] = await cli.accounts.listClients(accountId);
    expect(await server.accounts.access(accountId)).toEqual({
      suspended: false,
      plan: 'developer',
      ipRules: [],
      clientIds: [client?.clientId],
    });

    expect(await cli.accounts.setSuspended(accountId, 1)).toBe(true);
    await until(async () => (await server.accounts.access(accountId)).suspended, 'the suspension to apply', 5_000);
    expect(await cli.accounts.setSuspended(accountId, null)).toBe(true);
    await until(async () => !(await server.accounts.access(accountId)).suspended, 'the reinstatement to apply', 5_000);

    expect(await cli.accounts.deleteClient(accountId, client?.clientId ?? '')).toBe(true);
    await until(async () => (await server.accounts.access(accountId)).clientIds.length === 0, 'the revocation to apply', 5_000);
  });

  it('a change the server makes itself applies to its very next check', async () => {
    const { server, accountId } = v;
    expect(await server.accounts.ipRules(accountId)).toEqual([]);
    await server.accounts.addIpRule(accountId, '10.0.0.0/8', 1);
    expect(await server.accounts.ipRules(accountId)).toEqual(['10.0.0.0/8']);
    await server.accounts.removeIpRule(accountId, '10.0.0.0/8');
    expect(await server.accounts.ipRules(accountId)).toEqual([]);
  });

  it('answers from memory while nothing changed: SQLite counts every change, even one behind the stores’ backs; PostgreSQL hears of announced ones', async () => {
    const { server, cli, accountId } = v;
    expect(await server.accounts.ipRules(accountId)).toEqual([]);
    expect(v.cache.live).toBe(true);
    await v.changeBehindTheBack('192.0.2.1/32');
    if (dialect === 'sqlite') {
      // The triggers of migration 0025 count a change however it is made.
      expect(await server.accounts.ipRules(accountId)).toEqual(['192.0.2.1/32']);
      for (const change of [
        sql`update accounts set plan = 'business' where id = ${accountId}`,
        sql`update api_clients set client_id = client_id || 'x' where account_id = ${accountId}`,
        sql`delete from ip_allow_rules where account_id = ${accountId}`,
      ]) {
        const before = await server.accounts.access(accountId);
        await change.execute(v.cliDb.db);
        expect(await server.accounts.access(accountId), change.compile(v.cliDb.db).sql).not.toEqual(before);
      }
      // Every table the access is read from keeps its triggers after the latest migration (one that
      // rebuilds a table would drop them).
      const triggers = await sql<{
        name: string;
        tbl_name: string;
      }>`select name, tbl_name from sqlite_master where type = 'trigger' order by name`.execute(v.cliDb.db);
      expect(triggers.rows.map((row) => `${row.tbl_name}.${row.name}`)).toEqual([
        'accounts.accounts_access_changed_delete',
        'accounts.accounts_access_changed_insert',
        'accounts.accounts_access_changed_update',
        'api_clients.api_clients_changed_delete',
        'api_clients.api_clients_changed_insert',
        'api_clients.api_clients_changed_update',
        'ip_allow_rules.ip_allow_rules_changed_delete',
        'ip_allow_rules.ip_allow_rules_changed_insert',
        'ip_allow_rules.ip_allow_rules_changed_update',
      ]);
      // What every send writes is not a change to access: the kept access is still served.
      const count = async () =>
        Number((await sql<{ version: number }>`select version from access_changes`.execute(v.cliDb.db)).rows[0]?.version);
      const counted = await count();
      await sql`update accounts set reserved_micros = reserved_micros + 1, credits_micros = credits_micros + 1 where id = ${accountId}`.execute(
        v.cliDb.db,
      );
      await server.accounts.access(accountId);
      expect(await count()).toBe(counted);
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
      await spy.query(`LISTEN "${v.serverDb.accessChannel}"`);
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

  it('while its listening connection is down the server reads on every check, and keeps lists again once it listens anew', async () => {
    const { server, accountId } = v;
    await v.listener?.close();
    // A listener that, once its connection is cut, stays down for the length of the test.
    v.listener = listenForAccessChanges(v.serverDb, v.cache, quiet, { retryDelayMs: 60_000 });
    await until(async () => v.cache.live, 'the listener to be in place', 5_000);
    await server.accounts.ipRules(accountId);
    const admin = new pg.Client({ connectionString: v.location.url });
    await admin.connect();
    try {
      const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where query = $1', [
        `LISTEN "${v.serverDb.accessChannel}"`,
      ]);
      expect(rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await until(async () => !v.cache.live, 'the server to notice the lost connection', 5_000);
    await v.changeBehindTheBack('198.51.100.0/24');
    expect(await server.accounts.ipRules(accountId)).toEqual(['198.51.100.0/24']);
    await v.changeBehindTheBack('198.51.100.1/32');
    expect(await server.accounts.ipRules(accountId)).toEqual(['198.51.100.0/24', '198.51.100.1/32']);

    await v.listener?.close();
    v.listener = listenForAccessChanges(v.serverDb, v.cache, quiet);
    await until(async () => v.cache.live, 'the server to listen again', 5_000);
    // The list is read afresh, then kept.
    expect(await server.accounts.ipRules(accountId)).toEqual(['198.51.100.0/24', '198.51.100.1/32']);
    await v.changeBehindTheBack('198.51.100.7/32');
    expect(await server.accounts.ipRules(accountId)).toEqual(['198.51.100.0/24', '198.51.100.1/32']);
  });

  it('a listening connection that goes silent (no close, no error) is noticed by its heartbeat, and replaced', async () => {
    const proxy = await frozenableProxy(new URL(v.location.url));
    try {
      await v.listener?.close();
      const viaProxy = createDatabase({ url: proxy.url(v.location.url), schema: v.location.schema });
      v.listener = listenForAccessChanges(viaProxy, v.cache, quiet, { retryDelayMs: 100, heartbeatMs: 300 });
      try {
        await until(async () => v.cache.live, 'the listener to be in place', 5_000);
        await v.server.accounts.ipRules(v.accountId);
        proxy.freeze(); // the connection stays open but nothing goes through any more
        await until(async () => !v.cache.live, 'the heartbeat to notice', 5_000);
        await v.changeBehindTheBack('203.0.113.0/24');
        expect(await v.server.accounts.ipRules(v.accountId)).toEqual(['203.0.113.0/24']);
        // A new connection (through the proxy, which lets new ones through) takes over.
        await until(async () => v.cache.live, 'a new connection to listen', 5_000);
        await v.cli.accounts.addIpRule(v.accountId, '203.0.113.9/32', Date.now());
        await until(async () => (await v.server.accounts.ipRules(v.accountId)).length === 2, 'the change to be heard', 5_000);
      } finally {
        await v.listener?.close();
        v.listener = undefined;
        await viaProxy.close();
      }
    } finally {
      await proxy.close();
    }
  });

  it('a change made in a transaction is forgotten by this process’s cache once committed, not before, and not at all if rolled back', async () => {
    // A cache told of nothing by PostgreSQL (no listener): only the store's own bookkeeping clears it.
    const local = new AccessCache();
    local.setLive(true);
    const store = storeOf(v.serverDb, { channels: CHANNELS, accessCache: local });
    expect(await store.accounts.ipRules(v.accountId)).toEqual([]);
    await expect(
      store.transaction(async (tx) => {
        await tx.accounts.addIpRule(v.accountId, '10.4.0.0/16', 1);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await v.changeBehindTheBack('10.5.0.0/16');
    expect(await store.accounts.ipRules(v.accountId)).toEqual([]);
    await store.transaction(async (tx) => {
      await tx.accounts.addIpRule(v.accountId, '10.6.0.0/16', 2);
      expect(await store.accounts.ipRules(v.accountId)).toEqual([]);
    });
    expect((await store.accounts.ipRules(v.accountId)).sort()).toEqual(['10.5.0.0/16', '10.6.0.0/16']);
  });
});

describe('LISTEN/NOTIFY channel names', () => {
  it('are herald_<topic>_<schema>, or a digest of a schema too long for PostgreSQL’s 63-byte names', () => {
    expect(channelName('ip_rules', 'tenant_a')).toBe('herald_ip_rules_tenant_a');
    expect(channelName('jobs', undefined)).toBe('herald_jobs_public');
    const long = `s${'x'.repeat(62)}`;
    const name = channelName('ip_rules', long);
    expect(name.length).toBeLessThanOrEqual(63);
    expect(channelName('ip_rules', long)).toBe(name);
    expect(channelName('ip_rules', `${long.slice(0, 62)}y`)).not.toBe(name);
    expect(channelName('jobs', long)).not.toBe(name);
  });
});

describe.skipIf(!inject('postgresUrl'))('IP allow-lists on a schema with the longest name PostgreSQL allows', () => {
  it('are changed, announced and heard of', async () => {
    const url = inject('postgresUrl') as string;
    const schema = `herald_t_${process.pid}_`.padEnd(63, 'x');
    const location: TestDatabaseLocation = { ...allocateDatabase('postgres'), schema };
    const serverDb = await openDatabase(location);
    const cliDb = await openDatabase(location);
    const cache = new AccessCache();
    const listener = listenForAccessChanges(serverDb, cache, quiet);
    try {
      await until(async () => cache.live, 'the listener to be in place', 5_000);
      const server = storeOf(serverDb, { channels: CHANNELS, accessCache: cache });
      const cli = storeOf(cliDb, { channels: CHANNELS });
      const { id } = (await createAccount(cli, systemClock, { name: 'Long', email: 'long@example.com', creditsMicros: 0 })).account;
      expect(await server.accounts.ipRules(id)).toEqual([]);
      expect(await cli.accounts.addIpRule(id, '10.0.0.0/8', 1)).toBe(true);
      await until(async () => (await server.accounts.ipRules(id)).length === 1, 'the change to be heard', 5_000);
    } finally {
      await listener?.close();
      await serverDb.close();
      await cliDb.close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  });
});

/**
 * A TCP proxy to PostgreSQL on loopback whose connections can be frozen: they stay open, but
 * nothing passes either way any more (as when a host vanishes). Connections made after stay live.
 */
async function frozenableProxy(target: URL) {
  const pairs: Array<[net.Socket, net.Socket]> = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    pairs.push([client, upstream]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url(original: string) {
      const url = new URL(original);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    freeze() {
      for (const [client, upstream] of pairs.splice(0)) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
        frozen.push(client, upstream);
      }
    },
    async close() {
      for (const socket of [...frozen, ...pairs.flat()]) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
const frozen: net.Socket[] = [];
