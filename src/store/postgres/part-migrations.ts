// Each store part's own migrations (src/store/parts.ts), numbered within the part and recorded by part name,
// applied after the shared migrations, each in its own transaction, under the same advisory lock. Never edit a
// part's migration that has shipped; add the part's next one.
import type pg from 'pg';
import type { Migration } from './migrations.js';

/** What this reads of a store part (src/store/parts.ts). */
interface PartMigrations {
  name: string;
  migrations: readonly Migration[];
}

export async function migrateParts(client: pg.ClientBase, schema: string, parts: readonly PartMigrations[]): Promise<void> {
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${schema}.part_migrations (part text NOT NULL, version int NOT NULL, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (part, version))`,
  );
  const rows = (await client.query<{ part: string; version: number }>(`SELECT part, version FROM ${schema}.part_migrations`)).rows;
  const done = new Set(rows.map((r) => `${r.part}\u0000${r.version}`));
  for (const part of parts) {
    for (const migration of part.migrations) {
      if (done.has(`${part.name}\u0000${migration.version}`)) continue;
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL search_path = ${schema}`);
        await client.query(migration.sql);
        await client.query(`INSERT INTO ${schema}.part_migrations (part, version, name) VALUES ($1, $2, $3)`, [part.name, migration.version, migration.name]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    }
  }
}
