// Which keyed sets hold each object (docs/live-ontology.md): the index keyed-run.ts reads and each set keeps
// current as its members change. Generic over the set, so that it stands below the sets that use it.

/** Per object (its member id), the keyed sets it is a member of; the sets keep it current. */
export class Holders<Watch> {
  private readonly byObject = new Map<string, Set<Watch>>();

  add(id: string, watch: Watch): void {
    let watches = this.byObject.get(id);
    if (!watches) this.byObject.set(id, (watches = new Set()));
    watches.add(watch);
  }

  delete(id: string, watch: Watch): void {
    const watches = this.byObject.get(id);
    if (!watches?.delete(watch)) return;
    if (watches.size === 0) this.byObject.delete(id);
  }

  of(id: string): Iterable<Watch> {
    return this.byObject.get(id) ?? [];
  }
}
