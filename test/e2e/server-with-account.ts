import { afterAll, beforeAll, expect } from 'vitest';
import type { Dialect } from '../../src/storage/database.js';
import { allocateDatabase, type TestDatabaseLocation } from '../databases.js';
import { type HeraldServer, heraldEnv, killLeftoverProcesses, type ProcessEnv, runCliOk, startServer } from '../process.js';
import { fetchToken } from './api.js';

export interface ServerWithAccount {
  location: TestDatabaseLocation;
  env: ProcessEnv;
  server: HeraldServer;
  account: { account_id: string; client_id: string; client_secret: string };
  token: string;
}

/**
 * For a suite of CLI tests next to a running server: a database of its own, `herald serve` on it
 * (no demo account), one account made with the CLI and a token for it. Ready in beforeAll; the
 * server must stop cleanly (exit 0) in afterAll. Read the fields inside tests, not at declaration.
 */
export function useServerWithAccount(
  dialect: Dialect,
  account: { name: string; email: string; credits?: number },
  /** Settings of the server (and the CLI) beyond heraldEnv's. */
  extra: ProcessEnv = {},
): ServerWithAccount {
  const state = {} as ServerWithAccount;
  beforeAll(async () => {
    state.location = allocateDatabase(dialect);
    state.env = heraldEnv(state.location, extra);
    state.server = await startServer({ ...state.env, DEMO_ACCOUNT: 'false' });
    const credits = account.credits === undefined ? [] : ['--credits', String(account.credits)];
    const created = await runCliOk(
      ['accounts', 'create', '--name', account.name, '--email', account.email, ...credits, '--json'],
      state.env,
    );
    state.account = JSON.parse(created.stdout);
    const { client_id: clientId, client_secret: clientSecret } = state.account;
    state.token = (await fetchToken(state.server.url, { clientId, clientSecret }, 'client_secret_post')).access_token;
  });
  afterAll(async () => {
    try {
      if (state.server) expect(await state.server.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await killLeftoverProcesses();
      await state.location?.drop();
    }
  });
  return state;
}
