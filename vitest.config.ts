import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Several instances on one PostgreSQL: the second pass only (vitest.postgres.config.ts).
    exclude: [...configDefaults.exclude, 'test/postgres/**'],
    globalSetup: ['test/setup/bundle.ts'],
    // The first pass is the memory store's, also when TEST_STORE is exported for the second (.ci/run does).
    env: { TEST_STORE: '' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Conformance and browser tests start real servers; two workers suit the 2-core machines we run on.
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
