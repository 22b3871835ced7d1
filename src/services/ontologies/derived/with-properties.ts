// Derived properties (docs/live-ontology.md, "Derived properties"): a `withProperties` object set adds, to each
// object of the set under it, values computed from the objects its links reach (`selection` over a method
// object set rooted at `methodInput`: searchAround and filter steps, then get, count, min, max, sum, avg,
// approximatePercentile, exactDistinct, approximateDistinct, collectList or collectSet) or copied from one of its
// own properties (`property`). The set's object type then carries the derived properties beside the stored ones
// (with the data types compile.ts gives them), so that a filter, an orderBy, a select or an aggregation over the
// set names them as it names stored properties. Anything else (arithmetic on derived values) is a 400 naming it;
// a derived property is computed, never guessed.
import type { OntologyObjectRecord, OntologyRecord, Store } from '../../../store/store.js';
import type { ObjectTypeDef, PropertyDef } from '../../../store/ontology-model.js';
import { findObjectType } from '../context.js';
import { compileDerived, type CompiledDerived } from './compile.js';

/** The type with the derived properties added (a new definition; the ontology's stays as it is). */
function withDerivedType(type: ObjectTypeDef, derived: readonly CompiledDerived[]): ObjectTypeDef {
  const properties = new Map<string, PropertyDef>(type.properties);
  for (const d of derived) properties.set(d.name, { apiName: d.name, dataType: d.dataType, rid: `${type.rid}.derived.${d.name}` });
  return { ...type, properties };
}

/** The objects of `inner` with each derived property added to their values (new records; the stored ones stay). */
export async function withDerivedProperties(
  store: Store,
  ontology: OntologyRecord,
  inner: { objectType?: ObjectTypeDef; objects: readonly OntologyObjectRecord[] },
  definitions: unknown,
): Promise<{ objectType?: ObjectTypeDef; objects: OntologyObjectRecord[] }> {
  // Compiled per object type met (one, unless the set under it mixes types), before any object is read.
  const compiled = new Map<string, CompiledDerived[]>();
  const compiledFor = (type: ObjectTypeDef) => {
    let c = compiled.get(type.apiName);
    if (!c) compiled.set(type.apiName, (c = compileDerived(store, ontology, type, definitions)));
    return c;
  };
  if (inner.objectType) compiledFor(inner.objectType);
  const out: OntologyObjectRecord[] = [];
  for (const o of inner.objects) {
    const derived = compiledFor(inner.objectType ?? findObjectType(ontology, o.objectType));
    const values: Record<string, unknown> = { ...o.values };
    for (const d of derived) {
      const value = await d.compute(o);
      if (value !== undefined) values[d.name] = value;
    }
    out.push({ ...o, values });
  }
  if (!inner.objectType) return { objects: out };
  return { objectType: withDerivedType(inner.objectType, compiledFor(inner.objectType)), objects: out };
}
