// The PostgreSQL side of the service list: every table the migrations make is declared by a store part of some
// listed service (so a reset empties it and the state tables derive from the list), every declared table exists,
// and a clear leaves every declared table empty after every service's example seed.
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { SERVICES, servicePartsOf } from '../../src/services/index.js';
import { seedCodecsOf } from '../../src/services/seed-codecs.js';
import { applySeed } from '../../src/seed/apply.js';
import { validateSeed } from '../../src/seed/load.js';
import { ManualClock } from '../../src/clock.js';
import { Db } from '../../src/store/postgres/db.js';
import type { Store } from '../../src/store/store.js';
import { freshSchemaUrl } from '../helpers/store.js';
import { baseUrl } from './helpers.js';

/**
 * Bookkeeping, not state: migrations applied, counters of the caps, the seeded mark, and the live instances' lease
 * renewals (a reset must not make a running instance look gone).
 */
const BOOKKEEPING = ['counters', 'instances', 'meta', 'part_migrations', 'schema_migrations'];
const parts = servicePartsOf(SERVICES);
const declared = parts.flatMap((p) => p.tables);

let store: Store | undefined;
let db: Db | undefined;
afterEach(async () => {
  await store?.close();
  await db?.close();
  store = db = undefined;
});

async function open(): Promise<{ store: Store; db: Db; schema: string }> {
  const url = freshSchemaUrl(baseUrl());
  store = await openPostgresStore({ url, parts });
  db = new Db({ url });
  return { store, db, schema: db.schema };
}

describe('store parts on PostgreSQL', () => {
  it('declare exactly the tables the migrations make', async () => {
    const { db, schema } = await open();
    const rows = await db.rows<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]);
    const made = rows.map((r) => r.table_name).filter((t) => !BOOKKEEPING.includes(t));
    expect(made.sort()).toEqual([...declared].sort());
  });

  it('are emptied by a clear after every service seeded its example', async () => {
    const { store, db } = await open();
    const codecs = seedCodecsOf(SERVICES);
    const seed = validateSeed({ platform: Object.fromEntries(codecs.map((c) => [c.key, c.example])) }, 'examples', codecs);
    await applySeed(seed, store, new ManualClock(), codecs);
    const filled = [];
    for (const table of declared) if (Number((await db.first<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))!.n) > 0) filled.push(table);
    expect(filled.length).toBeGreaterThan(5);
    await store.clear();
    for (const table of declared) expect(Number((await db.first<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))!.n), table).toBe(0);
  });

  it('vacuum the byte store unthrottled, table and TOAST alike (a reset deletes every chunk)', async () => {
    const { db, schema } = await open();
    const options = await db.rows<{ kind: string; reloptions: string[] | null }>(
      `SELECT CASE WHEN c.relname = 'blob_chunks' THEN 'table' ELSE 'toast' END AS kind, c.reloptions FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE (n.nspname = $1 AND c.relname = 'blob_chunks')
            OR c.oid = (SELECT reltoastrelid FROM pg_class t JOIN pg_namespace tn ON tn.oid = t.relnamespace WHERE tn.nspname = $1 AND t.relname = 'blob_chunks')`,
      [schema],
    );
    expect(Object.fromEntries(options.map((o) => [o.kind, [...(o.reloptions ?? [])].sort()]))).toEqual({
      table: ['autovacuum_vacuum_cost_delay=0', 'autovacuum_vacuum_scale_factor=0.05'],
      toast: ['autovacuum_vacuum_cost_delay=0', 'autovacuum_vacuum_scale_factor=0.05'],
    });
  });
});
