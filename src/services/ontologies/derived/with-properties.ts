// Derived properties (docs/live-ontology.md, "Derived properties"): a `withProperties` object set adds, to each
// object of the set under it, values computed from the objects its links reach (`selection` over a method
// object set rooted at `methodInput`: searchAround and filter steps, then get, count, min, max, sum, avg,
// exactDistinct, approximateDistinct, collectList or collectSet) or copied from one of its own properties
// (`property`). Anything else (arithmetic on derived values, a filter or orderBy on a derived property) is a
// 400 naming it; a derived property is computed, never guessed.
import type { OntologyObjectRecord, OntologyRecord, Store } from '../../../store/store.js';
import type { ObjectTypeDef } from '../../../store/ontology-model.js';
import { followLink } from '../object-sets/evaluate.js';
import { compileWhere } from '../object-sets/where.js';
import { findObjectType } from '../context.js';
import { invalidRequest, linkTypeNotFound, notSupported } from '../errors.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Reached {
  type: ObjectTypeDef;
  objects: readonly OntologyObjectRecord[];
}

/** The objects a method object set reaches from one object. */
async function reach(store: Store, ontology: OntologyRecord, set: unknown, from: OntologyObjectRecord, fromType: ObjectTypeDef, depth = 0): Promise<Reached> {
  if (!isRecord(set) || depth > 16) throw invalidRequest('derivedProperties.objectSet', 'must be a method object set');
  if (set.type === 'methodInput') return { type: fromType, objects: [from] };
  if (set.type === 'searchAround') {
    const inner = await reach(store, ontology, set.objectSet, from, fromType, depth + 1);
    const link = typeof set.link === 'string' ? inner.type.links.get(set.link) : undefined;
    if (!link) throw linkTypeNotFound(inner.type.apiName, String(set.link));
    return { type: findObjectType(ontology, link.target), objects: await followLink(store, ontology.rid, link, inner.objects) };
  }
  if (set.type === 'filter') {
    const inner = await reach(store, ontology, set.objectSet, from, fromType, depth + 1);
    const keep = compileWhere(inner.type, set.where);
    return { type: inner.type, objects: inner.objects.filter(keep) };
  }
  throw notSupported('derived property object set', String(set.type));
}

function operate(reached: Reached, operation: unknown): unknown {
  if (!isRecord(operation) || typeof operation.type !== 'string') throw invalidRequest('derivedProperties.operation', 'must be an object with a `type`');
  if (operation.type === 'count') return reached.objects.length;
  const name = operation.selectedPropertyApiName;
  if (typeof name !== 'string' || !reached.type.properties.has(name))
    throw invalidRequest('derivedProperties.operation.selectedPropertyApiName', `must be a property of ${reached.type.apiName}`);
  const values = reached.objects.map((o) => o.values[name]).filter((v) => v !== undefined && v !== null);
  const numbers = () => values.map(Number).filter((n) => Number.isFinite(n));
  const limit = typeof operation.limit === 'number' ? operation.limit : 100;
  switch (operation.type) {
    case 'get':
      return values[0];
    case 'max':
    case 'min': {
      if (values.length === 0) return undefined;
      const sorted = [...values].sort((a, b) => (a === b ? 0 : (a as number | string) < (b as number | string) ? -1 : 1));
      return operation.type === 'min' ? sorted[0] : sorted[sorted.length - 1];
    }
    case 'sum':
      return numbers().reduce((a, b) => a + b, 0);
    case 'avg': {
      const n = numbers();
      return n.length ? n.reduce((a, b) => a + b, 0) / n.length : undefined;
    }
    case 'exactDistinct':
    case 'approximateDistinct':
      return new Set(values.map((v) => JSON.stringify(v))).size;
    case 'collectList':
      return values.slice(0, limit);
    case 'collectSet':
      return [...new Map(values.map((v) => [JSON.stringify(v), v])).values()].slice(0, limit);
    default:
      throw notSupported('derived property operation', operation.type);
  }
}

/** The objects of `inner` with each derived property added to their values (new records; the stored ones stay). */
export async function withDerivedProperties(
  store: Store,
  ontology: OntologyRecord,
  inner: { objectType?: ObjectTypeDef; objects: readonly OntologyObjectRecord[] },
  definitions: unknown,
): Promise<{ objectType?: ObjectTypeDef; objects: OntologyObjectRecord[] }> {
  if (!isRecord(definitions)) throw invalidRequest('objectSet.derivedProperties', 'must be an object of definitions');
  const out: OntologyObjectRecord[] = [];
  for (const o of inner.objects) {
    const type = inner.objectType ?? findObjectType(ontology, o.objectType);
    const values: Record<string, unknown> = { ...o.values };
    for (const [name, def] of Object.entries(definitions)) {
      if (!isRecord(def)) throw invalidRequest(`objectSet.derivedProperties.${name}`, 'must be a definition');
      let value: unknown;
      if (def.type === 'property') value = typeof def.apiName === 'string' ? o.values[def.apiName] : undefined;
      else if (def.type === 'selection') value = operate(await reach(store, ontology, def.objectSet, o, type), def.operation);
      else throw notSupported('derived property definition', String(def.type));
      if (value !== undefined) values[name] = value;
    }
    out.push({ ...o, values });
  }
  return { ...(inner.objectType ? { objectType: inner.objectType } : {}), objects: out };
}
