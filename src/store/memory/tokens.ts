import type { AccessTokenRecord, TokenRepo } from '../tokens.js';

export class MemoryTokens implements TokenRepo {
  /** Insertion order is expiry order (one fixed lifetime), which the sweep relies on. */
  private access = new Map<string, AccessTokenRecord>();
  private grants = new Map<string, Set<string>>();

  async insertAccess(token: AccessTokenRecord): Promise<void> {
    this.access.set(token.token, token);
    if (token.grantId) {
      let members = this.grants.get(token.grantId);
      if (!members) this.grants.set(token.grantId, (members = new Set()));
      members.add(token.token);
    }
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
    const members = this.grants.get(grantId);
    if (!members) return 0;
    this.grants.delete(grantId);
    for (const token of members) this.access.delete(token);
    return members.size;
  }

  async sweepExpired(now: number): Promise<number> {
    let swept = 0;
    for (const record of this.access.values()) {
      if (record.expiresAt > now) break; // everything after this one expires later
      this.forget(record);
      swept++;
    }
    return swept;
  }

  async countAccess(): Promise<number> {
    return this.access.size;
  }

  private forget(record: AccessTokenRecord): void {
    this.access.delete(record.token);
    if (!record.grantId) return;
    const members = this.grants.get(record.grantId);
    members?.delete(record.token);
    if (members?.size === 0) this.grants.delete(record.grantId);
  }

  clear(): void {
    this.access.clear();
    this.grants.clear();
  }
}
