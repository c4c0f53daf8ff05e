import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from './ports.js';
import { CLI_PATH, heraldEnv } from './process.js';
import { until } from './wait.js';

/**
 * Herald needs no Node.js flags (src/main/cli.ts: V8's own young generation): the CLI's #! line is
 * plain, so it runs where `env` has no `-S`, and `npm start` runs the same command.
 */
const shebang = (): string => readFileSync(CLI_PATH, 'utf8').split('\n', 1)[0] ?? '';

describe('how Herald is started', () => {
  it('starts the herald command with Node.js and no flags, through a #! line any env runs', () => {
    expect(shebang()).toBe('#!/usr/bin/env node');
  });

  it('runs npm start and npm run herald as the herald command runs', () => {
    const scripts = (
      JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string; herald: string } }
    ).scripts;
    // `exec`: the shell npm runs a script in becomes Herald, so a signal npm passes on reaches it.
    expect(scripts.start).toBe('exec node dist/main/cli.js serve');
    expect(scripts.herald).toBe('npm run build --silent && exec node dist/main/cli.js');
  });

  it('stops the server when npm start is told to stop (SIGTERM to npm), leaving nothing on its port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-npm-start-'));
    const port = await freePort();
    // A process group of its own: whatever npm starts can be killed with it, should the test fail.
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: heraldEnv(
        { url: `sqlite:${join(dir, 'herald.db')}`, schema: undefined },
        { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      ),
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    npm.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let npmExited = false;
    npm.once('exit', () => {
      npmExited = true;
    });
    const answers = async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok === true;
    try {
      await until(answers, () => `npm start to serve /healthz (stderr: ${stderr})`, 60_000, 100);
      npm.kill('SIGTERM');
      await until(async () => npmExited, 'npm to exit', 15_000, 100);
      // Before `exec`, npm's shell died and left Herald running, adopted by init, on the port.
      await until(
        async () => !(await answers()),
        () => `the server to stop after npm did (stderr: ${stderr})`,
        15_000,
        100,
      );
    } finally {
      try {
        process.kill(-(npm.pid as number), 'SIGKILL');
      } catch {
        // The group is gone already.
      }
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('starts the herald command through its #! line, as an installed bin does', () => {
    // npm marks a package's bin executable when it installs it; the build output is not.
    chmodSync(CLI_PATH, statSync(CLI_PATH).mode | 0o111);
    const help = execFileSync(CLI_PATH, ['--help'], { encoding: 'utf8', timeout: 20_000 });
    expect(help).toMatch(/serve/);
    expect(help).toMatch(/worker/);
  });
});
