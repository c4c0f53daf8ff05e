import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useServerWithAccount } from '../../test/e2e/server-with-account.js';
import { startReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';
import { Herald } from '../src/index.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = (name: string) => join(repo, 'node_modules/.bin', name);
const here = (name: string) => fileURLToPath(new URL(`./runtime/${name}`, import.meta.url));

/**
 * The SDK as users get it: built with tsc, packed by npm, installed into a project of its own and
 * imported by its name, then run against a real Herald under each runtime the README names (Node,
 * Bun, Deno: the latter two from their npm packages, which ship the binaries).
 */
describe('the packed SDK, installed into a project of its own', () => {
  let work: string;
  let app: string;
  let files: string[];
  // The server and its account, made with the CLI, as the other end-to-end suites make theirs.
  const ctx = useServerWithAccount(
    'sqlite',
    { name: 'Runtimes', email: 'rt@example.com', credits: 100 },
    { SANDBOX_DELAY_MS: '0', WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' },
  );
  let receiver: WebhookReceiver;
  let runtimeEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'herald-sdk-'));
    const pkg = join(work, 'pkg');
    app = join(work, 'app');
    await run(bin('tsc'), ['-p', join(repo, 'sdk/tsconfig.json'), '--outDir', join(pkg, 'dist')]);
    await copyFile(join(repo, 'sdk/package.json'), join(pkg, 'package.json'));
    await copyFile(join(repo, 'sdk/README.md'), join(pkg, 'README.md'));
    const packed = JSON.parse((await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: pkg })).stdout);
    files = packed[0].files.map((f: { path: string }) => f.path);
    await run('mkdir', [app]);
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, packed[0].filename)], { cwd: app });
    await copyFile(here('check.mjs'), join(app, 'check.mjs'));
    await copyFile(here('consumer.ts'), join(app, 'consumer.ts'));

    receiver = await startReceiver(() => 204);
    const baseUrl = ctx.server.url;
    const { client_id: clientId, client_secret: clientSecret } = ctx.account;
    // One real delivery, signed by Herald, for every runtime to verify.
    const herald = new Herald({ baseUrl, clientId, clientSecret });
    const { secret } = await herald.webhooks.secret();
    await herald.sms.send({ to: '+14155550141', message: 'for the runtimes', callback_url: `${receiver.url}/cb` });
    await receiver.waitFor(1, 20_000);
    const [delivery] = receiver.received;
    await writeFile(join(work, 'delivery.json'), JSON.stringify({ body: delivery?.body, headers: delivery?.headers, secret }));
    runtimeEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HERALD_URL: baseUrl,
      HERALD_CLIENT_ID: clientId,
      HERALD_CLIENT_SECRET: clientSecret,
      DELIVERY_FILE: join(work, 'delivery.json'),
      DENO_NO_UPDATE_CHECK: '1',
    };
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('packs the built ES modules with their declarations, the README and package.json, and nothing else', () => {
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('README.md');
    expect(files.filter((f) => !/^dist\/[\w/-]+\.(js|d\.ts)$/.test(f)).sort()).toEqual(['README.md', 'package.json']);
  });

  it('type-checks a strict NodeNext project that imports it by name (tsc), with no casts, and the README’s example as written', async () => {
    // The README's example, as a customer pastes it (its credentials declared, as their code would have them).
    const example = /```ts\n([\s\S]*?)```/.exec(await readFile(join(repo, 'sdk/README.md'), 'utf8'))?.[1];
    expect(example).toContain("from '@herald/sdk'");
    await writeFile(join(app, 'readme.ts'), `declare const clientId: string;\ndeclare const clientSecret: string;\n${example}`);
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          types: [],
          lib: ['ES2022', 'DOM'],
        },
        files: ['consumer.ts', 'readme.ts'],
      }),
    );
    await expect(run(bin('tsc'), ['-p', join(app, 'tsconfig.json')], { cwd: app })).resolves.toBeDefined();
  }, 60_000);

  it('type-checks the same project under Deno (deno check)', async () => {
    await expect(run(bin('deno'), ['check', 'consumer.ts'], { cwd: app, env: runtimeEnv })).resolves.toBeDefined();
  }, 60_000);

  const expected = {
    sent: true,
    preview: 'UCS-2 ’@3',
    refused: '422 INVALID_PHONE',
    event: expect.stringMatching(/^message\.(sent|delivered)$/),
    tampered: 'WEBHOOK_SIGNATURE_INVALID',
  };
  const runtimes: Array<[string, () => [string, string[]]]> = [
    ['Node', () => [process.execPath, ['check.mjs']]],
    ['Bun', () => [bin('bun'), ['check.mjs']]],
    ['Deno', () => [bin('deno'), ['run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', 'check.mjs']]],
  ];
  it.each(runtimes)(
    'sends, previews, refuses and verifies a real delivery under %s',
    async (name, command) => {
      const [file, args] = command();
      const { stdout } = await run(file, args, { cwd: app, env: { ...runtimeEnv, RUNTIME: name }, timeout: 45_000 });
      expect(JSON.parse(stdout)).toEqual(expected);
    },
    60_000,
  );
});
