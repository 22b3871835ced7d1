import type { AuthorizationCodeRecord, AuthorizeRequestRecord, ConsumeCodeResult, OAuthRepo, RefreshTokenRecord, RotateResult } from '../oauth.js';
import { GrantIndex, evictOldest, sweepOrdered } from './ordered-expiry.js';
import { StoreFull } from '../capacity.js';

export class MemoryOAuth implements OAuthRepo {
  private requests = new Map<string, AuthorizeRequestRecord>();
  private codes = new Map<string, AuthorizationCodeRecord>();
  private refresh = new Map<string, RefreshTokenRecord>();
  /** Refresh tokens by grant: a grant's family. */
  private families = new GrantIndex();
  private revoked = new Map<string, { expiresAt: number }>();
  /** Retired refresh tokens in the order they were retired: the first is forgotten when the cap is reached. */
  private retiredOrder = new Set<string>();

  async saveAuthorizeRequest(request: AuthorizeRequestRecord, max = Infinity): Promise<void> {
    evictOldest(this.requests, max);
    this.requests.set(request.id, request);
  }

  async findAuthorizeRequest(id: string): Promise<AuthorizeRequestRecord | undefined> {
    return this.requests.get(id);
  }

  async takeAuthorizeRequest(id: string): Promise<AuthorizeRequestRecord | undefined> {
    const request = this.requests.get(id);
    this.requests.delete(id);
    return request;
  }

  async insertCode(code: AuthorizationCodeRecord, max = Infinity): Promise<void> {
    evictOldest(this.codes, max);
    this.codes.set(code.code, code);
  }

  async consumeCode(code: string): Promise<ConsumeCodeResult> {
    const record = this.codes.get(code);
    if (!record) return { outcome: 'unknown' };
    if (record.consumed) return { outcome: 'replayed', code: record };
    record.consumed = true; // in place: the map keeps its expiry order
    return { outcome: 'fresh', code: record };
  }

  async insertRefreshToken(token: RefreshTokenRecord, max = Infinity): Promise<void> {
    if (this.refresh.size >= max && !this.forgetOldestRetired()) throw new StoreFull('refresh tokens', max);
    this.store(token);
  }

  private store(token: RefreshTokenRecord): void {
    this.refresh.set(token.token, token);
    this.families.add(token.grantId, token.token);
    if (token.retired) this.retiredOrder.add(token.token);
  }

  private retire(record: RefreshTokenRecord): void {
    record.retired = true; // in place: the map keeps its expiry order
    this.retiredOrder.add(record.token);
  }

  /** Forgets the retired token retired first; false when none is retired. */
  private forgetOldestRetired(): boolean {
    const oldest = this.retiredOrder.values().next();
    if (oldest.done) return false;
    this.forgetRefresh(oldest.value);
    return true;
  }

  private forgetRefresh(token: string): void {
    const record = this.refresh.get(token);
    this.refresh.delete(token);
    this.retiredOrder.delete(token);
    if (record) this.families.remove(record.grantId, token);
  }

  async findRefreshToken(token: string): Promise<RefreshTokenRecord | undefined> {
    return this.refresh.get(token);
  }

  async rotateRefreshToken(current: string, next: RefreshTokenRecord, max = Infinity): Promise<RotateResult> {
    const record = this.refresh.get(current);
    if (!record) return { outcome: 'unknown' };
    if (record.retired) return { outcome: 'reused', grantId: record.grantId };
    this.retire(record);
    if (this.refresh.size >= max) this.forgetOldestRetired(); // there is one: `current`
    this.store(next);
    return { outcome: 'rotated' };
  }

  async revokeGrant(grantId: string, rememberUntil: number, max = Infinity): Promise<void> {
    // A grant revoked twice keeps its first mark, so the map stays in expiry order.
    if (!this.revoked.has(grantId)) {
      evictOldest(this.revoked, max);
      this.revoked.set(grantId, { expiresAt: rememberUntil });
    }
    for (const token of this.families.members(grantId)) {
      const record = this.refresh.get(token);
      if (record) this.retire(record);
    }
  }

  async liveGrantsOfUser(userId: string): Promise<string[]> {
    const grants = new Set<string>();
    for (const record of this.refresh.values()) if (record.userId === userId && !record.retired) grants.add(record.grantId);
    return [...grants];
  }

  async isGrantRevoked(grantId: string): Promise<boolean> {
    return this.revoked.has(grantId);
  }

  async sweepExpired(now: number): Promise<number> {
    return (
      sweepOrdered(this.requests, now, (key) => this.requests.delete(key)) +
      sweepOrdered(this.codes, now, (key) => this.codes.delete(key)) +
      sweepOrdered(this.refresh, now, (key) => this.forgetRefresh(key)) +
      sweepOrdered(this.revoked, now, (key) => this.revoked.delete(key))
    );
  }

  async counts() {
    return { authorizeRequests: this.requests.size, codes: this.codes.size, refreshTokens: this.refresh.size, revokedGrants: this.revoked.size };
  }

  clear(): void {
    this.requests.clear();
    this.codes.clear();
    this.refresh.clear();
    this.families.clear();
    this.revoked.clear();
    this.retiredOrder.clear();
  }
}
