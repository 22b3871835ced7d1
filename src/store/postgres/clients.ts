import type { ClientRecord, ClientRepo } from '../clients.js';
import type { Db } from './db.js';
import { decode, encode } from './records.js';

/** Clients remembered at most (a registered client is remembered when read; past this, the memory starts over). */
const REMEMBERED_MAX = 1024;

export class PgClients implements ClientRepo {
  private readonly seen = new Map<string, ClientRecord>();

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
    const client = row && decode<ClientRecord>(row.record);
    this.remember(clientId, client);
    return client;
  }

  remembered(clientId: string): ClientRecord | undefined {
    return this.seen.get(clientId);
  }

  private remember(clientId: string, client: ClientRecord | undefined): void {
    if (!client) {
      this.seen.delete(clientId);
      return;
    }
    if (this.seen.size >= REMEMBERED_MAX && !this.seen.has(clientId)) this.seen.clear();
    this.seen.set(clientId, client);
  }

  async count(): Promise<number> {
    return (await this.db.first<{ n: number }>('SELECT count(*)::int AS n FROM clients'))!.n;
  }
}
