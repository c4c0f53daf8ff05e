import { afterAll, beforeAll, expect, it } from 'vitest';
import { allocateDatabase, describeEachDialect, type TestDatabaseLocation } from '../databases.js';
import { type HeraldServer, heraldEnv, killLeftoverProcesses, type ProcessEnv, runCliOk, startServer } from '../process.js';
import { api, fetchToken } from './api.js';

describeEachDialect('Idempotency-Key across two server processes', (dialect) => {
  let location: TestDatabaseLocation;
  let env: ProcessEnv;
  let servers: HeraldServer[] = [];
  let token: string;

  beforeAll(async () => {
    location = allocateDatabase(dialect);
    env = heraldEnv(location, { DEMO_ACCOUNT: 'false' });
    servers = [await startServer(env), await startServer(env, { worker: false })];
    const account = JSON.parse(
      (
        await runCliOk(
          ['accounts', 'create', '--name', 'Retrying client', '--email', 'retry@example.com', '--credits', '10', '--json'],
          env,
        )
      ).stdout,
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

  it('20 retries of one send, spread over both servers at once: one message, the others replay it or wait', async () => {
    const body = { to: '+14155552671', message: 'Exactly once' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(servers[i % 2]?.url as string, 'POST', '/v1/sms/send', token, body, { 'idempotency-key': 'checkout-42' }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 409)).toEqual([]);
    expect(new Set(ok.map((a) => a.body.data.message_id)).size).toBe(1);
    // Retried after every first answer is in: each server replays the one message.
    for (const server of servers) {
      const replay = await api(server.url, 'POST', '/v1/sms/send', token, body, { 'idempotency-key': 'checkout-42' });
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data.message_id).toBe(ok[0]?.body.data.message_id);
    }
    const listed = await api(servers[1]?.url as string, 'GET', '/v1/messages', token);
    expect(listed.body.data.pagination.total).toBe(1);
    const balance = await api(servers[1]?.url as string, 'GET', '/v1/account/balance', token);
    // One credit held or charged, whatever the embedded worker has done with the message by now.
    expect(balance.body.data.available).toBe(9);
  });
});
