import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { isCI } from './ci.js';
import { TEST_LOG_DIR_ENV, TEST_LOG_DIR_OWNED_ENV } from './logs.js';

/** The TypeScript compiler of this checkout. */
export const TSC = join('node_modules', 'typescript', 'bin', 'tsc');

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the PostgreSQL suite runs, or null when it is skipped on this machine. */
    postgresUrl: string | null;
  }
}

/**
 * Decides once per run whether the PostgreSQL half of the store suites runs. Under CI it must:
 * an unreachable server fails the run instead of silently skipping half the tests.
 */
export default async function setup(project: TestProject): Promise<void> {
  buildFromSources();
  // One directory per run for every log the suite writes; the summary reporter scans it at the end.
  // Test workers inherit the environment.
  if (!process.env[TEST_LOG_DIR_ENV]) {
    process.env[TEST_LOG_DIR_ENV] = mkdtempSync(join(tmpdir(), 'herald-test-logs-'));
    process.env[TEST_LOG_DIR_OWNED_ENV] = '1';
  }
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    project.provide('postgresUrl', url);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (isCI()) {
      throw new Error(`CI=${process.env.CI} but PostgreSQL at ${url} is unreachable (${reason}); the PostgreSQL suite must run in CI.`);
    }
    process.stdout.write(`\n*** PostgreSQL suite SKIPPED: ${url} is unreachable (${reason}). Only SQLite was tested. ***\n\n`);
    project.provide('postgresUrl', null);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * End-to-end tests run the `herald` of dist/: it is built here from the current sources first
 * (incremental, under a second when nothing changed), so `npx vitest run` after an edit never tests
 * a stale build. test/built-from-sources.test.ts checks that the build is current.
 */
function buildFromSources(): void {
  try {
    execFileSync(process.execPath, [TSC, '-b', 'tsconfig.build.json'], { stdio: 'pipe', timeout: 180_000 });
  } catch (error) {
    const output = (error as { stdout?: Buffer }).stdout?.toString() || String(error);
    throw new Error(`the build (tsc -b tsconfig.build.json) failed, so the end-to-end tests cannot run:\n${output}`);
  }
}
