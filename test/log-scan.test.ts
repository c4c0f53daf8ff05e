import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/main/logger.js';
import { scanLogs } from './log-scan.js';
import { TEST_PROVIDER_SECRETS } from './logs.js';

const CLIENT_SECRET = 'hsec_q8Jx1m2Vn5sT7yU9wZ0aB3cD4eF6gH8iJ0kL2mN4oP6';
const WEBHOOK_SECRET = 'whsec_MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI=';
const JWT = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJjbGlfMDEyMyIsInNjb3BlIjoic21zOnNlbmQifQ.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU';

const dirWith = (files: Record<string, string>): string => {
  const dir = mkdtempSync(join(tmpdir(), 'herald-log-scan-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};

describe('the suite-wide log scan', () => {
  it('finds a client secret, a webhook secret, a token and each provider credential in log records', () => {
    const records = [
      { level: 30, msg: 'x', client: CLIENT_SECRET },
      { level: 30, msg: 'x', secret: WEBHOOK_SECRET },
      { level: 20, msg: 'x', header: `Bearer ${JWT}` },
      ...Object.values(TEST_PROVIDER_SECRETS).map((value) => ({ level: 40, msg: 'provider error', detail: `bind with ${value} refused` })),
    ];
    const { leaks, records: scanned } = scanLogs(dirWith({ 'a.log': records.map((r) => JSON.stringify(r)).join('\n') }));
    expect(scanned).toBe(records.length);
    expect([...new Set(leaks.map((leak) => leak.line))]).toEqual(records.map((_, index) => index + 1));
    expect(leaks.map((leak) => leak.what)).toContain('an access token (JWT)');
  });

  it('ignores standard output that is not a log record: the demo banner and --json answers show a secret once, by design', () => {
    const banner = `\n  client_secret  ${CLIENT_SECRET}\n  curl -s http://127.0.0.1:3000/oauth/token -d client_secret=${CLIENT_SECRET}\n`;
    const json = `${JSON.stringify({ account_id: 'acc_1', client_secret: CLIENT_SECRET })}\n`;
    expect(scanLogs(dirWith({ 'banner.log': banner, 'json.log': json })).leaks).toEqual([]);
  });

  it("reads every line of a process's standard error, where a crash trace is not a log record", () => {
    const trace = `Error: bind refused for password ${TEST_PROVIDER_SECRETS.smppPassword}\n    at Object.<anonymous> (cli.js:1:1)\n`;
    const { leaks } = scanLogs(dirWith({ 'process-serve-1.stderr.log': trace, 'process-serve-1.log': 'not json, deliberate output' }));
    expect(leaks).toEqual([{ file: 'process-serve-1.stderr.log', line: 1, what: 'the test smppPassword' }]);
  });

  it('finds nothing in what the production logger writes: secrets are redacted by name and in URLs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-log-scan-'));
    const logger = createLogger('trace', join(dir, 'app.log'));
    logger.info({ body: { client_secret: CLIENT_SECRET, secret: WEBHOOK_SECRET, access_token: JWT } }, 'a body');
    logger.info(
      { req: { method: 'POST', url: `/oauth/token?client_secret=${CLIENT_SECRET}`, headers: { authorization: `Bearer ${JWT}` } } },
      'a request',
    );
    logger.info({ headers: { authorization: `Basic ${Buffer.from(`cli_1:${CLIENT_SECRET}`).toString('base64')}` } }, 'headers');
    const verification = `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${TEST_PROVIDER_SECRETS.whatsappVerifyToken}&hub.challenge=1`;
    logger.info({ req: { method: 'GET', url: verification } }, 'incoming request');
    const written = readFileSync(join(dir, 'app.log'), 'utf8');
    expect(written).toContain('[REDACTED]');
    const { records, leaks } = scanLogs(dir);
    expect(records).toBe(4);
    expect(leaks).toEqual([]);
  });
});
