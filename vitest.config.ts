import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/summary-reporter.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'sdk/test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    reporters: ['default', new SummaryReporter()],
    // E2E tests start several processes in a row on a shared 2-core machine; their helpers carry
    // their own (shorter) limits, whose messages include the processes' output.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: more workers only fight over them.
    maxWorkers: 2,
  },
});
