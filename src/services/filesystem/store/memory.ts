// The in-memory tree: the reference behaviour the PostgreSQL version matches.
import type { NodeRecord, TreeRepo } from './records.js';

const byNameThenRid = (a: NodeRecord, b: NodeRecord) =>
  a.displayName < b.displayName ? -1 : a.displayName > b.displayName ? 1 : a.rid < b.rid ? -1 : a.rid > b.rid ? 1 : 0;

export class MemoryTree implements TreeRepo {
  private readonly nodes = new Map<string, NodeRecord>();
  /** parent rid ('' for spaces) -> child rids: children without a scan. */
  private readonly kids = new Map<string, Set<string>>();

  async put(node: NodeRecord) {
    const old = this.nodes.get(node.rid);
    if (old) this.kids.get(old.parentRid ?? '')?.delete(old.rid);
    this.nodes.set(node.rid, structuredClone(node));
    const key = node.parentRid ?? '';
    let set = this.kids.get(key);
    if (!set) this.kids.set(key, (set = new Set()));
    set.add(node.rid);
  }
  async get(rid: string) {
    const n = this.nodes.get(rid);
    return n && structuredClone(n);
  }
  async children(parentRid: string | undefined) {
    const rids = [...(this.kids.get(parentRid ?? '') ?? [])];
    return rids.map((r) => structuredClone(this.nodes.get(r)!)).sort(byNameThenRid);
  }
  async all() {
    return [...this.nodes.values()].map((n) => structuredClone(n));
  }
  async remove(rids: readonly string[]) {
    for (const rid of rids) {
      const n = this.nodes.get(rid);
      if (!n) continue;
      this.nodes.delete(rid);
      this.kids.get(n.parentRid ?? '')?.delete(rid);
    }
  }
  clear() {
    this.nodes.clear();
    this.kids.clear();
  }
}
