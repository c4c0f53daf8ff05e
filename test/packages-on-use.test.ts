import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { allocateDatabase, type TestDatabaseLocation } from './databases.js';
import { freePort } from './ports.js';

/**
 * The packages only some settings need are loaded when those settings ask for them
 * (core/load-on-use.ts): each thread of a server holds its own copy of every package it loaded.
 * Checked on the built services in a fresh Node process, as `herald serve` builds them.
 */

const OPTIONAL = ['pg', 'ioredis', 'nodemailer', 'smtp-server', 'mailparser', '@opentelemetry/sdk-trace', 'pino-pretty'];

/** Builds a server's services (and opens its provider links) with `env`, then names the packages of OPTIONAL it loaded. */
function loadedWith(env: Record<string, string>): string[] {
  const script = `
    import { createRequire } from 'node:module';
    const dist = ${JSON.stringify(new URL('../dist/', import.meta.url).href)};
    const { loadConfig } = await import(dist + 'main/config.js');
    const { buildServices } = await import(dist + 'main/services.js');
    const { createLogger } = await import(dist + 'main/logger.js');
    const services = buildServices(loadConfig(), createLogger('silent'));
    services.startProviders();
    const files = Object.keys(createRequire(import.meta.url).cache);
    const loaded = ${JSON.stringify(OPTIONAL)}.filter((name) => files.some((file) => file.includes('/node_modules/' + name + '/')));
    await services.close();
    console.log(JSON.stringify(loaded));
  `;
  const base: Record<string, string> = { PATH: process.env.PATH ?? '', DEMO_ACCOUNT: 'false', LOG_FORMAT: 'json' };
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...base, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return JSON.parse(out.trim().split('\n').at(-1) as string) as string[];
}

describe('packages some settings need', () => {
  const sqlite = allocateDatabase('sqlite');
  let postgres: TestDatabaseLocation | undefined;
  afterAll(async () => {
    await sqlite.drop();
    await postgres?.drop();
  });

  it('are imported by src for their types alone (a value import, static or dynamic, would load them at start)', () => {
    const root = fileURLToPath(new URL('../src/', import.meta.url));
    const names = ['pg', 'ioredis', 'nodemailer', 'smtp-server', 'mailparser', 'pino-pretty', '@opentelemetry/[^\'"]+'].join('|');
    const valueImport = new RegExp(`^import (?!type )[^;]*?from '(${names})'|(?<!typeof )import\\(\\s*'(${names})'\\s*\\)`, 'm');
    const offenders = (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.test.ts'))
      .filter((file) => valueImport.test(readFileSync(join(root, file), 'utf8')));
    expect(offenders).toEqual([]);
    // The pattern finds what it looks for.
    expect(valueImport.test("import pg from 'pg';")).toBe(true);
    expect(valueImport.test("const m = await import('smtp-server');")).toBe(true);
    expect(valueImport.test("import type pg from 'pg';")).toBe(false);
    expect(valueImport.test("const load = loadOnUse<typeof import('pg')>('pg');")).toBe(false);
  });

  it('are not loaded by a server on SQLite with the sandbox, no Redis, no SMTP and no traces', () => {
    expect(loadedWith({ DATABASE_URL: sqlite.url })).toEqual([]);
  });

  it.skipIf(!inject('postgresUrl'))(
    'are loaded by the settings that use them: PostgreSQL, Redis, an SMTP relay, an inbound SMTP listener (and its parser), traces',
    async () => {
      // Its schema is never made: the services are built and closed, no query is sent.
      postgres = allocateDatabase('postgres');
      const loaded = loadedWith({
        DATABASE_URL: postgres.url,
        DATABASE_SCHEMA: postgres.schema as string,
        REDIS_URL: 'redis://127.0.0.1:6379',
        EMAIL_PROVIDER: 'smtp',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        INBOUND_SMTP_PORT: String(await freePort()),
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      });
      // The listener loads the parser when it is made, so a missing one stops the start, not the first message.
      expect(loaded.sort()).toEqual(['@opentelemetry/sdk-trace', 'ioredis', 'mailparser', 'nodemailer', 'pg', 'smtp-server']);
    },
  );
});
