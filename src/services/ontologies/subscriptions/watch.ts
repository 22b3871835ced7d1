// One watched object set (docs/live-ontology.md): the set's members as last seen, and what changed since. Every
// subscription to the same set (by its canonical JSON) in this process shares one watch, so a change costs one
// evaluation per distinct set, not one per subscriber. Membership is decided by the object-set evaluator the
// load routes use, so filters, links and set operations mean here what they mean there.
import type { OntologyObjectRecord, OntologyRecord, Store } from '../../../store/store.js';
import type { ObjectTypeDef } from '../../../store/ontology-model.js';
import { evaluateObjectSet } from '../object-sets/evaluate.js';
import { compileWhere, equalityOf, type Predicate } from '../object-reads/where.js';
import type { Holders } from './holders.js';
import { propertiesNotFound } from '../errors.js';
import type { Changed } from './change-feed.js';

/**
 * The changed objects one pump run reads, each once for every watch of the run: a hundred sets over one type
 * cost one read of an edited object, not a hundred (on PostgreSQL, one query instead of a hundred).
 */
export class RunReads {
  private readonly objects = new Map<string, Promise<OntologyObjectRecord | undefined>>();
  /** Per object type, the run's changed objects of that type, read together (the keys set is the run's). */
  private readonly batches = new Map<string, { keys: ReadonlySet<string>; read: Promise<ChangedObject[]> }>();

  constructor(
    private readonly store: Store,
    private readonly ontologyRid: string,
  ) {}

  get(objectType: string, key: string): Promise<OntologyObjectRecord | undefined> {
    const id = `${objectType}\u0000${key}`;
    let found = this.objects.get(id);
    if (!found) this.objects.set(id, (found = this.store.ontologyObjects.get(this.ontologyRid, objectType, key)));
    return found;
  }

  /**
   * These objects of one type as they are now, read once per run for every set: a set then decides on them
   * without waiting (one await per key per set was a fifth of a run's time at 100 sets; docs/live-ontology.md).
   */
  changedOf(objectType: string, keys: ReadonlySet<string>): Promise<ChangedObject[]> {
    const batch = this.batches.get(objectType);
    if (batch?.keys === keys) return batch.read;
    const read = Promise.all([...keys].map(async (key) => ({ key, id: `${objectType}\u0000${key}`, record: await this.get(objectType, key) })));
    this.batches.set(objectType, { keys, read });
    return read;
  }
}

/** A changed object of a run: its key, its member id, and its record now (undefined once deleted). */
export interface ChangedObject {
  key: string;
  id: string;
  record: OntologyObjectRecord | undefined;
}

export interface MemberChange {
  state: 'ADDED_OR_UPDATED' | 'REMOVED';
  record: OntologyObjectRecord;
}

interface Member {
  record: OntologyObjectRecord;
}

const identity = (o: OntologyObjectRecord) => `${o.objectType}\u0000${o.key}`;
/**
 * JSON of a record's values, computed when first compared and kept with the record, so the sets of one run
 * share it (a store may hand out a fresh record on every read; a stored record is replaced, never changed).
 */
const valuesJson = new WeakMap<OntologyObjectRecord, string>();
const jsonOf = (m: Member): string => {
  let json = valuesJson.get(m.record);
  if (json === undefined) valuesJson.set(m.record, (json = JSON.stringify(m.record.values)));
  return json;
};

export class SetWatch {
  private members = new Map<string, Member>();
  /** The object types the set reads; undefined when it may read any (links, static sets). */
  readonly types: ReadonlySet<string> | undefined;
  /** The where clauses when the set is filters over its base type's base set (read by key on a change). */
  private readonly wheres: unknown[] | undefined;
  /** The compiled clauses and the type definition they were compiled for (a reset may bring another). */
  private compiled: { type: ObjectTypeDef; predicates: Predicate[]; equality: ReturnType<typeof equalityOf> } | undefined;

  constructor(
    readonly key: string,
    readonly objectSet: unknown,
    /** The object type a refresh message names: the set's base type. */
    readonly objectType: string,
    /** Where a keyed set records its members, for the run to find the sets an object was in (keyed-run.ts). */
    private holders?: Holders<SetWatch>,
  ) {
    this.types = typesRead(objectSet);
    this.wheres = filterChain(objectSet, objectType);
  }

  /** Whether a change to these objects may move this set. */
  touchedBy(changed: Changed): boolean {
    if (changed === undefined || this.types === undefined) return true;
    for (const t of changed.keys()) if (this.types.has(t)) return true;
    return false;
  }

  /** Reads the set's members for the first time (throws the evaluator's errors: a bad set is refused). */
  async start(store: Store, ontology: OntologyRecord): Promise<void> {
    this.replaceMembers(this.index((await evaluateObjectSet(store, ontology, this.objectSet)).objects));
  }

  /** Whether the set is filters over the base set of this type: a change of its objects is decided by key. */
  keyedOn(objectType: string): boolean {
    return this.wheres !== undefined && objectType === this.objectType;
  }

  /** The equality every member satisfies (an `eq` clause), as compiled for the ontology now; throws as compiling does. */
  equalityFor(ontology: OntologyRecord): ReturnType<typeof equalityOf> {
    return this.predicatesFor(ontology) ? this.compiled?.equality : undefined;
  }

  /** The set is let go: its members leave the holders' index. */
  release(): void {
    this.replaceMembers(new Map());
    // A run under way when the set was let go may still hand it objects: they must not enter the index again.
    this.holders = undefined;
  }

  /**
   * What entered or changed, and what left. A set that is filters over one type's base set, told which of
   * that type's objects changed, reads only those (a change costs the changed objects, not the set's size);
   * any other set, or an unknown change, is read again whole and compared.
   */
  async refresh(store: Store, ontology: OntologyRecord, changed: Changed, reads = new RunReads(store, ontology.rid)): Promise<MemberChange[]> {
    const keys = changed?.get(this.objectType);
    if (this.wheres && keys !== undefined && keys !== 'all' && changed!.size === 1) return this.refreshKeys(ontology, reads, keys);
    const now = this.index((await evaluateObjectSet(store, ontology, this.objectSet)).objects);
    const changes: MemberChange[] = [];
    for (const [id, member] of now) {
      const before = this.members.get(id);
      if (before === undefined) changes.push({ state: 'ADDED_OR_UPDATED', record: member.record });
      else if (before.record !== member.record && jsonOf(before) !== jsonOf(member)) changes.push({ state: 'ADDED_OR_UPDATED', record: member.record });
    }
    for (const [id, member] of this.members) if (!now.has(id)) changes.push({ state: 'REMOVED', record: member.record });
    this.replaceMembers(now);
    return changes;
  }

  private async refreshKeys(ontology: OntologyRecord, reads: RunReads, keys: ReadonlySet<string>): Promise<MemberChange[]> {
    if (!this.predicatesFor(ontology)) return [];
    return this.applyChanged(ontology, await reads.changedOf(this.objectType, keys));
  }

  /**
   * What these changed objects of the set's type do to it (a keyed set; the run read them once for every set):
   * an object neither in the set before nor passing its clauses now says nothing.
   */
  applyChanged(ontology: OntologyRecord, objects: readonly ChangedObject[]): MemberChange[] {
    const predicates = this.predicatesFor(ontology);
    if (!predicates) return [];
    const changes: MemberChange[] = [];
    for (const { id, record: o } of objects) {
      const before = this.members.get(id);
      // Neither in the set before nor now: nothing to say (the commonest case when many sets watch one type).
      if (!before && (o === undefined || !matches(predicates, o))) continue;
      if (o !== undefined && (before === undefined || matches(predicates, o))) {
        const member: Member = { record: o };
        if (!before || (before.record !== o && jsonOf(before) !== jsonOf(member))) changes.push({ state: 'ADDED_OR_UPDATED', record: o });
        this.members.set(id, member);
        if (!before) this.holders?.add(id, this);
      } else if (before) {
        this.members.delete(id);
        this.holders?.delete(id, this);
        changes.push({ state: 'REMOVED', record: before.record });
      }
    }
    return changes;
  }

  /** The set's clauses compiled for the type as the ontology now defines it; undefined when the type is gone. */
  private predicatesFor(ontology: OntologyRecord): Predicate[] | undefined {
    const type = ontology.objectTypes.get(this.objectType);
    if (!type) return undefined;
    if (this.compiled?.type !== type) {
      const predicates = (this.wheres ?? []).map((w) => compileWhere(type, w));
      const equality = (this.wheres ?? []).map((w) => equalityOf(type, w)).find((e) => e !== undefined);
      this.compiled = { type, predicates, equality };
    }
    return this.compiled.predicates;
  }

  get size(): number {
    return this.members.size;
  }

  /** New members; a keyed set's holders entries follow (only keyed sets are indexed: others are read whole). */
  private replaceMembers(now: Map<string, Member>): void {
    if (this.holders && this.wheres) {
      for (const id of this.members.keys()) if (!now.has(id)) this.holders.delete(id, this);
      for (const id of now.keys()) if (!this.members.has(id)) this.holders.add(id, this);
    }
    this.members = now;
  }

  private index(objects: readonly OntologyObjectRecord[]): Map<string, Member> {
    const out = new Map<string, Member>();
    for (const o of objects) out.set(identity(o), { record: o });
    return out;
  }
}

/** Whether an object passes every clause (a plain loop: `every` with a closure cost more per call). */
function matches(predicates: readonly Predicate[], o: OntologyObjectRecord): boolean {
  for (const p of predicates) if (!p(o)) return false;
  return true;
}

/** Every object type a set names, or undefined when it follows links or names objects by rid (any type may matter). */
function typesRead(set: unknown): Set<string> | undefined {
  const types = new Set<string>();
  const walk = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.every(walk);
    if (node === null || typeof node !== 'object') return true;
    const record = node as Record<string, unknown>;
    if (record.type === 'searchAround' || record.type === 'static' || record.type === 'interfaceBase' || record.type === 'reference') return false;
    if (record.type === 'base' && typeof record.objectType === 'string') types.add(record.objectType);
    return Object.values(record).every(walk);
  };
  return walk(set) ? types : undefined;
}

/** The where clauses of a set made only of filters over a base set of `type`; undefined for any other set. */
function filterChain(set: unknown, type: string): unknown[] | undefined {
  const wheres: unknown[] = [];
  let node = set as Record<string, unknown> | undefined;
  for (let depth = 0; depth < 32 && node && typeof node === 'object'; depth++) {
    if (node.type === 'base') return node.objectType === type ? wheres : undefined;
    if (node.type !== 'filter') return undefined;
    wheres.push(node.where);
    node = node.objectSet as Record<string, unknown> | undefined;
  }
  return undefined;
}

/** The first base object type a set names (what `refreshObjectSet` reports); '' when there is none. */
export function baseTypeOf(set: unknown): string {
  if (Array.isArray(set)) {
    for (const s of set) {
      const t = baseTypeOf(s);
      if (t) return t;
    }
    return '';
  }
  if (set === null || typeof set !== 'object') return '';
  const record = set as Record<string, unknown>;
  if (record.type === 'base' && typeof record.objectType === 'string') return record.objectType;
  for (const v of Object.values(record)) {
    const t = baseTypeOf(v);
    if (t) return t;
  }
  return '';
}

/** Refuses a subscription asking for properties its set's object type does not have. */
export function checkProperties(ontology: OntologyRecord, watch: SetWatch, properties: string[]): void {
  const type = watch.objectType ? ontology.objectTypes.get(watch.objectType) : undefined;
  if (!type || properties.length === 0) return;
  const missing = properties.filter((p) => !type.properties.has(p));
  if (missing.length) throw propertiesNotFound(type.apiName, missing);
}
