// Metadata wire shapes: ObjectTypeV2, ObjectTypeFullMetadata, LinkTypeSideV2, QueryTypeV2, ActionTypeV2,
// OntologyFullMetadata. Interfaces, shared property types and value types: none (empty maps). Every field the
// platform's Python SDK models require is present (foundry-platform-sdk validates each answer): a query
// parameter's `required`, a query's `typeReferences`, full metadata's `actionTypesFullMetadata`.
import type { OntologyRecord } from '../../../store/store.js';
import type { ActionTypeDef, LinkSideDef, ObjectTypeDef, QueryDef } from '../../../store/ontology-model.js';
import { actionTypeWire, propertyTypeWire, queryTypeWire } from '../model/data-types.js';
import { ontologyWire } from '../shapes.js';
import { implementsWire, interfaceTypeWire } from '../interfaces/wire.js';
import type { InterfaceDef } from '../interfaces/model.js';

export const objectTypeWire = (t: ObjectTypeDef) => ({
  apiName: t.apiName,
  displayName: t.displayName,
  status: 'ACTIVE',
  ...(t.description !== undefined ? { description: t.description } : {}),
  pluralDisplayName: t.pluralDisplayName,
  icon: { type: 'blueprint', color: '#4C90F0', name: 'cube' },
  primaryKey: t.primaryKey,
  properties: Object.fromEntries(
    [...t.properties.values()].map((p) => [p.apiName, { displayName: p.apiName, dataType: propertyTypeWire(p.dataType), rid: p.rid, typeClasses: [] }]),
  ),
  rid: t.rid,
  titleProperty: t.titleProperty,
  visibility: 'NORMAL',
});

export const linkSideWire = (l: LinkSideDef) => ({
  apiName: l.apiName,
  displayName: l.displayName,
  status: 'ACTIVE',
  objectTypeApiName: l.target,
  cardinality: l.cardinality,
  ...(l.via.kind === 'outgoing' ? { foreignKeyPropertyApiName: l.via.property } : {}),
  linkTypeRid: l.linkTypeRid,
});

export const objectTypeFullWire = (t: ObjectTypeDef, implemented: ReadonlyArray<[string, Record<string, string>]> = []) => ({
  objectType: objectTypeWire(t),
  linkTypes: [...t.links.values()].map(linkSideWire),
  ...implementsWire(implemented),
  sharedPropertyTypeMapping: {},
});

const parametersWire = (params: QueryDef['parameters']) =>
  Object.fromEntries([...(params ?? new Map()).entries()].map(([name, p]) => [name, { dataType: queryTypeWire(p.dataType), required: p.required }]));

export const queryTypeWireOf = (q: QueryDef) => ({
  apiName: q.apiName,
  ...(q.description !== undefined ? { description: q.description } : {}),
  ...(q.displayName !== undefined ? { displayName: q.displayName } : {}),
  parameters: parametersWire(q.parameters),
  // A query seeded without an output type says so rather than guess one.
  output: q.output ? queryTypeWire(q.output) : { type: 'unsupported', unsupportedType: 'undeclared', params: {} },
  rid: q.rid,
  version: q.version,
  typeReferences: {},
});

export const actionTypeWireOf = (a: ActionTypeDef) => ({
  apiName: a.apiName,
  ...(a.description !== undefined ? { description: a.description } : {}),
  displayName: a.displayName,
  status: 'ACTIVE',
  parameters: Object.fromEntries(
    [...a.parameters.entries()].map(([name, p]) => [name, { displayName: name, dataType: actionTypeWire(p.dataType), required: p.required, typeClasses: [] }]),
  ),
  rid: a.rid,
  operations: operationsOf(a),
});

/** LogicRule entries, so that the client knows which object types an action creates or modifies. */
function operationsOf(a: ActionTypeDef) {
  const seen = new Set<string>();
  const out: Array<Record<string, unknown>> = [];
  for (const e of a.edits) {
    const type = e.kind === 'create' ? 'createObject' : e.kind === 'modify' ? 'modifyObject' : e.kind === 'delete' ? 'deleteObject' : undefined;
    if (!type || seen.has(`${type}:${e.objectType}`)) continue;
    seen.add(`${type}:${e.objectType}`);
    out.push({ type, objectTypeApiName: e.objectType });
  }
  return out;
}

export const fullMetadataWire = (o: OntologyRecord, interfaces: ReadonlyMap<string, InterfaceDef> = new Map()) => ({
  ontology: ontologyWire(o),
  objectTypes: Object.fromEntries(
    [...o.objectTypes.values()].map((t) => [
      t.apiName,
      objectTypeFullWire(
        t,
        [...interfaces.values()].flatMap((i) =>
          i.implementedBy.has(t.apiName) ? [[i.apiName, i.implementedBy.get(t.apiName)!] as [string, Record<string, string>]] : [],
        ),
      ),
    ]),
  ),
  actionTypes: Object.fromEntries([...o.actionTypes.values()].map((a) => [a.apiName, actionTypeWireOf(a)])),
  // The Python SDK's OntologyFullMetadata requires it; no logic rules are modelled beyond `operations`.
  actionTypesFullMetadata: Object.fromEntries([...o.actionTypes.values()].map((a) => [a.apiName, { actionType: actionTypeWireOf(a), fullLogicRules: [] }])),
  queryTypes: Object.fromEntries([...o.queryTypes.values()].map((q) => [`${q.apiName}:${q.version}`, queryTypeWireOf(q)])),
  interfaceTypes: Object.fromEntries([...interfaces.values()].map((i) => [i.apiName, interfaceTypeWire(i)])),
  sharedPropertyTypes: {},
  valueTypes: {},
});
