// Interface types (docs/live-ontology.md, "Interfaces"): seeded per ontology under `interface_types`, each with
// its properties and the object types that implement it, mapping each interface property to one of theirs.
// They are definitions only, read from the seed when the routes are built (not kept in the store), so a state
// export does not carry them and an ontology imported at run time has none.
import type { Store } from '../../../store/store.js';
import type { DataType } from '../../../store/ontology-model.js';
import { parseDataType } from '../model/data-types.js';
import { stableUuid } from '../../../ids.js';

export interface InterfaceDef {
  apiName: string;
  displayName: string;
  description?: string;
  rid: string;
  properties: Map<string, DataType>;
  /** Object type -> interface property -> the object type's property. */
  implementedBy: Map<string, Record<string, string>>;
}

export interface InterfaceSeed {
  api_name: string;
  display_name?: string;
  description?: string;
  properties: Record<string, unknown>;
  implemented_by: Record<string, Record<string, string>>;
}

const registry = new WeakMap<Store, Map<string, Map<string, InterfaceDef>>>();

/** Compiles the seeded interfaces of each ontology (by rid) for this store's routes; problems name their paths. */
export function registerInterfaces(store: Store, ontologies: ReadonlyArray<{ rid: string; interfaces: readonly InterfaceSeed[] }>): void {
  const byOntology = new Map<string, Map<string, InterfaceDef>>();
  for (const o of ontologies) {
    const defs = new Map<string, InterfaceDef>();
    for (const i of o.interfaces) {
      const problems: string[] = [];
      const properties = new Map<string, DataType>();
      for (const [name, raw] of Object.entries(i.properties)) {
        const t = parseDataType(raw, `interface_types.${i.api_name}.properties.${name}`, 'property', problems);
        if (t) properties.set(name, t);
      }
      defs.set(i.api_name, {
        apiName: i.api_name,
        displayName: i.display_name ?? i.api_name,
        ...(i.description === undefined ? {} : { description: i.description }),
        rid: `ri.ontology.main.interface.${stableUuid(`${o.rid}:${i.api_name}`)}`,
        properties,
        implementedBy: new Map(Object.entries(i.implemented_by)),
      });
    }
    byOntology.set(o.rid, defs);
  }
  registry.set(store, byOntology);
}

export function interfacesOf(store: Store, ontologyRid: string): ReadonlyMap<string, InterfaceDef> {
  return registry.get(store)?.get(ontologyRid) ?? new Map();
}

/** The interfaces an object type implements, with its property mapping for each. */
export function implementsOf(store: Store, ontologyRid: string, objectType: string): Array<[string, Record<string, string>]> {
  const out: Array<[string, Record<string, string>]> = [];
  for (const def of interfacesOf(store, ontologyRid).values()) {
    const mapping = def.implementedBy.get(objectType);
    if (mapping) out.push([def.apiName, mapping]);
  }
  return out;
}
