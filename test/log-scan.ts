import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STDERR_SUFFIX, TEST_PROVIDER_SECRETS } from './logs.js';

/** What a leaked credential looks like in a log line. */
const SECRET_SHAPES: Array<{ what: string; pattern: RegExp }> = [
  { what: 'a client secret', pattern: /hsec_[A-Za-z0-9_-]{20,}/ },
  { what: 'a webhook secret', pattern: /whsec_[A-Za-z0-9+/=_-]{20,}/ },
  { what: 'a dashboard invitation token', pattern: /inv_[A-Za-z0-9_-]{20,}/ },
  { what: 'a dashboard session token', pattern: /hss_[A-Za-z0-9_-]{20,}/ },
  { what: 'an operator session token', pattern: /hos_[A-Za-z0-9_-]{20,}/ },
  { what: 'an access token (JWT)', pattern: /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{20,}/ },
  { what: 'a Telegram bot token', pattern: /\b\d{6,12}:[A-Za-z0-9_-]{30,}\b/ },
  ...Object.entries(TEST_PROVIDER_SECRETS).map(([name, value]) => ({
    what: `the test ${name}`,
    pattern: new RegExp(value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
  })),
];

/** A pino record: a JSON object with a numeric level. A command's `--json` answer is not one. */
function isLogRecord(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const parsed = JSON.parse(line) as { level?: unknown };
    return typeof parsed.level === 'number';
  } catch {
    return false;
  }
}

export interface Leak {
  file: string;
  line: number;
  what: string;
}

/**
 * Finds credentials in log records: every line of every file that is a pino record, and every
 * line of a process's standard error (crash traces). Other lines of standard output are deliberate
 * — the demo account banner, `herald accounts create` and its `--json` answer — and show a new
 * secret once, by design.
 */
export function scanLogs(dir: string): { files: number; records: number; leaks: Leak[] } {
  let files = 0;
  let records = 0;
  const leaks: Leak[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { files, records, leaks };
  }
  for (const name of names) {
    files++;
    const lines = readFileSync(join(dir, name), 'utf8').split('\n');
    const everyLine = name.endsWith(STDERR_SUFFIX);
    lines.forEach((line, index) => {
      const record = isLogRecord(line);
      if (record) records++;
      else if (!everyLine) return;
      for (const shape of SECRET_SHAPES) {
        if (shape.pattern.test(line)) leaks.push({ file: name, line: index + 1, what: shape.what });
      }
    });
  }
  return { files, records, leaks };
}
