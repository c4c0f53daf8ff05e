import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI_PATH } from './process.js';

/**
 * V8 sizes its young generation when the process starts, so the flags `herald serve` needs under
 * load (src/main/cli.ts) travel in the CLI's #! line, and `npm start` repeats them.
 */
const shebang = (): string => readFileSync(CLI_PATH, 'utf8').split('\n', 1)[0] ?? '';

describe('how Herald is started', () => {
  it('gives the herald command a 32 MiB young-generation semi-space through its #! line', () => {
    expect(shebang()).toBe('#!/usr/bin/env -S node --max-semi-space-size=32');
  });

  it('runs npm start and npm run herald with the same Node.js flags as the herald command', () => {
    const flags = shebang().split(/\s+/).slice(3).join(' ');
    const scripts = (
      JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string; herald: string } }
    ).scripts;
    expect(scripts.start).toBe(`node ${flags} dist/main/cli.js serve`);
    expect(scripts.herald).toBe(`npm run build --silent && node ${flags} dist/main/cli.js`);
  });

  it('starts the herald command through its #! line, as an installed bin does', () => {
    // npm marks a package's bin executable when it installs it; the build output is not.
    chmodSync(CLI_PATH, statSync(CLI_PATH).mode | 0o111);
    const help = execFileSync(CLI_PATH, ['--help'], { encoding: 'utf8', timeout: 20_000 });
    expect(help).toMatch(/serve/);
    expect(help).toMatch(/worker/);
  });
});
