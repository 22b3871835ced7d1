import type { UserRecord, UserRepo } from '../users.js';
import { StoreFull } from '../capacity.js';

export class MemoryUsers implements UserRepo {
  private byName = new Map<string, UserRecord>();
  private byKey = new Map<string, UserRecord>();
  /** Automatic service principals, keyed by client id: a namespace of their own. */
  private principals = new Map<string, UserRecord>();
  /** Username of the seeded service user each client stands for (the first one inserted wins): a lookup, not a scan. */
  private serviceUsers = new Map<string, string>();
  /** Principals made under a cap (open-mode clients): nothing deletes one but clear(), so a counter stays exact. */
  private capped = 0;

  async insert(user: UserRecord): Promise<boolean> {
    if (this.byName.has(user.username)) return false;
    this.byName.set(user.username, user);
    this.byKey.set(user.id, user);
    if (user.principalType === 'service' && user.oauthClientId !== undefined && !this.serviceUsers.has(user.oauthClientId)) {
      this.serviceUsers.set(user.oauthClientId, user.username);
    }
    return true;
  }

  async upsert(user: UserRecord): Promise<boolean> {
    const old = this.byName.get(user.username);
    if (!old) return this.insert(user);
    // Same username, same id: tokens issued to the user stay theirs.
    const updated = { ...user, id: old.id };
    this.byName.set(user.username, updated);
    this.byKey.set(old.id, updated);
    if (old.oauthClientId !== undefined && this.serviceUsers.get(old.oauthClientId) === user.username) this.serviceUsers.delete(old.oauthClientId);
    if (updated.principalType === 'service' && updated.oauthClientId !== undefined && !this.serviceUsers.has(updated.oauthClientId)) {
      this.serviceUsers.set(updated.oauthClientId, updated.username);
    }
    return false;
  }

  async byId(id: string): Promise<UserRecord | undefined> {
    return this.byKey.get(id);
  }

  /** byId without a promise, for this backend's own one-step reads. */
  byIdNow(id: string): UserRecord | undefined {
    return this.byKey.get(id);
  }

  async byUsername(username: string): Promise<UserRecord | undefined> {
    return this.byName.get(username);
  }

  async listActiveHumans(): Promise<UserRecord[]> {
    return [...this.byName.values()].filter((u) => u.active && u.principalType === 'human');
  }

  async setActive(username: string, active: boolean): Promise<UserRecord | undefined> {
    const user = this.byName.get(username);
    if (!user) return undefined;
    const updated = { ...user, active };
    this.byName.set(username, updated);
    this.byKey.set(user.id, updated);
    return updated;
  }

  /** The principal tokens of `clientId` act as (the seeded service user first), without making one. */
  principalOf(clientId: string): UserRecord | undefined {
    const username = this.serviceUsers.get(clientId);
    return (username === undefined ? undefined : this.byName.get(username)) ?? this.principals.get(clientId);
  }

  async servicePrincipalFor(clientId: string, create: () => UserRecord, max?: number): Promise<UserRecord> {
    const username = this.serviceUsers.get(clientId);
    const seeded = username === undefined ? undefined : this.byName.get(username);
    if (seeded) return seeded;
    let principal = this.principals.get(clientId);
    if (!principal) {
      if (max !== undefined && this.capped >= max) throw new StoreFull('service principals', max);
      principal = create();
      if (max !== undefined) this.capped++;
      this.principals.set(clientId, principal);
      this.byKey.set(principal.id, principal);
    }
    return principal;
  }

  async list(): Promise<UserRecord[]> {
    return [...this.byName.values()];
  }

  async listPage(offset: number, limit: number, withInactive: boolean): Promise<UserRecord[]> {
    const out: UserRecord[] = [];
    let skipped = 0;
    for (const u of this.byName.values()) {
      if (!withInactive && !u.active) continue;
      if (skipped++ < offset) continue;
      out.push(u);
      if (out.length > limit) break;
    }
    return out;
  }

  async count(): Promise<number> {
    return this.byName.size;
  }

  clear(): void {
    this.byName.clear();
    this.byKey.clear();
    this.principals.clear();
    this.serviceUsers.clear();
    this.capped = 0;
  }
}
