import { afterAll, beforeAll, expect, it } from 'vitest';
import { allocateDatabase, describeEachDialect, type TestDatabaseLocation } from '../databases.js';
import { type HeraldServer, heraldEnv, killLeftoverProcesses, type ProcessEnv, runCliOk, startServer } from '../process.js';
import { api, fetchToken } from './api.js';

describeEachDialect('rate limits shared by two server processes through Redis', (dialect) => {
  let location: TestDatabaseLocation;
  let env: ProcessEnv;
  let servers: HeraldServer[] = [];
  let token: string;

  beforeAll(async () => {
    location = allocateDatabase(dialect);
    // A burst of 4 and next to no refill: what the two processes allow together is countable.
    env = heraldEnv(location, { DEMO_ACCOUNT: 'false', REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT_DEVELOPER: '0.01:4' });
    servers = [await startServer(env), await startServer(env, { worker: false })];
    const account = JSON.parse(
      (await runCliOk(['accounts', 'create', '--name', 'Busy client', '--email', 'busy@example.com', '--json'], env)).stdout,
    );
    token = (
      await fetchToken(
        servers[0]?.url as string,
        { clientId: account.client_id, clientSecret: account.client_secret },
        'client_secret_post',
      )
    ).access_token;
  });
  afterAll(async () => {
    try {
      for (const server of servers) expect(await server.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await killLeftoverProcesses();
      await location?.drop();
    }
  });

  it('one client’s burst of 4 is spent across both processes, then both answer 429 with Retry-After', async () => {
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await api(servers[i % 2]?.url as string, 'GET', '/v1/account/balance', token));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
    expect(answers.slice(0, 4).map((a) => a.headers.get('ratelimit-remaining'))).toEqual(['3', '2', '1', '0']);
    expect(answers[4]?.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect(Number(answers[4]?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answers[4]?.headers.get('ratelimit-limit')).toBe('4');
  });
});
