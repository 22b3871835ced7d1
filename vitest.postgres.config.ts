// The second pass of `npm test` (scripts/pg-test.ts starts it): every suite that builds a store runs again on
// PostgreSQL (TEST_STORE), plus the several-instances tests of test/postgres.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  test: {
    ...base.test,
    // Every suite, by glob, so that a new service's tests run here without a list to remember; left out are the
    // suites that never touch the store (the import direction, the browser, the CLI's flags and bundle, the
    // fuzzers, the bench harness, the package checks), which the first pass runs once.
    include: ['test/**/*.test.ts'],
    exclude: [
      'test/architecture/**',
      'test/browser/**',
      'test/cli/**',
      'test/fuzz/**',
      'test/bench/**',
      'test/package/**',
      'test/log-sink.test.ts',
      'test/settings.test.ts',
    ],
    globalSetup: ['test/setup/bundle.ts', 'test/setup/postgres.ts'],
    env: { TEST_STORE: process.env.TEST_STORE ?? '' },
  },
});
