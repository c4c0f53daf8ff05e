import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { allocateDatabase } from './databases.js';
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
  // Its schema is never made: the services are built and closed, no query is sent.
  const postgres = allocateDatabase('postgres');
  afterAll(async () => {
    await sqlite.drop();
    await postgres.drop();
  });

  it('are not loaded by a server on SQLite with the sandbox, no Redis, no SMTP and no traces', () => {
    expect(loadedWith({ DATABASE_URL: sqlite.url })).toEqual([]);
  });

  it('are loaded by the settings that use them: PostgreSQL, Redis, an SMTP relay, an inbound SMTP listener, traces', async () => {
    const loaded = loadedWith({
      DATABASE_URL: postgres.url,
      DATABASE_SCHEMA: postgres.schema as string,
      REDIS_URL: 'redis://127.0.0.1:6379',
      EMAIL_PROVIDER: 'smtp',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      INBOUND_SMTP_PORT: String(await freePort()),
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
    });
    // mailparser waits for the first message received.
    expect(loaded.sort()).toEqual(['@opentelemetry/sdk-trace', 'ioredis', 'nodemailer', 'pg', 'smtp-server']);
  });
});
