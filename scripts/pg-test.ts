// The PostgreSQL pass of `npm test`: runs vitest.postgres.config.ts against TEST_STORE (else the local test
// cluster of scripts/pg-cluster.sh). Without a reachable server it prints why and passes, except under
// CI=true, where the pass is required and a missing server fails the run.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { LOCAL_CLUSTER_URL, reachable, withoutCredentials } from './pg-lib.js';

const url = process.env.TEST_STORE || LOCAL_CLUSTER_URL;
const required = process.env.CI === 'true';

if (!(await reachable(url))) {
  const why = `PostgreSQL tests: no server answers at ${withoutCredentials(url)}. Start one with scripts/pg-cluster.sh start, or set TEST_STORE.`;
  if (required) {
    console.error(`${why}\nCI=true requires them.`);
    process.exit(1);
  }
  console.log(`${why}\nSkipped (they are required only under CI=true).`);
  process.exit(0);
}

const result = spawnSync('npx', ['vitest', 'run', '-c', 'vitest.postgres.config.ts', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TEST_STORE: url, TEST_STORE_RUN: randomBytes(4).toString('hex') },
});
process.exit(result.status ?? 1);
