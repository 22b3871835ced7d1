// An ontology in the seed's own shape (docs/contracts.md §9), for the state export: the definitions as compiled from
// the seed, written back in a form the seed loader reads to the same definitions (rids included, so that
// object and type rids stay the same), and the objects and many-to-many pairs as they are now (actions and
// the control routes change them). Applying what this returns gives the same records back.
// A seed may not hold a foreign-key value or a pair that names no object, but an action that deletes an
// object can leave one behind; such values and pairs are left out (reported through `dropped`), since they
// answer no link anyway.
import type { OntologyRecord, Store } from '../../store/store.js';
import { defined } from '../../seed/helpers.js';
import type { ActionTypeDef, DataType, EditTemplate, ObjectTypeDef, ParameterDef, QueryDef } from '../../store/ontology-model.js';

/** A data type as the seed writes it: a name for a scalar, else the long form parseDataType reads. */
export function dataTypeSeed(t: DataType): unknown {
  if (t.type === 'array') return { type: 'array', subType: dataTypeSeed(t.subType) };
  if (t.type === 'struct') return { type: 'struct', fields: t.fields.map((f) => ({ name: f.name, fieldType: dataTypeSeed(f.type) })) };
  if (t.type === 'object') return { type: 'object', objectTypeApiName: t.objectType };
  return t.type;
}

function parametersSeed(parameters: Map<string, ParameterDef>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, p] of parameters) {
    const type = dataTypeSeed(p.dataType);
    out[name] = p.required ? type : { ...(typeof type === 'string' ? { type } : (type as object)), required: false };
  }
  return out;
}

const json = (bytes: Buffer): unknown => (bytes.length === 0 ? null : JSON.parse(bytes.toString('utf8')));

function querySeed(apiName: string, result: Buffer, q: QueryDef | undefined) {
  return defined({
    api_name: apiName,
    version: q && q.version !== '0.0.0' ? q.version : undefined,
    display_name: q?.displayName,
    description: q?.description,
    parameters: q?.parameters && parametersSeed(q.parameters),
    output: q?.output && dataTypeSeed(q.output),
    cases: q?.cases.length ? q.cases.map((c) => ({ when: c.when, result: json(c.result) })) : undefined,
    result: json(result),
  });
}

function editSeed(e: EditTemplate): Record<string, unknown> {
  switch (e.kind) {
    case 'create':
      return { create: e.objectType, values: e.values };
    case 'modify':
      return { modify: e.objectType, primary_key: e.primaryKey, set: e.set };
    case 'delete':
      return { delete: e.objectType, primary_key: e.primaryKey };
    default:
      return { [e.kind]: e.objectType, primary_key: e.primaryKey, link_type: e.linkType, target: e.target };
  }
}

const actionSeed = (a: ActionTypeDef) =>
  defined({
    api_name: a.apiName,
    rid: a.rid,
    display_name: a.displayName,
    description: a.description,
    parameters: parametersSeed(a.parameters),
    edits: a.edits.map(editSeed),
    function: a.function,
  });

/** The primary key's own value for a store key (a number for numeric keys). */
const pkOf = (type: ObjectTypeDef, key: string): string | number => (type.properties.get(type.primaryKey)?.dataType.type === 'string' ? key : Number(key));

export async function ontologySeedOf(store: Store, o: OntologyRecord, dropped: string[]) {
  const keysOf = new Map<string, Set<string>>();
  const objects: Record<string, Array<Record<string, unknown>>> = {};
  for (const type of o.objectTypes.values()) {
    const list = await store.ontologyObjects.list(o.rid, type.apiName);
    keysOf.set(type.apiName, new Set(list.map((r) => r.key)));
  }
  for (const type of o.objectTypes.values()) {
    const fks = [...type.links.values()].flatMap((l) => (l.via.kind === 'outgoing' ? [{ property: l.via.property, target: l.target }] : []));
    const list = await store.ontologyObjects.list(o.rid, type.apiName);
    if (list.length === 0) continue;
    objects[type.apiName] = list.map((r) => {
      const bad = fks.filter((fk) => r.values[fk.property] !== undefined && !keysOf.get(fk.target)?.has(String(r.values[fk.property])));
      if (bad.length === 0) return { ...r.values };
      const values = { ...r.values };
      for (const fk of bad) {
        dropped.push(`${o.apiName}: ${type.apiName} ${r.key}.${fk.property} names ${fk.target} ${String(values[fk.property])}, which no longer exists`);
        delete values[fk.property];
      }
      return values;
    });
  }
  const objectTypes = [];
  for (const type of o.objectTypes.values()) {
    const links = [];
    for (const l of type.links.values()) {
      if (l.via.kind === 'incoming' || (l.via.kind === 'pairs' && l.via.side === 'b')) continue; // the reverse side of a link written on the other type
      const reverse = l.reverse === undefined ? undefined : o.objectTypes.get(l.target)?.links.get(l.reverse);
      const common = { api_name: l.apiName, display_name: l.displayName, target: l.target, reverse: l.reverse, reverse_display_name: reverse?.displayName };
      if (l.via.kind === 'outgoing') {
        links.push(defined({ ...common, foreign_key: l.via.property }));
        continue;
      }
      const target = o.objectTypes.get(l.target)!;
      const pairs: Array<[string | number, string | number]> = [];
      for (const [a, b] of await store.ontologyObjects.pairsOf(o.rid, l.via.linkId)) {
        if (keysOf.get(type.apiName)?.has(a) && keysOf.get(l.target)?.has(b)) pairs.push([pkOf(type, a), pkOf(target, b)]);
        else dropped.push(`${o.apiName}: pair [${a}, ${b}] of ${type.apiName}.${l.apiName} names an object that no longer exists`);
      }
      links.push(defined({ ...common, pairs }));
    }
    objectTypes.push(
      defined({
        api_name: type.apiName,
        rid: type.rid,
        display_name: type.displayName,
        plural_display_name: type.pluralDisplayName,
        description: type.description,
        primary_key: type.primaryKey,
        title_property: type.titleProperty,
        properties: Object.fromEntries([...type.properties.values()].map((p) => [p.apiName, dataTypeSeed(p.dataType)])),
        links,
      }),
    );
  }
  return defined({
    rid: o.rid,
    api_name: o.apiName,
    display_name: o.displayName,
    description: o.description,
    object_types: objectTypes.length ? objectTypes : undefined,
    objects: Object.keys(objects).length ? objects : undefined,
    queries: [...o.queries].map(([apiName, bytes]) => querySeed(apiName, bytes, o.queryTypes.get(apiName))),
    action_types: o.actionTypes.size ? [...o.actionTypes.values()].map(actionSeed) : undefined,
  });
}
