// Helpers shared by the memory stores of issued credentials (access tokens, codes, refresh tokens): sweeping
// maps kept in expiry order, and indexing tokens by the grant that issued them.

/** Deletes the leading entries of an insertion-ordered map that expired; stops at the first live one. */
export function sweepOrdered<T extends { expiresAt: number }>(map: Map<string, T>, now: number, forget: (key: string, value: T) => void): number {
  let swept = 0;
  for (const [key, value] of map) {
    if (value.expiresAt > now) break; // everything after this one expires later
    forget(key, value);
    swept++;
  }
  return swept;
}

/** Deletes the oldest entries of an insertion-ordered map until fewer than `max` remain (room for one more). */
export function evictOldest<T>(map: Map<string, T>, max: number): void {
  while (map.size >= max) {
    const oldest = map.keys().next();
    if (oldest.done) return;
    map.delete(oldest.value);
  }
}

/** Token keys by grant id; a grant is dropped with its last token. */
export class GrantIndex {
  private grants = new Map<string, Set<string>>();

  add(grantId: string, token: string): void {
    let members = this.grants.get(grantId);
    if (!members) this.grants.set(grantId, (members = new Set()));
    members.add(token);
  }

  remove(grantId: string, token: string): void {
    const members = this.grants.get(grantId);
    members?.delete(token);
    if (members?.size === 0) this.grants.delete(grantId);
  }

  members(grantId: string): ReadonlySet<string> {
    return this.grants.get(grantId) ?? EMPTY;
  }

  /** Removes the grant and answers its tokens. */
  take(grantId: string): ReadonlySet<string> {
    const members = this.members(grantId);
    this.grants.delete(grantId);
    return members;
  }

  clear(): void {
    this.grants.clear();
  }
}

const EMPTY: ReadonlySet<string> = new Set();
