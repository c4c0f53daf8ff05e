import { type AddressInfo, createServer as createNetServer, type Server } from 'node:net';
import { sql } from 'kysely';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../test/channels.js';
import { allocateDatabase, describeEachDialect, openDatabase, type TestDatabaseLocation } from '../../test/databases.js';
import { testLogger } from '../../test/logs.js';
import { RELAXED_OVERLOAD_BOUNDS } from '../../test/process.js';
import { until } from '../../test/wait.js';
import { createAccount } from '../core/accounts/manage-accounts.js';
import { systemClock } from '../core/clock.js';
import type { HeraldDatabase } from '../storage/database.js';
import { storeOf } from '../storage/store.js';
import { loadConfig } from './config.js';
import { cliCommand, demoAccountHint, ensureDemoAccount, type RunningServer, startServer } from './server.js';
import { buildServices, type Services } from './services.js';
import { StartError } from './start-error.js';

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

  it('is named on a later start, with how to get a new secret (the first was shown once)', async () => {
    expect(await demoAccountHint(nodes[0] as Services)).toBeUndefined();
    const created = await ensureDemoAccount(nodes[0] as Services);
    const hint = await demoAccountHint(nodes[1] as Services);
    expect(hint).toContain(`Demo account ${created?.account.id} (client_id ${created?.clientId})`);
    expect(hint).toContain(`npm run herald -- clients rotate-secret ${created?.account.id}`);
    expect(hint).not.toContain(created?.clientSecret as string);
  });
});

describe('the management commands the banner shows', () => {
  it('are bare where the CLI would find the server by itself', () => {
    expect(cliCommand('keys list', 'http://127.0.0.1:3000', {})).toBe('npm run herald -- keys list');
  });

  it('repeat the settings the CLI needs to reach the same store and print the same links', () => {
    expect(cliCommand('users invite acc_1 you@example.com', 'http://127.0.0.1:3417', { PORT: '3417' })).toBe(
      'PUBLIC_URL=http://127.0.0.1:3417 npm run herald -- users invite acc_1 you@example.com',
    );
    expect(
      cliCommand('keys list', 'https://herald.example.com', {
        PUBLIC_URL: 'https://herald.example.com',
        HERALD_CONFIG_FILE: "/etc/herald/my settings's.env",
        DATABASE_SCHEMA: 'tenant_a',
      }),
    ).toBe(
      "HERALD_CONFIG_FILE='/etc/herald/my settings'\\''s.env' DATABASE_SCHEMA=tenant_a PUBLIC_URL=https://herald.example.com npm run herald -- keys list",
    );
  });

  it('say to set DATABASE_URL as for the server, without printing it (it may hold a password)', () => {
    const line = cliCommand('keys list', 'http://127.0.0.1:3000', { DATABASE_URL: 'postgres://herald:s3cret@db/herald' });
    expect(line).toBe('npm run herald -- keys list (with DATABASE_URL set as for the server)');
    expect(line).not.toContain('s3cret');
  });
});

describeEachDialect('a server that cannot listen', (dialect) => {
  let location: TestDatabaseLocation;
  let taken: Server;

  beforeEach(async () => {
    location = allocateDatabase(dialect);
    await (await openDatabase(location)).close();
    taken = createNetServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    await new Promise((resolve) => taken.close(resolve));
    await location.drop();
  });

  it('says in one line that its port is in use and how to choose another, and lets go of the store', async () => {
    const port = (taken.address() as AddressInfo).port;
    const config = loadConfig({
      DATABASE_URL: location.url,
      DATABASE_SCHEMA: location.schema,
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: String(port),
      DEMO_ACCOUNT: 'false',
    });
    const services = buildServices(config, testLogger('server'));
    const failed = await startServer(services, { withWorker: false }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(StartError);
    expect((failed as Error).message).toBe(
      `port ${port} on 127.0.0.1 is already in use (another Herald, or another program); stop it, or choose another port: PORT=${port + 1} npm start`,
    );
    // The store was closed: its connection no longer answers.
    await expect(services.store.accounts.countAccounts()).rejects.toThrow();
  });

  it('says in one line when HOST is not an address of this machine', async () => {
    const config = loadConfig({
      DATABASE_URL: location.url,
      DATABASE_SCHEMA: location.schema,
      LOG_LEVEL: 'silent',
      HOST: '192.0.2.1', // TEST-NET-1: never this machine's
      PORT: '0',
      DEMO_ACCOUNT: 'false',
    });
    const failed = await startServer(buildServices(config, testLogger('server')), { withWorker: false }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(StartError);
    expect((failed as Error).message).toBe('192.0.2.1 is not an address of this machine; set HOST to one that is (HOST=127.0.0.1)');
  });

  it('warns at start when webhooks may go to private addresses, and only then', async () => {
    const warnings = async (env: Record<string, string>): Promise<string[]> => {
      const lines: string[] = [];
      const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
      const config = loadConfig({ DATABASE_URL: location.url, DATABASE_SCHEMA: location.schema, PORT: '0', DEMO_ACCOUNT: 'false', ...env });
      const running = await startServer(buildServices(config, logger), { withWorker: false });
      await running.stop();
      return lines.map((line) => JSON.parse(line).msg as string);
    };
    expect(await warnings({ WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true', HOST: '127.0.0.1' })).toContain(
      'webhooks may be sent to private and loopback addresses: for development only, never in production (docs/webhooks.md)',
    );
    expect(await warnings({ HOST: '127.0.0.1' })).toEqual([]);
  });
});

describeEachDialect('IP allow-lists in a running server', (dialect) => {
  let location: TestDatabaseLocation;
  let services: Services;
  let running: RunningServer;
  /** Another process's view of the store (the CLI's). */
  let other: HeraldDatabase;

  beforeEach(async () => {
    location = allocateDatabase(dialect);
    other = await openDatabase(location);
    const config = loadConfig({
      DATABASE_URL: location.url,
      DATABASE_SCHEMA: location.schema,
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
      DEMO_ACCOUNT: 'false',
      ...RELAXED_OVERLOAD_BOUNDS,
    });
    services = buildServices(config, testLogger('server'));
    running = await startServer(services, { withWorker: false });
  });
  afterEach(async () => {
    await running.stop();
    await other.close();
    await location.drop();
  });

  it('PostgreSQL: answers from the lists it keeps and hears of changes; SQLite: counts every change and applies it at the next request', async () => {
    const created = await createAccount(storeOf(other, { channels: CHANNELS }), systemClock, {
      name: 'Locked',
      email: 'locked@example.com',
      creditsMicros: 0,
    });
    const tokenResponse = await fetch(`${running.address}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: created.clientId, client_secret: created.clientSecret }),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const balance = async () =>
      (await fetch(`${running.address}/v1/account/balance`, { headers: { authorization: `Bearer ${token}` } })).status;
    if (dialect === 'postgres') await until(async () => services.accessCache.live, 'the server to listen for changes', 5_000);
    expect(await balance()).toBe(200);

    // A rule written behind the stores' backs (no notification): 127.0.0.1 is not on it.
    await sql`insert into ip_allow_rules (account_id, cidr, created_at) values (${created.account.id}, ${'192.0.2.1/32'}, ${Date.now()})`.execute(
      other.db,
    );
    if (dialect === 'sqlite') {
      expect(await balance()).toBe(403);
      return;
    }
    expect(await balance()).toBe(200);
    // The same change made as the CLI makes it is heard of, and applies.
    await storeOf(other, { channels: CHANNELS }).accounts.addIpRule(created.account.id, '192.0.2.2/32', Date.now());
    await until(async () => (await balance()) === 403, 'the announced change to apply', 5_000);
  });
});
