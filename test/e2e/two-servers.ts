import { afterAll, beforeAll, expect } from 'vitest';
import type { Dialect } from '../../src/storage/database.js';
import { allocateDatabase, type TestDatabaseLocation } from '../databases.js';
import { type HeraldServer, heraldEnv, killLeftoverProcesses, type ProcessEnv, runCliOk, startServer } from '../process.js';
import { fetchToken } from './api.js';

export interface TwoServers {
  location: TestDatabaseLocation;
  env: ProcessEnv;
  /** `herald serve` and `herald serve --no-worker` on the same store. */
  servers: HeraldServer[];
  token: string;
}

/**
 * For suites about what several processes share: a database of its own, two servers on it (one
 * without a worker), an account made with the CLI and a token for it. Both servers must stop
 * cleanly (exit 0). Read the fields inside tests.
 */
export function useTwoServers(
  dialect: Dialect,
  options: { env?: ProcessEnv; account: { name: string; email: string; credits?: number } },
): TwoServers {
  const state = { servers: [] as HeraldServer[] } as TwoServers;
  beforeAll(async () => {
    state.location = allocateDatabase(dialect);
    state.env = heraldEnv(state.location, { DEMO_ACCOUNT: 'false', ...options.env });
    state.servers = [await startServer(state.env), await startServer(state.env, { worker: false })];
    const credits = options.account.credits === undefined ? [] : ['--credits', String(options.account.credits)];
    const created = JSON.parse(
      (
        await runCliOk(
          ['accounts', 'create', '--name', options.account.name, '--email', options.account.email, ...credits, '--json'],
          state.env,
        )
      ).stdout,
    );
    const first = state.servers[0] as HeraldServer;
    state.token = (
      await fetchToken(first.url, { clientId: created.client_id, clientSecret: created.client_secret }, 'client_secret_post')
    ).access_token;
  });
  afterAll(async () => {
    try {
      for (const server of state.servers) expect(await server.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await killLeftoverProcesses();
      await state.location?.drop();
    }
  });
  return state;
}
