// The second pass of `npm test` (scripts/pg-test.ts starts it): the acceptance suites and the store contract
// tests again, on PostgreSQL (TEST_STORE), plus the several-instances tests of test/postgres. The journal,
// dashboard and HTTP-envelope suites build the app on the test store too, so they run here as well. Suites that
// do not touch the store (the browser, CLI flags, the fuzzers, the bench harness) run once, in the first pass.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  test: {
    ...base.test,
    include: [
      'test/postgres/**/*.test.ts',
      'test/store/**/*.test.ts',
      'test/admin/**/*.test.ts',
      'test/filesystem/**/*.test.ts',
      'test/oauth/**/*.test.ts',
      'test/connectivity/**/*.test.ts',
      'test/control/**/*.test.ts',
      'test/ontologies/**/*.test.ts',
      'test/compute-modules/**/*.test.ts',
      'test/clients/**/*.test.ts',
      'test/seed/**/*.test.ts',
      'test/index.test.ts',
      'test/journal/**/*.test.ts',
      'test/ui/**/*.test.ts',
      'test/http/**/*.test.ts',
    ],
    exclude: [],
    globalSetup: ['test/setup/bundle.ts', 'test/setup/postgres.ts'],
    env: { TEST_STORE: process.env.TEST_STORE ?? '' },
  },
});
