// The in-memory directory: the reference behaviour the PostgreSQL version matches.
import type { DirectoryRepo, GroupRecord, MarkingCategoryRecord, MarkingRecord, MemberRecord } from './records.js';

const byNameThenId = (a: GroupRecord, b: GroupRecord) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Members of a keyed set of containers, kept in the order added. */
class Edges {
  private readonly of = new Map<string, Map<string, MemberRecord>>();
  /** principal -> containers holding it: membership lookups without a scan. */
  private readonly within = new Map<string, Set<string>>();
  add(container: string, members: readonly MemberRecord[]) {
    let set = this.of.get(container);
    if (!set) this.of.set(container, (set = new Map()));
    for (const m of members) {
      if (set.has(m.principalId)) continue;
      set.set(m.principalId, { principalId: m.principalId, principalType: m.principalType });
      let holders = this.within.get(m.principalId);
      if (!holders) this.within.set(m.principalId, (holders = new Set()));
      holders.add(container);
    }
  }
  remove(container: string, ids: readonly string[]) {
    const set = this.of.get(container);
    if (set) for (const id of ids) if (set.delete(id)) this.within.get(id)?.delete(container);
  }
  /** The containers holding any of the principals directly, each once, sorted. */
  holding(ids: readonly string[]): string[] {
    const out = new Set<string>();
    for (const id of ids) for (const c of this.within.get(id) ?? []) out.add(c);
    return [...out].sort();
  }
  list(container: string): MemberRecord[] {
    return [...(this.of.get(container)?.values() ?? [])].map((m) => ({ ...m }));
  }
  /** Every edge; plain literals (object rest and spread cost a runtime call each in V8: 10,000 edges took 160 ms). */
  all(): Array<MemberRecord & { groupId: string }> {
    const out: Array<MemberRecord & { groupId: string }> = [];
    for (const [container, set] of this.of)
      for (const m of set.values()) out.push({ principalId: m.principalId, principalType: m.principalType, groupId: container });
    return out;
  }
  drop(container: string) {
    for (const id of this.of.get(container)?.keys() ?? []) this.within.get(id)?.delete(container);
    this.of.delete(container);
  }
  forget(principalId: string) {
    for (const c of this.within.get(principalId) ?? []) this.of.get(c)?.delete(principalId);
    this.within.delete(principalId);
  }
  clear() {
    this.of.clear();
    this.within.clear();
  }
}

export class MemoryDirectory implements DirectoryRepo {
  private readonly groupsById = new Map<string, GroupRecord>();
  private readonly groupMemberEdges = new Edges();
  private readonly categoriesById = new Map<string, MarkingCategoryRecord>();
  private readonly markingsById = new Map<string, MarkingRecord>();
  private readonly markingMemberEdges = new Edges();
  private readonly settings = new Map<string, unknown>();

  async putGroup(group: GroupRecord) {
    this.groupsById.set(group.id, structuredClone(group));
  }
  async group(id: string) {
    const g = this.groupsById.get(id);
    return g && structuredClone(g);
  }
  async groupByName(name: string) {
    for (const g of this.groupsById.values()) if (g.name === name) return structuredClone(g);
    return undefined;
  }
  async groups() {
    return [...this.groupsById.values()].sort(byNameThenId).map((g) => structuredClone(g));
  }
  async deleteGroup(id: string) {
    if (!this.groupsById.delete(id)) return false;
    this.groupMemberEdges.drop(id);
    this.groupMemberEdges.forget(id);
    this.markingMemberEdges.forget(id);
    return true;
  }
  async addGroupMembers(groupId: string, members: readonly MemberRecord[]) {
    this.groupMemberEdges.add(groupId, members);
  }
  async removeGroupMembers(groupId: string, principalIds: readonly string[]) {
    this.groupMemberEdges.remove(groupId, principalIds);
  }
  async groupMembers(groupId: string) {
    return this.groupMemberEdges.list(groupId);
  }
  async allGroupMembers() {
    return this.groupMemberEdges.all();
  }
  async groupsHolding(principalIds: readonly string[]) {
    return this.groupMemberEdges.holding(principalIds);
  }
  async forgetPrincipal(principalId: string) {
    this.groupMemberEdges.forget(principalId);
    this.markingMemberEdges.forget(principalId);
  }
  async putCategory(category: MarkingCategoryRecord) {
    this.categoriesById.set(category.id, { ...category });
  }
  async category(id: string) {
    const c = this.categoriesById.get(id);
    return c && { ...c };
  }
  async categories() {
    return [...this.categoriesById.values()].sort(byId).map((c) => ({ ...c }));
  }
  async putMarking(marking: MarkingRecord) {
    this.markingsById.set(marking.id, { ...marking });
  }
  async marking(id: string) {
    const m = this.markingsById.get(id);
    return m && { ...m };
  }
  async markings() {
    return [...this.markingsById.values()].sort(byId).map((m) => ({ ...m }));
  }
  async addMarkingMembers(markingId: string, members: readonly MemberRecord[]) {
    this.markingMemberEdges.add(markingId, members);
  }
  async removeMarkingMembers(markingId: string, principalIds: readonly string[]) {
    this.markingMemberEdges.remove(markingId, principalIds);
  }
  async markingMembers(markingId: string) {
    return this.markingMemberEdges.list(markingId);
  }
  async markingsOfPrincipals(principalIds: readonly string[]) {
    return this.markingMemberEdges.holding(principalIds);
  }
  async setting(key: string) {
    return structuredClone(this.settings.get(key));
  }
  async putSetting(key: string, value: unknown) {
    this.settings.set(key, structuredClone(value));
  }
  clear() {
    this.groupsById.clear();
    this.groupMemberEdges.clear();
    this.categoriesById.clear();
    this.markingsById.clear();
    this.markingMemberEdges.clear();
    this.settings.clear();
  }
}
