import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createLogger } from '../src/main/logger.js';

/**
 * Every log the suite produces lands in one directory per run (HERALD_TEST_LOG_DIR, made by
 * test/global-setup.ts), so that the run ends with a scan of all of it for secrets
 * (test/log-scan.ts). In-process apps and workers log through `testLogger`, at trace level, with
 * the production logger's redaction; spawned `herald` processes have their output appended.
 */
export const TEST_LOG_DIR_ENV = 'HERALD_TEST_LOG_DIR';
/** Set when this run made the directory (and may delete it after a clean scan). */
export const TEST_LOG_DIR_OWNED_ENV = 'HERALD_TEST_LOG_DIR_OWNED';

/** Provider credentials the suite hands to Herald; none of them may ever appear in a log. */
export const TEST_PROVIDER_SECRETS = {
  smppPassword: 'Sm5c!pw',
  telegramBotToken: '123456789:AAHfakeFAKEfake_fake-fakeFAKEfake123',
  whatsappAccessToken: 'EAAG-test-token',
  whatsappAppSecret: 'app-secret-for-tests',
  whatsappVerifyToken: 'wa-verify-token-for-tests',
  telegramWebhookSecret: 'tg-webhook-secret_for_tests',
  smtpPassword: 's3cret pass',
} as const;

const logDir = (): string | undefined => process.env[TEST_LOG_DIR_ENV] || undefined;

let root: Logger | undefined;

/**
 * A logger writing to this run's log directory (silent when the suite runs without one): one file
 * per test worker process, opened once; `name` is the `component` of each record.
 */
export function testLogger(name: string): Logger {
  const dir = logDir();
  if (!dir) return createLogger('silent');
  if (!root) {
    mkdirSync(dir, { recursive: true });
    root = createLogger('trace', join(dir, `tests-${process.pid}.log`));
  }
  return root.child({ component: name });
}

/**
 * Keeps a spawned process's output for the scan: standard output (log records and deliberate
 * output such as the demo banner) and standard error (crash traces: scanned line by line, whole).
 */
export function keepProcessOutput(name: string, pid: number | undefined, stdout: string, stderr: string): void {
  const dir = logDir();
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const base = join(dir, `process-${name}-${pid ?? 'unknown'}`);
  if (stdout) appendFileSync(`${base}.log`, `${stdout}\n`);
  if (stderr) appendFileSync(`${base}${STDERR_SUFFIX}`, `${stderr}\n`);
}

/** Files whose every line is scanned, JSON or not. */
export const STDERR_SUFFIX = '.stderr.log';
