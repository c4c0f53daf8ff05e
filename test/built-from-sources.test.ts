import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isCI } from './ci.js';
import { TSC } from './global-setup.js';

describe('what the suite runs', () => {
  // The breakage this catches: end-to-end tests spawning a dist/ built from older sources (an edit
  // since the last build), passing or failing for code that is no longer there.
  it('runs the herald of dist/ built from the current sources', () => {
    const said = execFileSync(process.execPath, [TSC, '-b', 'tsconfig.build.json', '--dry'], { encoding: 'utf8' });
    expect(said).not.toMatch(/would build/);
    expect(said).toMatch(/is up to date|would update timestamps/);
  });

  // The breakage this catches: CI=1 (or yes) read as "not CI", so the PostgreSQL half, the Net::SMPP
  // peer and the log scan could be skipped in CI and the run still pass.
  it('takes CI in any spelling but empty, 0, false and no as CI, where nothing may be skipped', () => {
    for (const value of ['true', '1', 'yes', 'TRUE', 'on']) expect(isCI({ CI: value }), value).toBe(true);
    for (const value of [undefined, '', '0', 'false', 'no', 'False']) expect(isCI({ CI: value }), String(value)).toBe(false);
  });
});
