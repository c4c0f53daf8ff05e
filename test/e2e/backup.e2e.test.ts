import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allocateDatabase } from '../databases.js';
import { heraldEnv, killLeftoverProcesses, runCli, runCliOk, startServer } from '../process.js';
import { api, fetchToken } from './api.js';

afterAll(() => killLeftoverProcesses());

/**
 * `herald backup FILE` copies a SQLite store while a server keeps accepting sends, and the copy
 * serves: a fresh server on it finds every message acknowledged before the backup began.
 */
describe('herald backup (SQLite)', () => {
  it('copies the store under load; a server started on the copy has every send acknowledged before the backup began', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'herald-backup-'));
    const location = allocateDatabase('sqlite');
    const env = heraldEnv(location, { DEMO_ACCOUNT: 'false' });
    try {
      const server = await startServer(env, { worker: false });
      const created = JSON.parse(
        (await runCliOk(['accounts', 'create', '--name', 'Backup', '--email', 'b@example.com', '--credits', '100000', '--json'], env))
          .stdout,
      );
      const credentials = { clientId: created.client_id, clientSecret: created.client_secret };
      const token = (await fetchToken(server.url, credentials, 'client_secret_post')).access_token;

      // Sends go on from 8 clients before, during and after the backup.
      /** Each acknowledged send, with when it was sent (`sentAt`) and answered (`at`). */
      const acknowledged: Array<{ id: string; sentAt: number; at: number }> = [];
      let sending = true;
      const client = async (n: number) => {
        for (let i = 0; sending; i++) {
          const sentAt = performance.now();
          const answer = await api(server.url, 'POST', '/v1/sms/send', token, {
            to: `+1415555${String((n * 1000 + i) % 10_000).padStart(4, '0')}`,
            message: 'hi',
          });
          if (answer.status === 200) acknowledged.push({ id: answer.body.data.message_id, sentAt, at: performance.now() });
        }
      };
      const clients = Array.from({ length: 8 }, (_, n) => client(n));
      while (acknowledged.length < 300) await new Promise((resolve) => setTimeout(resolve, 20));

      const file = join(dir, 'herald-backup.db');
      const began = performance.now();
      const backup = await runCliOk(['backup', file], env);
      const ended = performance.now();
      while (acknowledged.filter((a) => a.sentAt > ended).length < 100) await new Promise((resolve) => setTimeout(resolve, 20));
      sending = false;
      await Promise.all(clients);
      expect(await server.stop()).toEqual({ code: 0, signal: null });

      const before = acknowledged.filter((a) => a.at < began);
      // Sent after the backup ended (answered after it is not enough: a send committed before the
      // snapshot may be answered after it).
      const after = acknowledged.filter((a) => a.sentAt > ended);
      expect(backup.stdout).toMatch(/^backed up (\d+) messages \([\d.]+ MiB\) to .*herald-backup\.db\n/);
      const copied = Number(/backed up (\d+) messages/.exec(backup.stdout)?.[1]);
      expect(copied).toBeGreaterThanOrEqual(before.length);
      expect(copied).toBeLessThan(acknowledged.length);
      expect(readdirSync(dir)).toEqual(['herald-backup.db']); // no partial file left

      // A fresh server on the copy.
      const restored = await startServer(heraldEnv({ url: `sqlite:${file}`, schema: undefined }, { DEMO_ACCOUNT: 'false' }), {
        worker: false,
      });
      try {
        const again = (await fetchToken(restored.url, credentials, 'client_secret_post')).access_token;
        const listed = await api(restored.url, 'GET', '/v1/messages?limit=1', again);
        expect(listed.body.data.pagination.total).toBe(copied);
        for (const { id } of before) expect((await api(restored.url, 'GET', `/v1/messages/${id}`, again)).status, id).toBe(200);
        // Sends acknowledged after the backup ended are not in it.
        for (const { id } of after.slice(0, 20)) expect((await api(restored.url, 'GET', `/v1/messages/${id}`, again)).status, id).toBe(404);
      } finally {
        expect(await restored.stop()).toEqual({ code: 0, signal: null });
      }

      // A backup never overwrites.
      const refused = await runCli(['backup', file], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/exists already/);
    } finally {
      await location.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('into a directory that does not exist it says so in one line, and writes nothing', async () => {
    const location = allocateDatabase('sqlite');
    try {
      const env = heraldEnv(location);
      await runCliOk(['migrate'], env);
      const missing = join(tmpdir(), `herald-no-such-dir-${process.pid}`, 'x.db');
      const result = await runCli(['backup', missing], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`herald: no directory ${dirname(missing)} to write ${missing} in\n`);
      expect(existsSync(dirname(missing))).toBe(false);
    } finally {
      await location.drop();
    }
  });

  it('on PostgreSQL it says to use pg_dump, and writes nothing', async () => {
    const location = allocateDatabase('postgres');
    try {
      const dir = await mkdtemp(join(tmpdir(), 'herald-backup-'));
      const result = await runCli(['backup', join(dir, 'x.db')], heraldEnv(location));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/pg_dump/);
      expect(existsSync(join(dir, 'x.db'))).toBe(false);
      await rm(dir, { recursive: true, force: true });
    } finally {
      await location.drop();
    }
  });
});
