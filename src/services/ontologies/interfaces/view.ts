// Objects of several types seen through one interface (docs/live-ontology.md, "Interfaces"): an object type made
// of the interface's properties, and each object's values under the interface's names. Aggregations and orderBy
// over an interface object set run on this view, so they name interface properties whatever the implementing
// types call them.
import type { OntologyObjectRecord } from '../../../store/store.js';
import type { ObjectTypeDef, PropertyDef } from '../../../store/ontology-model.js';
import type { InterfaceDef } from './model.js';
import { mappedProperty } from './where.js';

/** The interface properties an aggregation or groupBy names must be the interface's (InterfacePropertyNotFound). */
export function checkInterfaceFields(def: InterfaceDef, ...lists: unknown[]): void {
  for (const list of lists)
    for (const entry of Array.isArray(list) ? list : [list]) {
      const e = entry as { field?: unknown; propertyIdentifier?: { apiName?: unknown } } | null;
      const name = e?.field ?? e?.propertyIdentifier?.apiName;
      if (typeof name === 'string') mappedProperty(def, undefined, name);
    }
}

export function interfaceViewType(def: InterfaceDef): ObjectTypeDef {
  const properties = new Map<string, PropertyDef>(
    [...def.properties].map(([name, dataType]) => [name, { apiName: name, dataType, rid: `${def.rid}.property.${name}` }]),
  );
  return {
    apiName: def.apiName,
    displayName: def.displayName,
    pluralDisplayName: def.displayName,
    rid: def.rid,
    primaryKey: '',
    titleProperty: '',
    properties,
    links: new Map(),
  };
}

/** The object with only its interface properties, under the interface's names (the record is new). */
export function viewThrough(def: InterfaceDef, o: OntologyObjectRecord): OntologyObjectRecord {
  const mapping = def.implementedBy.get(o.objectType) ?? {};
  const values: Record<string, unknown> = {};
  for (const name of def.properties.keys()) {
    const v = o.values[mapping[name] ?? name];
    if (v !== undefined) values[name] = v;
  }
  return { ...o, values };
}
