// Which store the tests run on: the memory store, or PostgreSQL when TEST_STORE holds a postgres:// URL (the
// second pass of `npm test`, vitest.postgres.config.ts). Each store made here lives in a schema of its own,
// so test files and the apps inside them never see each other's state.
import { dropSchemas, freshSchemaUrl as freshUrl, reachable } from '../../scripts/pg-lib.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import type { StorePart } from '../../src/store/parts.js';
import { SERVICES, servicePartsOf } from '../../src/services/index.js';

/** The PostgreSQL URL the tests run on, or undefined for the memory store. */
export const TEST_STORE = process.env.TEST_STORE && process.env.TEST_STORE !== 'memory' ? process.env.TEST_STORE : undefined;

/**
 * Every throwaway schema of this run starts with this, so that the global teardown drops them all and only
 * them (another run on the same server keeps its own). scripts/pg-test.ts sets the run's id.
 */
export const SCHEMA_PREFIX = `pe_test_${(process.env.TEST_STORE_RUN ?? 'local').replace(/[^a-z0-9]/g, '')}_`;

/** A URL of `base` naming a fresh, not yet existing schema. */
export const freshSchemaUrl = (base: string, label = ''): string => freshUrl(base, `${SCHEMA_PREFIX}${label}`);

/** The store spec an emulator under test uses: `memory`, or a fresh schema on TEST_STORE. */
export const testStoreSpec = (): string => (TEST_STORE ? freshSchemaUrl(TEST_STORE) : 'memory');

/** A store with every listed service's parts (or `parts`), on the backend this pass tests. */
export async function openTestStore(parts: readonly StorePart<unknown>[] = servicePartsOf(SERVICES)): Promise<Store> {
  return TEST_STORE ? openPostgresStore({ url: freshSchemaUrl(TEST_STORE), parts }) : createMemoryStore(parts);
}

/** Drops every throwaway schema of the tests. */
export const dropTestSchemas = (url: string): Promise<void> => dropSchemas(url, SCHEMA_PREFIX);

export { reachable };
