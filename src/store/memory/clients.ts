import type { ClientRecord, ClientRepo } from '../clients.js';

export class MemoryClients implements ClientRepo {
  private clients = new Map<string, ClientRecord>();

  async insert(client: ClientRecord): Promise<boolean> {
    if (this.clients.has(client.clientId)) return false;
    this.clients.set(client.clientId, client);
    return true;
  }

  async upsert(client: ClientRecord): Promise<boolean> {
    const created = !this.clients.has(client.clientId);
    this.clients.set(client.clientId, client);
    return created;
  }

  /** Always the current record: this map is the truth. */
  remembered(clientId: string): ClientRecord | undefined {
    return this.clients.get(clientId);
  }

  async byId(clientId: string): Promise<ClientRecord | undefined> {
    return this.clients.get(clientId);
  }

  async list(): Promise<ClientRecord[]> {
    return [...this.clients.values()];
  }

  async count(): Promise<number> {
    return this.clients.size;
  }

  clear(): void {
    this.clients.clear();
  }
}
