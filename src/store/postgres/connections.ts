import type { ConnectionRecord, ConnectionRepo } from '../connections.js';
import { decode, encode, type Db } from './db.js';

export class PgConnections implements ConnectionRepo {
  constructor(private readonly db: Db) {}

  async insert(connection: ConnectionRecord): Promise<boolean> {
    const res = await this.db.query('INSERT INTO connections (rid, record) VALUES ($1, $2) ON CONFLICT DO NOTHING', [connection.rid, encode(connection)]);
    return res.rowCount === 1;
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
