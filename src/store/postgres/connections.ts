import type { ConnectionRecord, ConnectionRepo } from '../connections.js';
import type { Db } from './db.js';
import { decode, encode } from './records.js';

export class PgConnections implements ConnectionRepo {
  constructor(private readonly db: Db) {}

  async insert(connection: ConnectionRecord): Promise<boolean> {
    const res = await this.db.query('INSERT INTO connections (rid, record) VALUES ($1, $2) ON CONFLICT DO NOTHING', [connection.rid, encode(connection)]);
    return res.rowCount === 1;
  }

  /** Creates or replaces the connection of this rid (control routes); true when created. A replaced one keeps its place. */
  async upsert(connection: ConnectionRecord): Promise<boolean> {
    const row = await this.db.first<{ created: boolean }>(
      'INSERT INTO connections (rid, record) VALUES ($1, $2) ON CONFLICT (rid) DO UPDATE SET record = EXCLUDED.record RETURNING (xmax = 0) AS created',
      [connection.rid, encode(connection)],
    );
    return row!.created;
  }

  /** Insertion order (records carry secret values: callers show names only). */
  async list(): Promise<ConnectionRecord[]> {
    return (await this.db.rows<{ record: string }>('SELECT record FROM connections ORDER BY seq')).map((r) => decode<ConnectionRecord>(r.record));
  }

  async byRid(rid: string): Promise<ConnectionRecord | undefined> {
    const row = await this.db.first<{ record: string }>('SELECT record FROM connections WHERE rid = $1', [rid]);
    return row && decode(row.record);
  }

  async mergeSecrets(rid: string, secrets: Record<string, string>): Promise<boolean> {
    // Read, merge and write under the row's lock: two merges at once keep each other's names.
    return this.db.transaction(async (q) => {
      const row = (await q.query<{ record: string }>('SELECT record FROM connections WHERE rid = $1 FOR UPDATE', [rid])).rows[0];
      if (!row) return false;
      const connection = decode<ConnectionRecord>(row.record);
      const merged = { ...connection, secrets: { ...connection.secrets, ...secrets } };
      await q.query('UPDATE connections SET record = $2 WHERE rid = $1', [rid, encode(merged)]);
      return true;
    });
  }

  async count(): Promise<number> {
    return (await this.db.first<{ n: number }>('SELECT count(*)::int AS n FROM connections'))!.n;
  }
}
