// Interfaces on the wire (@osdk/foundry.ontologies 2.57.0 InterfaceType; docs/live-ontology.md, "Interfaces").
import { propertyTypeWire } from '../model/data-types.js';
import type { InterfaceDef } from './model.js';

export function interfaceTypeWire(def: InterfaceDef) {
  const properties = Object.fromEntries(
    [...def.properties].map(([name, t]) => [
      name,
      { rid: `${def.rid}.property.${name}`, apiName: name, displayName: name, dataType: propertyTypeWire(t), required: false, typeClasses: [] },
    ]),
  );
  return {
    rid: def.rid,
    apiName: def.apiName,
    displayName: def.displayName,
    ...(def.description === undefined ? {} : { description: def.description }),
    properties,
    allProperties: properties,
    propertiesV2: {},
    allPropertiesV2: {},
    extendsInterfaces: [],
    allExtendsInterfaces: [],
    implementedByObjectTypes: [...def.implementedBy.keys()],
    links: {},
    allLinks: {},
  };
}

/** An object type's `implementsInterfaces` and `implementsInterfaces2` (its full metadata). */
export const implementsWire = (implemented: ReadonlyArray<[string, Record<string, string>]>) => ({
  implementsInterfaces: implemented.map(([name]) => name),
  implementsInterfaces2: Object.fromEntries(implemented.map(([name, properties]) => [name, { properties, propertiesV2: {}, links: {} }])),
});
