// Issue 25: CI started PostgreSQL on the fixed port 54329, so two runs on one machine collided. With PG_PORT=free
// (what .ci/run sets), scripts/pg-cluster.sh takes a free port: two clusters started at once both come up.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'pg-cluster.sh');
const hasPostgres = existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').length > 0;
const base = mkdtempSync(join(tmpdir(), 'emulator-pg-free-'));
chmodSync(base, 0o755); // the server runs as the postgres user when the tests run as root

const cluster = (name: string, command: string) =>
  run('bash', [SCRIPT, command], { env: { ...process.env, PG_PORT: 'free', PG_DIR: join(base, name) }, timeout: 120_000 });

describe.skipIf(!hasPostgres)('scripts/pg-cluster.sh with PG_PORT=free (skipped without Debian PostgreSQL binaries)', () => {
  afterAll(async () => {
    await Promise.allSettled([cluster('a', 'destroy'), cluster('b', 'destroy')]);
    rmSync(base, { recursive: true, force: true });
  });

  it('two clusters started at once get two free ports, and both answer', async () => {
    const [a, b] = await Promise.all([cluster('a', 'start'), cluster('b', 'start')]);
    const urls = [a.stdout.trim(), b.stdout.trim()];
    const ports = urls.map((u) => new URL(u).port);
    expect(ports[0]).not.toBe(ports[1]);
    expect(ports).not.toContain('54329');
    for (const url of urls) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      expect((await client.query('SELECT 1 AS one')).rows[0].one).toBe(1);
      await client.end();
    }
    // `url` reads the port back from the running cluster.
    expect((await cluster('a', 'url')).stdout.trim()).toBe(urls[0]);
    expect(readFileSync(join(base, 'a', 'postmaster.pid'), 'utf8')).toContain(ports[0]!);
  }, 180_000);
});
