// Which store the tests run on: the memory store, or PostgreSQL when TEST_STORE holds a postgres:// URL (the
// second pass of `npm test`, vitest.postgres.config.ts). Each store made here lives in a schema of its own,
// so test files and the apps inside them never see each other's state.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createMemoryStore } from '../../src/store/memory/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Store } from '../../src/store/store.js';

/** The PostgreSQL URL the tests run on, or undefined for the memory store. */
export const TEST_STORE = process.env.TEST_STORE && process.env.TEST_STORE !== 'memory' ? process.env.TEST_STORE : undefined;

/** Every throwaway schema starts with this, so that the global teardown can drop them all. */
export const SCHEMA_PREFIX = 'pe_test_';

/** A URL of `base` naming a fresh, not yet existing schema. */
export function freshSchemaUrl(base: string, label = ''): string {
  const url = new URL(base);
  url.searchParams.set('schema', `${SCHEMA_PREFIX}${label}${randomBytes(6).toString('hex')}`);
  return url.toString();
}

/** The store spec an emulator under test uses: `memory`, or a fresh schema on TEST_STORE. */
export const testStoreSpec = (): string => (TEST_STORE ? freshSchemaUrl(TEST_STORE) : 'memory');

export async function openTestStore(): Promise<Store> {
  return TEST_STORE ? openPostgresStore({ url: freshSchemaUrl(TEST_STORE) }) : createMemoryStore();
}

/** Drops every throwaway schema of the tests. */
export async function dropTestSchemas(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname LIKE $1', [`${SCHEMA_PREFIX}%`]);
    for (const { nspname } of rows) await client.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`);
  } finally {
    await client.end();
  }
}

/** True when a server answers at `url` within a second. */
export async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
