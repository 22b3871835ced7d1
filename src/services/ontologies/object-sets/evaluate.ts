// ObjectSet -> the objects it holds. Supported: base, filter, static (by object rid), searchAround, union,
// intersect, subtract. Set operations compare objects by type and key (a store may hand out fresh records on every read).
// interfaceBase (interfaces/sets.ts) and withProperties (derived/with-properties.ts) as docs/live-ontology.md says.
// Anything else (nearestNeighbors, references, ...) is named in a 400.
import type { Store, OntologyObjectRecord, OntologyRecord } from '../../../store/store.js';
import type { ObjectTypeDef } from '../../../store/ontology-model.js';
import { isRecord } from '../model/data-types.js';
import { findObjectType } from '../context.js';
import { compileWhere, type Predicate } from '../object-reads/where.js';
import { objectRid } from '../object-reads/object-wire.js';
import { invalidRequest, linkTypeNotFound, notSupported } from '../errors.js';
import { quote } from '../../../errors.js';
import { names } from '../reasons.js';
import { filterInterfaceSet, interfaceBaseSet, sharedInterface } from '../interfaces/sets.js';
import type { InterfaceDef } from '../interfaces/model.js';
import { withDerivedProperties } from '../derived/with-properties.js';
import { followLink, identity } from '../object-reads/follow-link.js';

export interface EvaluatedSet {
  /** The object type every member has, when they share one (undefined for a mixed static set). */
  objectType?: ObjectTypeDef;
  objects: readonly OntologyObjectRecord[];
  /** Set when the set is seen through an interface (interfaceBase, filters and set operations of it): its clauses name interface properties. */
  interfaceType?: InterfaceDef;
}

export async function evaluateObjectSet(store: Store, ontology: OntologyRecord, set: unknown, depth = 0): Promise<EvaluatedSet> {
  if (!isRecord(set) || typeof set.type !== 'string') throw invalidRequest('objectSet', 'an object set must be an object with a `type`');
  if (depth > 32) throw invalidRequest('objectSet', 'nested deeper than 32 levels');
  const sub = (s: unknown) => evaluateObjectSet(store, ontology, s, depth + 1);
  switch (set.type) {
    case 'base': {
      if (typeof set.objectType !== 'string') throw invalidRequest('objectSet.objectType', 'required');
      const objectType = findObjectType(ontology, set.objectType);
      return { objectType, objects: await store.ontologyObjects.list(ontology.rid, objectType.apiName) };
    }
    case 'filter': {
      const inner = (await byPrimaryKey(store, ontology, set)) ?? (await sub(set.objectSet));
      if (inner.interfaceType) return filterInterfaceSet(ontology, inner, inner.interfaceType, set.where);
      const predicates = new Map<string, Predicate>();
      const predicate = (o: OntologyObjectRecord) => {
        let p = predicates.get(o.objectType);
        if (!p) predicates.set(o.objectType, (p = compileWhere(findObjectType(ontology, o.objectType), set.where)));
        return p(o);
      };
      // Compile once up front for a typed set, so a bad clause is refused even when the set is empty.
      if (inner.objectType) predicates.set(inner.objectType.apiName, compileWhere(inner.objectType, set.where));
      return { objectType: inner.objectType, objects: inner.objects.filter(predicate) };
    }
    case 'static': {
      if (!Array.isArray(set.objects)) throw invalidRequest('objectSet.objects', 'must be a list of object rids');
      return staticSet(store, ontology, set.objects.map(String));
    }
    case 'searchAround': {
      const inner = await sub(set.objectSet);
      if (typeof set.link !== 'string') throw invalidRequest('objectSet.link', 'required');
      if (!inner.objectType) throw notSupported('object set', 'searchAround over objects of several types');
      const link = inner.objectType.links.get(set.link);
      if (!link)
        throw linkTypeNotFound(inner.objectType.apiName, set.link).because(
          `searchAround: ${inner.objectType.apiName} has no link ${quote(set.link)}; its links are ${names(inner.objectType.links.keys())}.`,
        );
      return { objectType: findObjectType(ontology, link.target), objects: await followLink(store, ontology.rid, link, inner.objects) };
    }
    case 'union':
    case 'intersect':
    case 'subtract': {
      if (!Array.isArray(set.objectSets) || set.objectSets.length === 0) throw invalidRequest(`objectSet.objectSets`, 'must be a non-empty list');
      const parts: EvaluatedSet[] = [];
      for (const s of set.objectSets) parts.push(await sub(s));
      // By name: a withProperties part's type is a copy carrying its derived properties; the first part's is kept.
      const types = new Set(parts.map((p) => p.objectType?.apiName));
      const objectType = types.size === 1 ? parts[0]!.objectType : undefined;
      const interfaceType = sharedInterface(parts);
      const [first, ...rest] = parts as [EvaluatedSet, ...EvaluatedSet[]];
      if (set.type === 'union') {
        const seen = new Map<string, OntologyObjectRecord>();
        for (const p of parts) for (const o of p.objects) if (!seen.has(identity(o))) seen.set(identity(o), o);
        return { objectType, objects: [...seen.values()], ...(interfaceType ? { interfaceType } : {}) };
      }
      const others = rest.map((p) => new Set(p.objects.map(identity)));
      const keep =
        set.type === 'intersect'
          ? (o: OntologyObjectRecord) => others.every((s) => s.has(identity(o)))
          : (o: OntologyObjectRecord) => !others.some((s) => s.has(identity(o)));
      return {
        objectType: set.type === 'intersect' ? objectType : first.objectType,
        objects: first.objects.filter(keep),
        ...(interfaceType ? { interfaceType } : {}),
      };
    }
    case 'interfaceBase':
      return interfaceBaseSet(store, ontology, set);
    case 'withProperties':
      return withDerivedProperties(store, ontology, await sub(set.objectSet), set.derivedProperties);
    default:
      throw notSupported('object set type', set.type);
  }
}

async function staticSet(store: Store, ontology: OntologyRecord, rids: string[]): Promise<EvaluatedSet> {
  const wanted = new Set(rids);
  const found = new Map<string, OntologyObjectRecord>();
  const types = new Set<ObjectTypeDef>();
  for (const type of ontology.objectTypes.values()) {
    for (const o of await store.ontologyObjects.list(ontology.rid, type.apiName)) {
      const rid = objectRid(ontology.rid, o);
      if (wanted.has(rid)) {
        found.set(rid, o);
        types.add(type);
      }
    }
  }
  const objects = rids.map((r) => found.get(r)).filter((o): o is OntologyObjectRecord => o !== undefined);
  return { objectType: types.size === 1 ? [...types][0] : undefined, objects: [...new Set(objects)] };
}

/**
 * A filter of a base set on its primary key (`eq` or `in`, alone or inside an `and`), as the typed client's
 * fetchOne, link navigation and `$in` on the key send it: the candidates come from the key index, not a scan
 * (docs/performance.md lists the clauses that are indexed); the whole clause is still applied to them
 * afterwards by the caller.
 */
async function byPrimaryKey(store: Store, ontology: OntologyRecord, set: Record<string, unknown>): Promise<EvaluatedSet | undefined> {
  const base = set.objectSet;
  if (!isRecord(base) || base.type !== 'base' || typeof base.objectType !== 'string') return undefined;
  const objectType = ontology.objectTypes.get(base.objectType);
  if (!objectType) return undefined;
  const keys = primaryKeyValues(set.where, objectType);
  if (!keys) return undefined;
  return { objectType, objects: await store.ontologyObjects.getMany(ontology.rid, objectType.apiName, keys) };
}

/** Key types whose stored key (String(value)) is what a clause's value of the same JSON type compares equal to. */
const KEYED_BY_TEXT = new Set(['string']);
const KEYED_BY_NUMBER = new Set(['integer', 'long', 'short', 'byte', 'double', 'float']);

/** A clause value as the key it can only match, or undefined when the where clause compares it otherwise. */
function asKey(value: unknown, keyType: string | undefined): string | undefined {
  if (typeof value === 'string' && keyType !== undefined && KEYED_BY_TEXT.has(keyType)) return value;
  if (typeof value === 'number' && Number.isFinite(value) && keyType !== undefined && KEYED_BY_NUMBER.has(keyType)) return String(value);
  return undefined;
}

/** The primary-key values a clause restricts to, when it does (every match has one of them), as keys. */
function primaryKeyValues(where: unknown, objectType: ObjectTypeDef): string[] | undefined {
  if (!isRecord(where)) return undefined;
  const primaryKey = objectType.primaryKey;
  const keyType = objectType.properties.get(primaryKey)?.dataType.type;
  const onKey = where.field === primaryKey && where.propertyIdentifier === undefined;
  if (where.type === 'eq' && onKey) {
    const key = asKey(where.value, keyType);
    return key === undefined ? undefined : [key];
  }
  if (where.type === 'in' && onKey && Array.isArray(where.value)) {
    const keys = where.value.map((v) => asKey(v, keyType));
    return keys.every((k): k is string => k !== undefined) ? keys : undefined;
  }
  if (where.type === 'and' && Array.isArray(where.value)) {
    for (const part of where.value) {
      const keys = primaryKeyValues(part, objectType);
      if (keys) return keys;
    }
  }
  return undefined;
}
