// Map-backed ontology objects: one Map per (ontology, object type) keyed by the primary key's text, in
// insertion order; list() hands out a cached array that is rebuilt only after a write to that type.
import type { EditOutcome, OntologyObjectRecord, OntologyObjectRepo, StoredEdit } from '../ontology-objects.js';

const SEP = '\u0000';
type Pairs = { ab: Map<string, Set<string>>; ba: Map<string, Set<string>> };

export class MemoryOntologyObjects implements OntologyObjectRepo {
  private types = new Map<string, Map<string, OntologyObjectRecord>>();
  private snapshots = new Map<string, readonly OntologyObjectRecord[]>();
  private links = new Map<string, Pairs>();
  /** Per (ontology, type, property): value text to positions in the type's snapshot; dropped with it. */
  private valueIndexes = new Map<string, Map<string, number[]>>();
  /** Per (ontology, type): key to position in the type's snapshot; dropped with it. */
  private keyPositions = new Map<string, Map<string, number>>();

  private table(ontologyRid: string, objectType: string): Map<string, OntologyObjectRecord> {
    const id = ontologyRid + SEP + objectType;
    let table = this.types.get(id);
    if (!table) this.types.set(id, (table = new Map()));
    return table;
  }

  private pairs(ontologyRid: string, linkId: string): Pairs {
    const id = ontologyRid + SEP + linkId;
    let pairs = this.links.get(id);
    if (!pairs) this.links.set(id, (pairs = { ab: new Map(), ba: new Map() }));
    return pairs;
  }

  async insertObjects(ontologyRid: string, objects: OntologyObjectRecord[]): Promise<OntologyObjectRecord[]> {
    const skipped: OntologyObjectRecord[] = [];
    for (const o of objects) {
      const table = this.table(ontologyRid, o.objectType);
      if (table.has(o.key)) skipped.push(o);
      else table.set(o.key, o);
      this.forget(ontologyRid + SEP + o.objectType);
    }
    return skipped;
  }

  async insertPairs(ontologyRid: string, linkId: string, pairs: Array<[string, string]>): Promise<void> {
    const p = this.pairs(ontologyRid, linkId);
    for (const [a, b] of pairs) addPair(p, a, b);
  }

  async get(ontologyRid: string, objectType: string, key: string): Promise<OntologyObjectRecord | undefined> {
    return this.types.get(ontologyRid + SEP + objectType)?.get(key);
  }

  async getMany(ontologyRid: string, objectType: string, keys: readonly string[]): Promise<OntologyObjectRecord[]> {
    const id = ontologyRid + SEP + objectType;
    const table = this.types.get(id);
    if (!table) return [];
    const found = [...new Set(keys)].map((key) => table.get(key)).filter((o): o is OntologyObjectRecord => o !== undefined);
    if (found.length < 2) return found;
    // list() order: positions from the snapshot, built once per write to the type (as the value indexes).
    const snapshot = this.snapshotOf(id);
    let positions = this.keyPositions.get(id);
    if (!positions) this.keyPositions.set(id, (positions = new Map(snapshot.map((o, i) => [o.key, i]))));
    const at = positions;
    return found.sort((a, b) => at.get(a.key)! - at.get(b.key)!);
  }

  async list(ontologyRid: string, objectType: string): Promise<readonly OntologyObjectRecord[]> {
    return this.snapshotOf(ontologyRid + SEP + objectType);
  }

  async countOf(ontologyRid: string, objectType: string): Promise<number> {
    return this.types.get(ontologyRid + SEP + objectType)?.size ?? 0;
  }

  async slice(ontologyRid: string, objectType: string, offset: number, limit: number): Promise<OntologyObjectRecord[]> {
    return this.snapshotOf(ontologyRid + SEP + objectType).slice(offset, offset + limit);
  }

  private snapshotOf(id: string): readonly OntologyObjectRecord[] {
    let snapshot = this.snapshots.get(id);
    if (!snapshot) this.snapshots.set(id, (snapshot = [...(this.types.get(id)?.values() ?? [])]));
    return snapshot;
  }

  async withValues(ontologyRid: string, objectType: string, property: string, values: ReadonlySet<string>): Promise<OntologyObjectRecord[]> {
    const snapshot = await this.list(ontologyRid, objectType);
    const id = ontologyRid + SEP + objectType + SEP + property;
    let index = this.valueIndexes.get(id);
    if (!index) {
      index = new Map();
      for (const [i, o] of snapshot.entries()) {
        const v = o.values[property];
        if (v === undefined) continue;
        const at = index.get(String(v));
        if (at) at.push(i);
        else index.set(String(v), [i]);
      }
      this.valueIndexes.set(id, index);
    }
    const positions = [...values].flatMap((v) => index.get(v) ?? []).sort((a, b) => a - b);
    return positions.map((i) => snapshot[i]!);
  }

  async paired(ontologyRid: string, linkId: string, side: 'a' | 'b', key: string): Promise<string[]> {
    const p = this.links.get(ontologyRid + SEP + linkId);
    return [...((side === 'a' ? p?.ab : p?.ba)?.get(key) ?? [])];
  }

  async applyEdits(ontologyRid: string, edits: StoredEdit[], options: { dryRun?: boolean } = {}): Promise<EditOutcome> {
    // Check every edit against the state the earlier edits leave (a create then a modify of the same object
    // is fine), without touching the tables; only then write.
    const staged = new Map<string, OntologyObjectRecord | null>();
    const current = (objectType: string, key: string) => {
      const id = objectType + SEP + key;
      return staged.has(id) ? staged.get(id) : this.types.get(ontologyRid + SEP + objectType)?.get(key);
    };
    for (const [editIndex, e] of edits.entries()) {
      if (!('objectType' in e)) continue; // pairs cannot fail
      const key = String(e.primaryKey);
      const before = current(e.objectType, key);
      const fail = (problem: 'exists' | 'missing'): EditOutcome => ({ ok: false, problem, objectType: e.objectType, primaryKey: e.primaryKey, editIndex });
      if (e.kind === 'create') {
        if (before) return fail('exists');
        staged.set(e.objectType + SEP + key, { objectType: e.objectType, primaryKey: e.primaryKey, key, values: e.values });
      } else if (!before) {
        return fail('missing');
      } else if (e.kind === 'modify') {
        staged.set(e.objectType + SEP + key, { ...before, values: merge(before.values, e.set) });
      } else {
        staged.set(e.objectType + SEP + key, null);
      }
    }
    if (options.dryRun) return { ok: true };
    for (const [id, record] of staged) {
      const [objectType, key] = id.split(SEP) as [string, string];
      const table = this.table(ontologyRid, objectType);
      if (record) table.set(key, record);
      else table.delete(key);
      this.forget(ontologyRid + SEP + objectType);
    }
    for (const e of edits) {
      if (e.kind === 'addPair') addPair(this.pairs(ontologyRid, e.linkId), e.a, e.b);
      else if (e.kind === 'removePair') removePair(this.pairs(ontologyRid, e.linkId), e.a, e.b);
    }
    return { ok: true };
  }

  async putObject(ontologyRid: string, object: OntologyObjectRecord): Promise<{ created: boolean }> {
    const table = this.table(ontologyRid, object.objectType);
    const created = !table.has(object.key);
    table.set(object.key, object); // Map.set on a present key keeps its position
    this.forget(ontologyRid + SEP + object.objectType);
    return { created };
  }

  async deleteObject(
    ontologyRid: string,
    objectType: string,
    key: string,
    pairSides: ReadonlyArray<{ linkId: string; side: 'a' | 'b' }>,
  ): Promise<OntologyObjectRecord | undefined> {
    const table = this.types.get(ontologyRid + SEP + objectType);
    const found = table?.get(key);
    if (!found) return undefined;
    table!.delete(key);
    this.forget(ontologyRid + SEP + objectType);
    for (const { linkId, side } of pairSides) {
      const p = this.links.get(ontologyRid + SEP + linkId);
      if (!p) continue;
      for (const other of [...((side === 'a' ? p.ab : p.ba).get(key) ?? [])]) {
        if (side === 'a') removePair(p, key, other);
        else removePair(p, other, key);
      }
    }
    return found;
  }

  async pairsOf(ontologyRid: string, linkId: string): Promise<Array<[string, string]>> {
    const p = this.links.get(ontologyRid + SEP + linkId);
    const out: Array<[string, string]> = [];
    for (const [a, bs] of p?.ab ?? []) for (const b of bs) out.push([a, b]);
    return out;
  }

  /** Drops what is derived from a type's objects: its snapshot and its value indexes. */
  private forget(typeId: string): void {
    if (!this.snapshots.delete(typeId)) return; // nothing derived since the last write
    this.keyPositions.delete(typeId);
    for (const id of this.valueIndexes.keys()) if (id.startsWith(typeId + SEP)) this.valueIndexes.delete(id);
  }

  async count(): Promise<number> {
    let n = 0;
    for (const table of this.types.values()) n += table.size;
    return n;
  }

  clear(): void {
    this.types.clear();
    this.snapshots.clear();
    this.links.clear();
    this.valueIndexes.clear();
    this.keyPositions.clear();
  }
}

function merge(values: Readonly<Record<string, unknown>>, set: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const [k, v] of Object.entries(set)) {
    if (v === null || v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

function addPair(p: Pairs, a: string, b: string): void {
  let bs = p.ab.get(a);
  if (!bs) p.ab.set(a, (bs = new Set()));
  bs.add(b);
  let as = p.ba.get(b);
  if (!as) p.ba.set(b, (as = new Set()));
  as.add(a);
}

function removePair(p: Pairs, a: string, b: string): void {
  p.ab.get(a)?.delete(b);
  p.ba.get(b)?.delete(a);
}
