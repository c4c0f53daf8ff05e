import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.js';

/**
 * A PostgreSQL server and a Redis server of a test's own, on free loopback ports, which the test
 * may restart (the shared ones serve the rest of the suite and must not be touched). PostgreSQL
 * refuses to run as root: where the suite runs as root, its server runs as the `postgres` user.
 */

const asPostgres = (command: string, args: string[]): [string, string[]] =>
  process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  /** pg_ctl restart -m fast: every connection is cut, the server is back when it resolves (the test's loop runs meanwhile). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export function privatePostgresAvailable(): boolean {
  try {
    execFileSync('initdb', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'herald-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const run = (command: string, args: string[]) => {
    const [file, argv] = asPostgres(command, args);
    execFileSync(file, argv, { stdio: 'ignore', timeout: 60_000 });
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  run('pg_ctl', ['-D', data, '-o', options, '-w', '-l', join(dir, 'log'), 'start']);
  const runAsync = async (command: string, args: string[]) => {
    const [file, argv] = asPostgres(command, args);
    await promisify(execFile)(file, argv, { timeout: 60_000 });
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: () => runAsync('pg_ctl', ['-D', data, '-o', options, '-w', '-m', 'fast', '-l', join(dir, 'log'), 'restart']),
    stop: async () => {
      try {
        await runAsync('pg_ctl', ['-D', data, '-w', '-m', 'immediate', 'stop']);
      } catch {
        // already stopped
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export interface PrivateRedis {
  url: string;
  /** Kills the server (SIGKILL: its keys are lost, as in a crash without persistence) and starts it again on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let tries = 0; tries < 100; tries++) {
      try {
        execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'ignore' });
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error('redis-server did not start');
  };
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await kill();
      await start();
    },
    stop: kill,
  };
}
