import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI_PATH } from './process.js';

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
    expect(scripts.start).toBe('node dist/main/cli.js serve');
    expect(scripts.herald).toBe('npm run build --silent && node dist/main/cli.js');
  });

  it('starts the herald command through its #! line, as an installed bin does', () => {
    // npm marks a package's bin executable when it installs it; the build output is not.
    chmodSync(CLI_PATH, statSync(CLI_PATH).mode | 0o111);
    const help = execFileSync(CLI_PATH, ['--help'], { encoding: 'utf8', timeout: 20_000 });
    expect(help).toMatch(/serve/);
    expect(help).toMatch(/worker/);
  });
});
