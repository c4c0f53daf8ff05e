import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './ports.js';
import { type HeraldServer, heraldEnv, startServer } from './process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The first fenced block of `language` after `heading` in the README. */
function blockAfter(heading: string, language: string): string {
  const at = README.indexOf(heading);
  if (at < 0) throw new Error(`no "${heading}" in README.md`);
  const open = README.indexOf(`\`\`\`${language}\n`, at);
  if (open < 0) throw new Error(`no \`\`\`${language} block after "${heading}" in README.md`);
  const start = open + language.length + 4;
  return README.slice(start, README.indexOf('```', start));
}

/** A JSON value's shape: the same keys and the same types, values aside (ids and times differ per run). */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  return value === null ? null : typeof value;
}

/**
 * A server on a store of its own, started as the README's webhook section says (receivers on this
 * machine allowed), with the sandbox carrier reporting at once so the README's pauses leave room on
 * a loaded machine; and a runner of README blocks against it, in one bash, from the repository's
 * root (the CLI the walk-through calls works on the server's store, as `npm start`'s own would).
 */
function useReadmeServer(): {
  run(headings: string[], extraEnv?: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }>;
} {
  let herald: HeraldServer;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'herald-readme-'));
    env = heraldEnv(
      { url: `sqlite:${join(dir, 'herald.db')}`, schema: undefined },
      { WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true', SANDBOX_DELAY_MS: '0' },
    );
    herald = await startServer(env);
  }, 60_000);
  afterAll(async () => {
    await herald?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    async run(headings, extraEnv = {}) {
      const script = headings.map((heading) => blockAfter(heading, 'sh')).join('\n');
      const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: ROOT, env: { ...env, ...extraEnv, HERALD: herald.url } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      return { code, stdout, stderr };
    },
  };
}

const WALK = '## A walk through the API with curl';
const HOOKS = '## Webhooks on your machine';

describe('the README walk-through', () => {
  const server = useReadmeServer();

  it('runs as it stands against a started server and prints what the README says it prints', { timeout: 60_000 }, async () => {
    const { code, stdout, stderr } = await server.run([WALK]);
    expect(code, stderr).toBe(0);
    const printed = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { success: boolean; data: Record<string, unknown> });
    const shown = blockAfter('What it prints', 'json')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(printed.map(shape)).toEqual(shown.map(shape));
    // The message sent is the one read back, delivered by the sandbox and charged once.
    const [sent, viaSms, viaMessages, balance] = printed;
    expect(sent?.data.status).toBe('queued');
    expect(viaSms?.data.message_id).toBe(sent?.data.message_id);
    expect(viaMessages?.data.message_id).toBe(sent?.data.message_id);
    expect(viaSms?.data.status).toBe('delivered');
    expect(balance?.data).toEqual({ credits: 99, reserved: 0, available: 99 });
  });

  it('names commands that exist (npm scripts of package.json)', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts);
    for (const [, name] of README.matchAll(/npm run (?:--silent )?([a-z:]+)/g)) expect(scripts).toContain(name);
    expect(spawnSync('bash', ['-n', '-c', blockAfter(WALK, 'sh')]).status).toBe(0);
  });
});

describe('the README webhook section', () => {
  const server = useReadmeServer();

  it('runs after the walk-through, and its receiver gets the event the README shows', { timeout: 60_000 }, async () => {
    const receiverPort = await freePort();
    const { code, stdout, stderr } = await server.run([WALK, HOOKS], { RECEIVER_PORT: String(receiverPort) });
    expect(code, stderr).toBe(0);
    // The receiver prints from the background: its line may come before the `queued` of the send.
    const lines = stdout.trim().split('\n').slice(-3);
    const eventLine = lines.find((line) => line.startsWith('{')) as string;
    expect(lines.filter((line) => line !== eventLine)).toEqual([`http://127.0.0.1:${receiverPort}/hooks`, 'queued']);
    const event = JSON.parse(eventLine) as unknown;
    const shown = JSON.parse(blockAfter('It prints the receiver', 'json').trim()) as unknown;
    expect(shape(event)).toEqual(shape(shown));
    expect(event).toMatchObject({ type: 'message.delivered', data: { status: 'delivered', channel: 'sms' } });
  });
});
