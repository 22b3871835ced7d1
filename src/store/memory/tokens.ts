import type { AccessTokenRecord, TokenRepo } from '../tokens.js';
import { GrantIndex, sweepOrdered } from './ordered-expiry.js';
import { StoreFull } from '../capacity.js';

export class MemoryTokens implements TokenRepo {
  /** Insertion order is expiry order (one fixed lifetime), which the sweep relies on. */
  private access = new Map<string, AccessTokenRecord>();
  private grants = new GrantIndex();

  async insertAccess(token: AccessTokenRecord, max = Infinity): Promise<void> {
    if (this.access.size >= max) throw new StoreFull('access tokens', max);
    this.access.set(token.token, token);
    if (token.grantId) this.grants.add(token.grantId, token.token);
  }

  async findAccess(token: string): Promise<AccessTokenRecord | undefined> {
    return this.access.get(token);
  }

  async revokeAccess(token: string): Promise<boolean> {
    const record = this.access.get(token);
    if (!record) return false;
    this.forget(record);
    return true;
  }

  async revokeGrant(grantId: string): Promise<number> {
    const members = this.grants.take(grantId);
    for (const token of members) this.access.delete(token);
    return members.size;
  }

  async revokePrincipal(principalId: string): Promise<number> {
    const mine = [...this.access.values()].filter((r) => r.principalId === principalId);
    for (const record of mine) this.forget(record);
    return mine.length;
  }

  async sweepExpired(now: number): Promise<number> {
    return sweepOrdered(this.access, now, (_, record) => this.forget(record));
  }

  async listAccess(limit: number): Promise<AccessTokenRecord[]> {
    // Insertion order is issue order: the newest are at the end.
    const all = [...this.access.values()];
    return all.slice(Math.max(0, all.length - limit)).reverse();
  }

  async countAccess(): Promise<number> {
    return this.access.size;
  }

  private forget(record: AccessTokenRecord): void {
    this.access.delete(record.token);
    if (record.grantId) this.grants.remove(record.grantId, record.token);
  }

  clear(): void {
    this.access.clear();
    this.grants.clear();
  }
}
