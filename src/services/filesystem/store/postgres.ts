// The tree on PostgreSQL: the same answers as memory.ts. One row per node; the parent and name columns serve
// the child listings, the sequence keeps the order nodes were first put in.
import type { Db } from '../../../store/postgres/db.js';
import { decode, encode } from '../../../store/postgres/records.js';
import type { Migration } from '../../../store/postgres/migrations.js';
import type { NodeRecord, TreeRepo } from './records.js';

export const TREE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'filesystem tree',
    sql: `
      CREATE TABLE filesystem_nodes (rid text PRIMARY KEY, parent_rid text NOT NULL, display_name text NOT NULL, seq bigserial, record text NOT NULL);
      CREATE INDEX filesystem_nodes_parent ON filesystem_nodes (parent_rid, display_name);
    `,
  },
];

export class PgTree implements TreeRepo {
  constructor(private readonly db: Db) {}

  async put(n: NodeRecord) {
    await this.db.query(
      `INSERT INTO filesystem_nodes (rid, parent_rid, display_name, record) VALUES ($1, $2, $3, $4)
       ON CONFLICT (rid) DO UPDATE SET parent_rid = $2, display_name = $3, record = $4`,
      [n.rid, n.parentRid ?? '', n.displayName, encode(n)],
    );
  }
  async get(rid: string) {
    const row = await this.db.first<{ record: string }>('SELECT record FROM filesystem_nodes WHERE rid = $1', [rid]);
    return row && decode<NodeRecord>(row.record);
  }
  async children(parentRid: string | undefined) {
    const rows = await this.db.rows<{ record: string }>(
      'SELECT record FROM filesystem_nodes WHERE parent_rid = $1 ORDER BY display_name COLLATE "C", rid COLLATE "C"',
      [parentRid ?? ''],
    );
    return rows.map((r) => decode<NodeRecord>(r.record));
  }
  async all() {
    return (await this.db.rows<{ record: string }>('SELECT record FROM filesystem_nodes ORDER BY seq')).map((r) => decode<NodeRecord>(r.record));
  }
  async remove(rids: readonly string[]) {
    await this.db.query('DELETE FROM filesystem_nodes WHERE rid = ANY($1::text[])', [rids]);
  }
}
