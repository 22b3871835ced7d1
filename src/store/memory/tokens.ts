import type { AccessTokenRecord, TokenRepo } from '../tokens.js';
import type { ClientRecord } from '../clients.js';
import type { UserRecord } from '../users.js';
import type { MemoryUsers } from './users.js';
import type { MemoryClients } from './clients.js';
import { GrantIndex, sweepOrdered } from './ordered-expiry.js';
import { StoreFull } from '../capacity.js';

export class MemoryTokens implements TokenRepo {
  /** Insertion order is expiry order (one fixed lifetime), which the sweep relies on. */
  private access = new Map<string, AccessTokenRecord>();
  private grants = new GrantIndex();

  constructor(
    private readonly users: MemoryUsers,
    private readonly clients: MemoryClients,
  ) {}

  async findAccessWithPrincipal(token: string): Promise<{ token: AccessTokenRecord; principal: UserRecord | undefined } | undefined> {
    const record = this.access.get(token);
    return record && { token: record, principal: this.users.byIdNow(record.principalId) };
  }

  async insertAccessForClientPrincipal(
    clientId: string,
    token: Omit<AccessTokenRecord, 'principalId'>,
    max = Infinity,
    asOf?: ClientRecord,
  ): Promise<string | undefined> {
    const principal = this.users.principalOf(clientId);
    if (!principal?.active || this.access.size >= max) return undefined;
    // The stored record is replaced (never changed in place) by an update: the same object means unchanged.
    if (asOf !== undefined && this.clients.remembered(clientId) !== asOf) return undefined;
    // Written out, keys in the order every token record has: one object shape for the whole Map (a hot path).
    const { token: value, clientId: owner, scopes, expiresAt, grantId } = token;
    this.keep({ token: value, principalId: principal.id, clientId: owner, scopes, expiresAt, grantId });
    return principal.username;
  }

  async insertAccess(token: AccessTokenRecord, max = Infinity): Promise<void> {
    if (this.access.size >= max) throw new StoreFull('access tokens', max);
    this.keep(token);
  }

  private keep(token: AccessTokenRecord): void {
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
