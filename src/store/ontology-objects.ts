// Ontology objects and many-to-many link pairs: the part of an ontology that actions change. Objects are
// addressed by (ontology rid, object type, key), where the key is the primary key's canonical text
// (`String(value)`), so a lookup is one index probe and never a scan.

export type PropertyValues = Readonly<Record<string, unknown>>;

export interface OntologyObjectRecord {
  readonly objectType: string;
  /** The primary key's value as the object carries it (a number or a string). */
  readonly primaryKey: string | number;
  /** `String(primaryKey)`: the index key. */
  readonly key: string;
  /** Wire values (dates `YYYY-MM-DD`, timestamps ISO 8601), primary key included; absent properties omitted. */
  readonly values: PropertyValues;
}

/** One change; an action's edits go to applyEdits together. */
export type StoredEdit =
  | { kind: 'create'; objectType: string; primaryKey: string | number; values: PropertyValues }
  /** `set` merges into the values; a `null` value removes the property. */
  | { kind: 'modify'; objectType: string; primaryKey: string | number; set: PropertyValues }
  | { kind: 'delete'; objectType: string; primaryKey: string | number }
  /** Adds (or removes) the pair (a, b) of a many-to-many link; adding a present pair changes nothing. */
  | { kind: 'addPair' | 'removePair'; linkId: string; a: string; b: string };

export type EditOutcome =
  | { ok: true }
  /** Nothing was changed: `exists` for a create whose key is taken, `missing` for a modify or delete of no object. */
  | { ok: false; problem: 'exists' | 'missing'; objectType: string; primaryKey: string | number; editIndex: number };

export interface OntologyObjectRepo {
  /** Seeding: adds objects whose keys are free; returns the ones skipped because their key was taken. */
  insertObjects(ontologyRid: string, objects: OntologyObjectRecord[]): Promise<OntologyObjectRecord[]>;
  /** Seeding: adds many-to-many pairs (a's key, b's key) of a link. */
  insertPairs(ontologyRid: string, linkId: string, pairs: Array<[string, string]>): Promise<void>;
  /** One object by key. */
  get(ontologyRid: string, objectType: string, key: string): Promise<OntologyObjectRecord | undefined>;
  /**
   * The objects of a type whose keys are among `keys`, in list() order, each once: the candidates of a filter
   * on the primary key (`eq`, `in`), found through the key index rather than by a scan of the type.
   */
  getMany(ontologyRid: string, objectType: string, keys: readonly string[]): Promise<OntologyObjectRecord[]>;
  /** Every object of a type in a stable order (insertion order). The caller must not change the array. */
  list(ontologyRid: string, objectType: string): Promise<readonly OntologyObjectRecord[]>;
  /** How many objects a type holds, without reading them (the dashboard's counts and pages). */
  countOf(ontologyRid: string, objectType: string): Promise<number>;
  /** Objects `offset .. offset + limit - 1` in list() order: one page without reading the whole type (the dashboard). */
  slice(ontologyRid: string, objectType: string, offset: number, limit: number): Promise<OntologyObjectRecord[]>;
  /**
   * The objects of a type whose `property` holds one of `values` (compared as text), in list() order: the
   * objects on the many side of a foreign-key link. Indexed, so following a link does not scan the type.
   */
  withValues(ontologyRid: string, objectType: string, property: string, values: ReadonlySet<string>): Promise<OntologyObjectRecord[]>;
  /** The keys paired with `key` on the other side of a many-to-many link; `side` is the side `key` is on. */
  paired(ontologyRid: string, linkId: string, side: 'a' | 'b', key: string): Promise<string[]>;
  /**
   * Applies the edits in order, all or none: the first edit that cannot apply (see EditOutcome) leaves the
   * store unchanged. With `dryRun` nothing is changed either way (an action's VALIDATE_ONLY).
   */
  applyEdits(ontologyRid: string, edits: StoredEdit[], options?: { dryRun?: boolean }): Promise<EditOutcome>;
  /**
   * Runtime control (docs/contracts.md §7): creates the object, or replaces every value of the object with its key
   * (a property absent from `object.values` is gone afterwards). An object that exists keeps its place in
   * list(). Returns whether it was created. The caller has checked the values against the type.
   */
  putObject(ontologyRid: string, object: OntologyObjectRecord): Promise<{ created: boolean }>;
  /**
   * Runtime control: deletes one object and, in the same step, every many-to-many pair that names its key on
   * the given link sides (`side` a: the key is the pair's first element). Returns the deleted object, or
   * undefined (and changes nothing) when there was none.
   */
  deleteObject(
    ontologyRid: string,
    objectType: string,
    key: string,
    pairSides: ReadonlyArray<{ linkId: string; side: 'a' | 'b' }>,
  ): Promise<OntologyObjectRecord | undefined>;
  /** Every pair of a many-to-many link as [a's key, b's key], grouped by a in the order a was first paired (the state export). */
  pairsOf(ontologyRid: string, linkId: string): Promise<Array<[string, string]>>;
  count(): Promise<number>;
}
