// A `where` clause, an `orderBy` or a select written with an interface's property names, rewritten for one object
// type implementing it (docs/live-ontology.md, "Interfaces"): each interface property becomes the type's property
// it is mapped to. A name the interface does not have is InterfacePropertyNotFound, whichever type is asked, so a
// bad clause is refused even when no object is read. The rewritten clause is then checked and evaluated as any
// clause on that type (where.ts), so values are typed against the mapped property (the seed check made the types
// agree).
import { isRecord } from '../model/data-types.js';
import { invalidRequest } from '../errors.js';
import type { InterfaceDef } from './model.js';
import { interfacePropertyNotFound } from './errors.js';

/** The implementing type's property for an interface property (an interface property must exist). */
export function mappedProperty(def: InterfaceDef, objectType: string | undefined, interfaceProperty: string): string {
  if (!def.properties.has(interfaceProperty)) throw interfacePropertyNotFound(def, interfaceProperty);
  return (objectType === undefined ? undefined : def.implementedBy.get(objectType)?.[interfaceProperty]) ?? interfaceProperty;
}

/** The clause with every property it names mapped to `objectType`'s (undefined: only checked). */
export function translateWhere(def: InterfaceDef, objectType: string | undefined, clause: unknown, depth = 0): unknown {
  if (depth > 64) throw invalidRequest('where', 'nested deeper than 64 levels');
  if (!isRecord(clause)) return clause;
  const kind = clause.type;
  if ((kind === 'and' || kind === 'or') && Array.isArray(clause.value))
    return { ...clause, value: clause.value.map((c) => translateWhere(def, objectType, c, depth + 1)) };
  if (kind === 'not') return { ...clause, value: translateWhere(def, objectType, clause.value, depth + 1) };
  const out: Record<string, unknown> = { ...clause };
  if (typeof clause.field === 'string') out.field = mappedProperty(def, objectType, clause.field);
  const id = clause.propertyIdentifier;
  if (isRecord(id) && id.type === 'property' && typeof id.apiName === 'string')
    out.propertyIdentifier = { ...id, apiName: mappedProperty(def, objectType, id.apiName) };
  if (isRecord(id) && id.type === 'structField' && typeof id.propertyApiName === 'string')
    out.propertyIdentifier = { ...id, propertyApiName: mappedProperty(def, objectType, id.propertyApiName) };
  return out;
}
