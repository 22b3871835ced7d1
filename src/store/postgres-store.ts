// The PostgreSQL store: the same interface as the memory store, with every piece of state in the database so
// that it survives restarts and several instances act as one emulator (docs/contracts.md §12). Opening it applies
// the migrations under an advisory lock and opens the LISTEN connection; a database that cannot be reached
// fails the start with a message naming the address (never the password).
import type pg from 'pg';
import type { Store } from './store.js';
import { Db, isUnavailable, type DbOptions } from './postgres/db.js';
import { describeStoreUrl } from './postgres/url.js';
import { lockKey, migrate } from './postgres/migrations.js';
import { PgNotifications } from './postgres/notifications.js';
import { PartRegistry, type StorePart } from './parts.js';
import { coreRepositories, withCoreParts } from './core-parts.js';
import { migrateParts } from './postgres/part-migrations.js';
import { PgInstances } from './postgres/instances.js';

export interface PostgresStoreOptions extends DbOptions {
  /** The services' store parts beyond the core ones: their migrations run at open, their tables reset. */
  parts?: readonly StorePart<unknown>[];
}

export class StoreStartError extends Error {}

export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const parts = withCoreParts(options.parts ?? []);
  const db = new Db(options);
  const notifications = new PgNotifications(db, options);
  try {
    await withLock(db, async (client) => {
      await migrate(client, db.schema);
      await migrateParts(client, db.schema, parts);
    });
    await notifications.start();
  } catch (err) {
    await notifications.close();
    await db.close().catch(() => undefined);
    const why = isUnavailable(err) ? 'cannot reach the database' : 'cannot prepare the database';
    const detail =
      err instanceof Error && !isUnavailable(err) ? `: ${err.message}` : err instanceof Error ? ` (${(err as { code?: string }).code ?? err.message})` : '';
    throw new StoreStartError(`store: ${why} at ${describeStoreUrl(options.url)}${detail}`);
  }

  const registry = new PartRegistry(parts, (part, lookup) => part.postgres(db, lookup));
  const stateTables = parts.flatMap((part) => part.tables);
  async function resetWith<T>(apply: () => Promise<T>): Promise<T> {
    // One transaction, the reseed included (the repositories' queries join it, db.ts): the other instances
    // see the old state or the new one, never an empty or half-seeded store. DELETE, not TRUNCATE:
    // TRUNCATE's exclusive table locks deadlock with requests reading two tables (a token and its user)
    // while a reset runs; DELETE takes row locks only. The row-count triggers keep the caps' counts; the
    // retained result bytes are recounted from what is left.
    const result = await db.transaction(
      async (q) => {
        for (const table of stateTables) await q.query(`DELETE FROM ${table}`);
        await q.query("UPDATE counters SET n = (SELECT coalesce(sum(result_bytes), 0) FROM jobs WHERE finish_seq IS NOT NULL) WHERE name = 'result_bytes'");
        return apply();
      },
      { ambient: true },
    );
    notifications.publish('reset');
    return result;
  }
  return {
    ...coreRepositories(registry),
    parts,
    part: (part) => registry.get(part),
    shared: true,
    notifications,
    instances: new PgInstances(db),
    clear: () => resetWith(async () => undefined),
    resetWith: (apply) => resetWith(apply),
    async seedOnce(apply) {
      return withLock(db, async (client) => {
        const seeded = await client.query("SELECT 1 FROM meta WHERE key = 'seeded'");
        if (seeded.rowCount) return false;
        await apply();
        await client.query("INSERT INTO meta (key, value) VALUES ('seeded', now()::text)");
        return true;
      });
    },
    async close() {
      await notifications.close();
      await db.close();
    },
  };
}

/** Runs `work` while holding this schema's advisory lock on one connection: one instance at a time. */
async function withLock<T>(db: Db, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.pool.connect();
  try {
    // Waiting for another instance's migration may take longer than one statement's bound.
    await client.query('SET statement_timeout = 0');
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [lockKey(db.schema)]);
    try {
      await client.query(`SET search_path = ${db.schema}`);
      return await work(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lockKey(db.schema)]).catch(() => undefined);
    }
  } finally {
    // The session changed its settings: it is closed rather than handed back to the pool for requests.
    client.release(true);
  }
}
