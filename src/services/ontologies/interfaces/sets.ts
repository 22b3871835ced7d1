// Interface object sets (docs/live-ontology.md, "Interfaces"): `interfaceBase` holds every object of every type
// implementing the interface, each as its own type (the client views it through the interface with the
// mappings loadObjectsMultipleObjectTypes answers). Filters on interface properties are not translated: a
// clause naming an interface property that the object type does not have is refused with the property's name.
import type { OntologyObjectRecord, OntologyRecord, Store } from '../../../store/store.js';
import type { ObjectTypeDef } from '../../../store/ontology-model.js';
import { notFound } from '../../../errors.js';
import { interfacesOf } from './model.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function interfaceBaseSet(
  store: Store,
  ontology: OntologyRecord,
  set: Record<string, unknown>,
): Promise<{ objectType?: ObjectTypeDef; objects: readonly OntologyObjectRecord[] }> {
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
  return { ...(types.length === 1 ? { objectType: types[0] } : {}), objects };
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
