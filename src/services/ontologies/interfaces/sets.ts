// Interface object sets (docs/live-ontology.md, "Interfaces"): `interfaceBase` holds every object of every type
// implementing the interface, each as its own type (the client views it through the interface with the
// mappings loadObjectsMultipleObjectTypes answers). A filter on such a set names interface properties: it is
// rewritten for each implementing type through its mapping (where.ts) and evaluated on that type's objects.
import type { OntologyObjectRecord, OntologyRecord, Store } from '../../../store/store.js';
import type { ObjectTypeDef } from '../../../store/ontology-model.js';
import { notFound } from '../../../errors.js';
import { interfacesOf, type InterfaceDef } from './model.js';
import { compileWhere, type Predicate } from '../object-reads/where.js';
import { findObjectType } from '../context.js';
import { translateWhere } from './where.js';

interface InterfaceSet {
  objectType?: ObjectTypeDef;
  objects: readonly OntologyObjectRecord[];
  interfaceType?: InterfaceDef;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function interfaceBaseSet(store: Store, ontology: OntologyRecord, set: Record<string, unknown>): Promise<InterfaceSet> {
  const name = String(set.interfaceType ?? '');
  const defs = interfacesOf(store, ontology.rid);
  const def = defs.get(name);
  if (!def)
    throw notFound('InterfaceTypeNotFound', { apiName: name }).because(
      `Ontology ${ontology.apiName} has no interface ${JSON.stringify(name.slice(0, 64))}; its interfaces are ${[...defs.keys()].join(', ') || 'none'}.`,
    );
  const types = [...def.implementedBy.keys()].map((t) => ontology.objectTypes.get(t)).filter((t): t is ObjectTypeDef => t !== undefined);
  const objects: OntologyObjectRecord[] = [];
  for (const t of types) objects.push(...(await store.ontologyObjects.list(ontology.rid, t.apiName)));
  return { ...(types.length === 1 ? { objectType: types[0] } : {}), objects, interfaceType: def };
}

/** A filter whose clause names the interface's properties, over a set seen through that interface. */
export function filterInterfaceSet(ontology: OntologyRecord, inner: InterfaceSet, def: InterfaceDef, where: unknown): InterfaceSet {
  // Checked once against the interface itself, so a bad name or clause is refused even over no objects.
  translateWhere(def, undefined, where);
  const predicates = new Map<string, Predicate>();
  const compiled = (objectType: string) => {
    let p = predicates.get(objectType);
    if (!p) predicates.set(objectType, (p = compileWhere(findObjectType(ontology, objectType), translateWhere(def, objectType, where))));
    return p;
  };
  for (const t of def.implementedBy.keys()) if (ontology.objectTypes.has(t)) compiled(t);
  return { ...inner, objects: inner.objects.filter((o) => compiled(o.objectType)(o)) };
}

/** The interface every part of a set operation is seen through, when they share one. */
export function sharedInterface(parts: readonly InterfaceSet[]): InterfaceDef | undefined {
  const first = parts[0]?.interfaceType;
  return first && parts.every((p) => p.interfaceType?.apiName === first.apiName) ? first : undefined;
}

/** interfaceToObjectTypeMappings for every interface an object set names: interface -> type -> {ifaceProp: prop}. */
export function interfaceMappingsFor(store: Store, ontologyRid: string, objectSet: unknown): Record<string, Record<string, Record<string, string>>> {
  const names = new Set<string>();
  const walk = (node: unknown, depth: number): void => {
    if (depth > 32) return;
    if (Array.isArray(node)) return node.forEach((n) => walk(n, depth + 1));
    if (!isRecord(node)) return;
    if (node.type === 'interfaceBase' && typeof node.interfaceType === 'string') names.add(node.interfaceType);
    for (const v of Object.values(node)) walk(v, depth + 1);
  };
  walk(objectSet, 0);
  const defs = interfacesOf(store, ontologyRid);
  const out: Record<string, Record<string, Record<string, string>>> = {};
  for (const name of names) {
    const def = defs.get(name);
    if (def) out[name] = Object.fromEntries(def.implementedBy);
  }
  return out;
}
