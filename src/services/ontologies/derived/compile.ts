// Derived property definitions (docs/live-ontology.md, "Derived properties") compiled once per request against
// the object type they are defined on: every link, filter and selected property is checked before any object is
// read (so a bad definition is refused even over an empty set), and each definition gets the data type its values
// have, which is what lets a filter, an orderBy or an aggregation name a derived property like a stored one.
import type { OntologyObjectRecord, OntologyRecord, Store } from '../../../store/store.js';
import type { DataType, ObjectTypeDef } from '../../../store/ontology-model.js';
import { followLink } from '../object-reads/follow-link.js';
import { compileWhere, type Predicate } from '../object-reads/where.js';
import { comparatorFor } from '../object-reads/compare.js';
import { findObjectType } from '../context.js';
import { invalidRequest, linkTypeNotFound, notSupported, propertiesNotFound } from '../errors.js';
import { isRecord } from '../model/data-types.js';
import { derivedNamesNotUnique, invalidDerivedProperty } from './errors.js';
import { operate } from './operate.js';

export interface CompiledDerived {
  name: string;
  dataType: DataType;
  /** The value for one object of the set; undefined when there is none (left out of the object). */
  compute(o: OntologyObjectRecord): Promise<unknown>;
}

/** One step of a method object set, applied to the objects reached so far. */
type Step = (objects: readonly OntologyObjectRecord[]) => Promise<readonly OntologyObjectRecord[]> | readonly OntologyObjectRecord[];

const NUMERIC = new Set(['byte', 'short', 'integer', 'long', 'double', 'float', 'decimal']);
const OPERATIONS = new Set(['get', 'min', 'max', 'sum', 'avg', 'approximatePercentile', 'exactDistinct', 'approximateDistinct', 'collectList', 'collectSet']);
const INTEGER: DataType = { type: 'integer' };
const DOUBLE: DataType = { type: 'double' };

export function compileDerived(store: Store, ontology: OntologyRecord, type: ObjectTypeDef, definitions: unknown): CompiledDerived[] {
  if (!isRecord(definitions)) throw invalidRequest('objectSet.derivedProperties', 'must be an object of definitions');
  const clashes = Object.keys(definitions).filter((n) => type.properties.has(n));
  if (clashes.length) throw derivedNamesNotUnique(clashes);
  return Object.entries(definitions).map(([name, def]) => compileOne(store, ontology, type, name, def));
}

function compileOne(store: Store, ontology: OntologyRecord, type: ObjectTypeDef, name: string, def: unknown): CompiledDerived {
  if (!isRecord(def) || typeof def.type !== 'string') throw invalidRequest(`objectSet.derivedProperties.${name}`, 'must be a definition with a `type`');
  if (def.type === 'property') {
    const apiName = def.apiName;
    if (typeof apiName !== 'string') throw invalidRequest(`objectSet.derivedProperties.${name}.apiName`, 'required');
    const prop = type.properties.get(apiName);
    if (!prop) throw propertiesNotFound(type.apiName, [apiName]);
    return { name, dataType: prop.dataType, compute: async (o) => o.values[apiName] };
  }
  if (def.type !== 'selection') throw notSupported('derived property definition', def.type);
  const { reachedType, steps } = compileMethodSet(store, ontology, type, def.objectSet, 0);
  const operation = def.operation;
  if (!isRecord(operation) || typeof operation.type !== 'string')
    throw invalidRequest(`objectSet.derivedProperties.${name}.operation`, 'must be an object with a `type`');
  const dataType = resultType(type, reachedType, name, operation);
  const selected = reachedType.properties.get(String(operation.selectedPropertyApiName));
  const compare = selected ? comparatorFor(selected.dataType) : undefined;
  return {
    name,
    dataType,
    compute: async (o) => {
      let objects: readonly OntologyObjectRecord[] = [o];
      for (const step of steps) objects = await step(objects);
      return operate(objects, operation, compare);
    },
  };
}

/** methodInput, then searchAround and filter steps, outermost last. */
function compileMethodSet(
  store: Store,
  ontology: OntologyRecord,
  from: ObjectTypeDef,
  set: unknown,
  depth: number,
): { reachedType: ObjectTypeDef; steps: Step[] } {
  if (!isRecord(set) || depth > 16) throw invalidRequest('derivedProperties.objectSet', 'must be a method object set (methodInput, searchAround, filter)');
  if (set.type === 'methodInput') return { reachedType: from, steps: [] };
  if (set.type === 'searchAround') {
    const inner = compileMethodSet(store, ontology, from, set.objectSet, depth + 1);
    const link = typeof set.link === 'string' ? inner.reachedType.links.get(set.link) : undefined;
    if (!link) throw linkTypeNotFound(inner.reachedType.apiName, String(set.link));
    const step: Step = (objects) => followLink(store, ontology.rid, link, objects);
    return { reachedType: findObjectType(ontology, link.target), steps: [...inner.steps, step] };
  }
  if (set.type === 'filter') {
    const inner = compileMethodSet(store, ontology, from, set.objectSet, depth + 1);
    const keep: Predicate = compileWhere(inner.reachedType, set.where);
    return { reachedType: inner.reachedType, steps: [...inner.steps, (objects) => objects.filter(keep)] };
  }
  throw notSupported('derived property object set', String(set.type));
}

/** The data type of an operation's values, as the typed client declares it; the selected property checked. */
function resultType(type: ObjectTypeDef, reached: ObjectTypeDef, name: string, operation: Record<string, unknown>): DataType {
  if (operation.type === 'count') return INTEGER;
  if (!OPERATIONS.has(String(operation.type))) throw notSupported('derived property operation', String(operation.type));
  const selected = operation.selectedPropertyApiName;
  if (typeof selected !== 'string') throw invalidRequest(`objectSet.derivedProperties.${name}.operation.selectedPropertyApiName`, 'required');
  const prop = reached.properties.get(selected);
  if (!prop) throw propertiesNotFound(reached.apiName, [selected]);
  const refuse = (why: string) => invalidDerivedProperty(type.apiName, name, why);
  switch (operation.type) {
    case 'get':
      return prop.dataType;
    case 'min':
    case 'max':
      if (!comparatorFor(prop.dataType)) throw refuse(`${operation.type} needs an orderable property; ${reached.apiName}.${selected} is ${prop.dataType.type}`);
      return prop.dataType;
    case 'sum':
    case 'avg':
    case 'approximatePercentile':
      if (!NUMERIC.has(prop.dataType.type)) throw refuse(`${operation.type} needs a numeric property; ${reached.apiName}.${selected} is ${prop.dataType.type}`);
      if (operation.type === 'approximatePercentile') {
        const p = operation.approximatePercentile;
        if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw refuse('approximatePercentile must be a number from 0 to 1');
      }
      return DOUBLE;
    case 'exactDistinct':
    case 'approximateDistinct':
      return INTEGER;
    case 'collectList':
    case 'collectSet': {
      const limit = operation.limit ?? 100;
      if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 10000)
        throw refuse(`${operation.type} limit must be an integer from 1 to 10000`);
      return { type: 'array', subType: prop.dataType };
    }
    default:
      throw notSupported('derived property operation', String(operation.type));
  }
}
