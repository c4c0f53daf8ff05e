import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { TEST_LOG_DIR_ENV, TEST_LOG_DIR_OWNED_ENV } from './logs.js';

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
    if (process.env.CI === 'true') {
      throw new Error(`CI=true but PostgreSQL at ${url} is unreachable (${reason}); the PostgreSQL suite must run in CI.`);
    }
    process.stdout.write(`\n*** PostgreSQL suite SKIPPED: ${url} is unreachable (${reason}). Only SQLite was tested. ***\n\n`);
    project.provide('postgresUrl', null);
  } finally {
    await client.end().catch(() => {});
  }
}
