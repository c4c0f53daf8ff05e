import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app-harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** A linter's JSON report, whatever its exit code (non-zero when it found errors). */
async function report(bin: string, args: string[]): Promise<string> {
  try {
    return (await run(join(ROOT, 'node_modules/.bin', bin), args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 })).stdout;
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout;
    if (stdout) return stdout;
    throw error;
  }
}

/**
 * The document Herald serves (/openapi.json), as the tools client teams use judge it: Redocly's
 * recommended rules and Spectral's OpenAPI rules (.spectral.yaml), with no error. Both run in CI
 * through this test.
 */
describe('the OpenAPI document, linted', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    const t = await createTestApp('sqlite');
    dir = mkdtempSync(join(tmpdir(), 'herald-openapi-'));
    file = join(dir, 'openapi.json');
    writeFileSync(file, (await t.app.inject({ method: 'GET', url: '/openapi.json' })).body);
    await t.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("passes Redocly's recommended rules with no error, and warns only that the health checks have no 4xx answer", async () => {
    const result = JSON.parse(await report('redocly', ['lint', file, '--format', 'json'])) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
    };
    const problems = result.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}`);
    // A liveness or readiness probe takes no input and no token: it has no 4xx to describe.
    expect(problems).toEqual([
      'operation-4xx-response #/paths/~1healthz/get/responses',
      'operation-4xx-response #/paths/~1readyz/get/responses',
    ]);
    expect(result.totals).toMatchObject({ errors: 0, warnings: 2 });
  }, 130_000);

  it("passes Spectral's OpenAPI rules with no error and no warning", async () => {
    const results = JSON.parse(
      await report('spectral', ['lint', file, '--ruleset', join(ROOT, '.spectral.yaml'), '-f', 'json', '-q']),
    ) as Array<{
      code: string;
      message: string;
      path: string[];
      severity: number;
    }>;
    expect(results.map((r) => `${r.code} ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  }, 130_000);
});
