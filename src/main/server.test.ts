import { afterEach, beforeEach, expect, it } from 'vitest';
import { allocateDatabase, describeEachDialect, openDatabase, type TestDatabaseLocation } from '../../test/databases.js';
import { testLogger } from '../../test/logs.js';
import { loadConfig } from './config.js';
import { ensureDemoAccount } from './server.js';
import { buildServices, type Services } from './services.js';

describeEachDialect('the demo account on first start', (dialect) => {
  let location: TestDatabaseLocation;
  let nodes: Services[];

  beforeEach(async () => {
    location = allocateDatabase(dialect);
    await (await openDatabase(location)).close();
    const config = loadConfig({ DATABASE_URL: location.url, DATABASE_SCHEMA: location.schema, LOG_LEVEL: 'silent' });
    nodes = [0, 1, 2].map(() => buildServices(config, testLogger('server')));
  });
  afterEach(async () => {
    await Promise.all(nodes.map((n) => n.close()));
    await location.drop();
  });

  // Nodes sharing one store at the same moment means PostgreSQL: SQLite serves one process, and
  // three SQLite connections in one process would block each other's thread on the write lock.
  if (dialect === 'postgres') {
    it('is made exactly once when several nodes start together on an empty store', async () => {
      const created = await Promise.all(nodes.map((node) => ensureDemoAccount(node)));
      expect(created.filter((c) => c !== undefined)).toHaveLength(1);
      expect(await nodes[0]?.store.accounts.countAccounts()).toBe(1);
    });
  }

  it('is not made again on a later start', async () => {
    expect(await ensureDemoAccount(nodes[0] as Services)).toBeDefined();
    expect(await ensureDemoAccount(nodes[1] as Services)).toBeUndefined();
    expect(await nodes[0]?.store.accounts.countAccounts()).toBe(1);
  });
});
