import { rmSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { isCI } from './ci.js';
import { scanLogs } from './log-scan.js';
import { TEST_LOG_DIR_ENV, TEST_LOG_DIR_OWNED_ENV } from './logs.js';

/**
 * Prints the closing line CI reads, `N passed, N failed, N skipped`. A module that failed to
 * load, a failed hook, or an error outside any test, counts as a failure so it can never pass unnoticed.
 * Before it, every log the run wrote is scanned for credentials (test/log-scan.ts); a leak is a failure.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // A failed hook (beforeAll...) or import fails the module while its tests only show as skipped.
      if (failedHere === 0 && module.state() === 'failed') failedHere = 1;
      failed += failedHere;
    }
    this.printSlowest(testModules);
    failed += this.scanTheRunsLogs();
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }

  /** The ten files that took longest (tests and hooks), so the suite's time has names. */
  private printSlowest(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules
      .map((module) => ({ file: module.relativeModuleId, ms: module.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    if (timed.length < 2) return;
    process.stdout.write('\nslowest files:\n');
    for (const { file, ms } of timed) process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`);
  }

  /** The number of leaks found in this run's logs, each printed with its file and line. */
  private scanTheRunsLogs(): number {
    const dir = process.env[TEST_LOG_DIR_ENV];
    if (!dir) return 0;
    const { files, records, leaks } = scanLogs(dir);
    if (records === 0 && isCI()) {
      // The whole suite always logs: nothing to scan means the logs went somewhere else.
      process.stdout.write(`\nlog scan: no log record reached ${dir}; the scan saw nothing, so it cannot pass\n`);
      process.exitCode = 1;
      return 1;
    }
    if (leaks.length === 0) {
      process.stdout.write(`\nlog scan: ${records} log records in ${files} files, no client secret, token or provider credential\n`);
      if (process.env[TEST_LOG_DIR_OWNED_ENV]) rmSync(dir, { recursive: true, force: true });
      return 0;
    }
    process.stdout.write(`\nlog scan: ${leaks.length} credentials in the logs (kept in ${dir}):\n`);
    for (const leak of leaks.slice(0, 50)) process.stdout.write(`  ${leak.file}:${leak.line}: ${leak.what}\n`);
    if (process.exitCode === undefined || process.exitCode === 0) process.exitCode = 1;
    return leaks.length;
  }
}
