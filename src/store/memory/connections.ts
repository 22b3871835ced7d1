import type { ConnectionRecord, ConnectionRepo } from '../connections.js';

export class MemoryConnections implements ConnectionRepo {
  private connections = new Map<string, ConnectionRecord>();

  async insert(connection: ConnectionRecord): Promise<boolean> {
    if (this.connections.has(connection.rid)) return false;
    this.connections.set(connection.rid, connection);
    return true;
  }

  async upsert(connection: ConnectionRecord): Promise<boolean> {
    const created = !this.connections.has(connection.rid);
    this.connections.set(connection.rid, connection);
    return created;
  }

  async byRid(rid: string): Promise<ConnectionRecord | undefined> {
    return this.connections.get(rid);
  }

  async mergeSecrets(rid: string, secrets: Record<string, string>): Promise<boolean> {
    const connection = this.connections.get(rid);
    if (!connection) return false;
    this.connections.set(rid, { ...connection, secrets: { ...connection.secrets, ...secrets } });
    return true;
  }

  async list(): Promise<ConnectionRecord[]> {
    return [...this.connections.values()];
  }

  async count(): Promise<number> {
    return this.connections.size;
  }

  clear(): void {
    this.connections.clear();
  }
}
