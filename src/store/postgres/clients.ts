import type { ClientRecord, ClientRepo } from '../clients.js';
import { decode, encode, type Db } from './db.js';

export class PgClients implements ClientRepo {
  constructor(private readonly db: Db) {}

  async insert(client: ClientRecord): Promise<boolean> {
    const res = await this.db.query('INSERT INTO clients (client_id, record) VALUES ($1, $2) ON CONFLICT DO NOTHING', [client.clientId, encode(client)]);
    return res.rowCount === 1;
  }

  /** Creates or replaces the client of this id (control routes); true when created. A replaced one keeps its place. */
  async upsert(client: ClientRecord): Promise<boolean> {
    const row = await this.db.first<{ created: boolean }>(
      'INSERT INTO clients (client_id, record) VALUES ($1, $2) ON CONFLICT (client_id) DO UPDATE SET record = EXCLUDED.record RETURNING (xmax = 0) AS created',
      [client.clientId, encode(client)],
    );
    return row!.created;
  }

  /** Seed order. */
  async list(): Promise<ClientRecord[]> {
    return (await this.db.rows<{ record: string }>('SELECT record FROM clients ORDER BY seq')).map((r) => decode<ClientRecord>(r.record));
  }

  async byId(clientId: string): Promise<ClientRecord | undefined> {
    const row = await this.db.first<{ record: string }>('SELECT record FROM clients WHERE client_id = $1', [clientId]);
    return row && decode<ClientRecord>(row.record);
  }

  async count(): Promise<number> {
    return (await this.db.first<{ n: number }>('SELECT count(*)::int AS n FROM clients'))!.n;
  }
}
