import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { allocateDatabase, type TestDatabaseLocation } from '../databases.js';
import { heraldEnv, killLeftoverProcesses, runCliOk, startServer } from '../process.js';
import { api, fetchToken } from './api.js';

/**
 * SHUTDOWN_DELAY_MS: on SIGTERM a node first leaves its load balancer (`/readyz` 503 `draining`)
 * while it goes on serving, on new connections as on open ones, and only then stops listening.
 * A process of its own on SQLite: the behaviour is the server's, not the store's.
 */
describe('herald serve with SHUTDOWN_DELAY_MS, as a process', () => {
  let location: TestDatabaseLocation | undefined;
  afterAll(async () => {
    await killLeftoverProcesses();
    await location?.drop();
  });

  /** A GET on a connection of its own, with its status and Connection header. */
  const get = (url: string): Promise<{ status: number; connection: string | undefined; body: string }> =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent: false, timeout: 5_000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('answers /readyz 503 draining on new connections while it still serves the API, closing each connection; then exits 0', async () => {
    location = allocateDatabase('sqlite');
    const env = heraldEnv(location, { SHUTDOWN_DELAY_MS: '3000' });
    const server = await startServer(env, { worker: false });
    const created = await runCliOk(['accounts', 'create', '--name', 'Leaving Ltd', '--email', 'ops@leaving.example', '--json'], env);
    const account = JSON.parse(created.stdout) as { client_id: string; client_secret: string };
    const token = (await fetchToken(server.url, { clientId: account.client_id, clientSecret: account.client_secret }, 'client_secret_post'))
      .access_token;
    expect((await get(`${server.url}/readyz`)).status).toBe(200);

    const sentAt = Date.now();
    process.kill(server.pid, 'SIGTERM');
    await server.waitForStdout((out) => out.includes('leaving: /readyz answers 503'), { what: 'the leaving log line' });
    const ready = await get(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({ status: 'draining' });
    expect(ready.connection).toBe('close');
    // Still served, on a new connection: the balancer may send requests until it has seen /readyz.
    const served = await api(server.url, 'GET', '/v1/account', token);
    expect(served.status).toBe(200);
    expect((await get(`${server.url}/healthz`)).status).toBe(200);

    const exit = await server.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(2_500);
    expect(server.logRecords().map((r) => r.msg)).toContain('herald stopped');
  });
});
