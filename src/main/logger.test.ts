import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocateDatabase, openDatabase, type TestDatabaseLocation } from '../../test/databases.js';
import { scanLogs } from '../../test/log-scan.js';
import { TEST_PROVIDER_SECRETS } from '../../test/logs.js';
import { RELAXED_OVERLOAD_BOUNDS } from '../../test/process.js';
import { loadConfig } from './config.js';
import { createLogger, prettyLogs, redactQuerySecrets } from './logger.js';
import { type RunningServer, startServer } from './server.js';
import { buildServices } from './services.js';

const VERIFY_TOKEN = TEST_PROVIDER_SECRETS.whatsappVerifyToken;

/** A fresh log directory and the path of the one file the production logger writes there. */
function logFile(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'herald-logger-'));
  return { dir, file: join(dir, 'herald.log') };
}

describe('pretty logs (LOG_FORMAT)', () => {
  it('are written for a terminal unless told otherwise: pretty, or auto with standard output a TTY', () => {
    expect(prettyLogs('pretty', false)).toBe(true);
    expect(prettyLogs('auto', true)).toBe(true);
    expect(prettyLogs('auto', false)).toBe(false);
    expect(prettyLogs('auto', undefined)).toBe(false);
    expect(prettyLogs('json', true)).toBe(false);
  });

  it('write one short line a record, with its fields, secrets redacted as in JSON', () => {
    const { file } = logFile();
    const logger = createLogger('info', file, { pretty: true });
    logger.info({ client_id: 'cli_1', client_secret: 'hsec_leak', url: '/x?token=abc' }, 'created a client');
    logger.debug('not at info');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\] INFO: created a client \{/);
    expect(lines[0]).toContain('"client_id":"cli_1"');
    expect(lines[0]).toContain('"client_secret":"[REDACTED]"');
    expect(lines[0]).toContain('/x?token=[REDACTED]');
    expect(lines[0]).not.toContain('hsec_leak');
  });
});

describe('redactQuerySecrets', () => {
  it.each([
    [
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=abc&hub.challenge=1',
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=[REDACTED]&hub.challenge=1',
    ],
    ['/x?token=abc', '/x?token=[REDACTED]'],
    ['/x?ACCESS_TOKEN=abc&a=1', '/x?ACCESS_TOKEN=[REDACTED]&a=1'],
    ['/x?client_secret=abc', '/x?client_secret=[REDACTED]'],
    ['/x?Password=abc', '/x?Password=[REDACTED]'],
    ['/x?old_password=abc&new_password=def', '/x?old_password=[REDACTED]&new_password=[REDACTED]'],
    ['/x?X-Amz-Signature=abc&X-Amz-Date=20250101', '/x?X-Amz-Signature=[REDACTED]&X-Amz-Date=20250101'],
    ['/x?a=1;session_token=abc', '/x?a=1;session_token=[REDACTED]'],
    ['/x?hub.verify%5Ftoken=abc', '/x?hub.verify%5Ftoken=[REDACTED]'],
    ['/x?%74oken=abc', '/x?%74oken=[REDACTED]'],
    ['/x?token=abc#section', '/x?token=[REDACTED]#section'],
    ['/x?token=&a=1', '/x?token=[REDACTED]&a=1'],
    ['Route GET:/x?secret=abc not found', 'Route GET:/x?secret=[REDACTED] not found'],
    ['https://hooks.example.com/in?sig=1&signature=abc', 'https://hooks.example.com/in?sig=[REDACTED]&signature=[REDACTED]'],
    ['/x?api_key=abc&apikey=def&key=ghi', '/x?api_key=[REDACTED]&apikey=[REDACTED]&key=[REDACTED]'],
    ['/x?X-Api-Key=abc&access_key=def', '/x?X-Api-Key=[REDACTED]&access_key=[REDACTED]'],
    ['/x?auth=abc&Authorization=def&credentials=ghi', '/x?auth=[REDACTED]&Authorization=[REDACTED]&credentials=[REDACTED]'],
    ['/x?passwd=abc', '/x?passwd=[REDACTED]'],
    ['/x?code=abc&pwd=def&pass=ghi', '/x?code=[REDACTED]&pwd=[REDACTED]&pass=[REDACTED]'],
    ['/x?passphrase=abc&jwt=def&sessionid=ghi&otp=1', '/x?passphrase=[REDACTED]&jwt=[REDACTED]&sessionid=[REDACTED]&otp=[REDACTED]'],
    ['/x?api_keys=abc&keys=def&key[]=ghi', '/x?api_keys=[REDACTED]&keys=[REDACTED]&key[]=[REDACTED]'],
    ['/x?apiKeyV2=abc&api-key-2=def&api_key%5B%5D=ghi', '/x?apiKeyV2=[REDACTED]&api-key-2=[REDACTED]&api_key%5B%5D=[REDACTED]'],
    ['/x?x-auth=abc&basic_auth=def&auth[]=ghi', '/x?x-auth=[REDACTED]&basic_auth=[REDACTED]&auth[]=[REDACTED]'],
    ['/dashboard/invitations/inv_AbC-123_xyz', '/dashboard/invitations/[REDACTED]'],
    ['Route POST:/dashboard/invitations/inv_AbC?x=1 not found', 'Route POST:/dashboard/invitations/[REDACTED]?x=1 not found'],
  ])('redacts %s', (text, redacted) => {
    expect(redactQuerySecrets(text)).toBe(redacted);
  });

  it.each([
    '/v1/messages?limit=20&offset=40',
    '/x?%zztoken',
    '/x?tokens',
    '/x?keyword=abc&author=me&signal=1',
    'incoming request',
    'token=abc with no query before it',
  ])('leaves %s as it is', (text) => {
    expect(redactQuerySecrets(text)).toBe(text);
  });
});

describe('the production logger and URLs', () => {
  it('redacts query secrets in a url field, a message string and an error message and stack', () => {
    const { file } = logFile();
    const logger = createLogger('trace', file);
    logger.info({ url: `https://hooks.example.com/in?token=${VERIFY_TOKEN}` }, 'a url field');
    logger.warn(`fetching /x?secret=${VERIFY_TOKEN} failed`);
    logger.error({ err: new Error(`no answer from /x?password=${VERIFY_TOKEN}`) }, 'an error');
    const written = readFileSync(file, 'utf8');
    expect(written).not.toContain(VERIFY_TOKEN);
    const records = written
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.map((r) => r.url ?? r.msg)).toEqual([
      'https://hooks.example.com/in?token=[REDACTED]',
      'fetching /x?secret=[REDACTED] failed',
      'an error',
    ]);
    expect(records[2].err.message).toBe('no answer from /x?password=[REDACTED]');
    expect(records[2].err.stack).toContain('no answer from /x?password=[REDACTED]');
  });

  it('redacts the URL that Fastify quotes in an error of its own (a reply sent twice)', async () => {
    const { file } = logFile();
    const app = Fastify({ loggerInstance: createLogger('trace', file) });
    app.get('/twice', async (_request, reply) => {
      reply.send('first');
      reply.send('second');
      return reply;
    });
    const response = await app.inject({ method: 'GET', url: `/twice?access_token=${VERIFY_TOKEN}` });
    await app.close();
    expect(response.body).toBe('first');
    const written = readFileSync(file, 'utf8');
    expect(written).toContain('FST_ERR_REP_ALREADY_SENT');
    expect(written).toContain('/twice?access_token=[REDACTED]');
    expect(written).not.toContain(VERIFY_TOKEN);
  });
});

describe('the WhatsApp subscription check in a running server, logged at trace level', () => {
  let location: TestDatabaseLocation;
  let running: RunningServer;
  const { dir, file } = logFile();

  beforeAll(async () => {
    location = allocateDatabase('sqlite');
    await (await openDatabase(location)).close();
    const config = loadConfig({
      DATABASE_URL: location.url,
      HOST: '127.0.0.1',
      PORT: '0',
      DEMO_ACCOUNT: 'false',
      LOG_LEVEL: 'trace',
      WHATSAPP_PROVIDER: 'cloud-api',
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_ACCESS_TOKEN: TEST_PROVIDER_SECRETS.whatsappAccessToken,
      // Nothing listens there: the check below never calls the Graph API.
      WHATSAPP_GRAPH_BASE_URL: 'http://127.0.0.1:9',
      WHATSAPP_APP_SECRET: TEST_PROVIDER_SECRETS.whatsappAppSecret,
      WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
      ...RELAXED_OVERLOAD_BOUNDS,
    });
    running = await startServer(buildServices(config, createLogger('trace', file)), { withWorker: false });
  });
  afterAll(async () => {
    await running.stop();
    await location.drop();
  });

  it('answers the challenge and leaves no verify token in the log, right or wrong', async () => {
    const check = (token: string) =>
      fetch(`${running.address}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`);
    const ok = await check(VERIFY_TOKEN);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('1158201444');
    expect((await check(`${VERIFY_TOKEN}-guess`)).status).toBe(403);

    const written = readFileSync(file, 'utf8');
    const requests = written
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((record) => record.req?.url?.startsWith('/webhooks/whatsapp'));
    expect(requests.map((record) => record.req.url)).toEqual([
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=[REDACTED]&hub.challenge=1158201444',
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=[REDACTED]&hub.challenge=1158201444',
    ]);
    expect(written).not.toContain(VERIFY_TOKEN);
    // The suite-wide scan agrees: the verify token is one of the credentials it looks for.
    expect(scanLogs(dir).leaks).toEqual([]);
  });
});
