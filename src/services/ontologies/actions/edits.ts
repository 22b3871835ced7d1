// An action's declarative edits with the given parameters filled in: the store edits to apply together and
// the SDK's ObjectEdit entries to report. A link edit becomes what stores the link: the foreign key on the
// side that holds it, or a many-to-many pair.
import type { Store, OntologyRecord, StoredEdit } from '../../../store/store.js';
import type { ActionTypeDef, EditTemplate, ObjectTypeDef } from '../../../store/ontology-model.js';
import { parameterRef } from '../model/compile-edits.js';
import { valueProblem } from '../model/data-types.js';
import { findObjectType } from '../context.js';
import { invalidPropertyValue } from '../errors.js';
import { storedFileValue } from '../attachments/values.js';

export interface WireEdit {
  type: 'addObject' | 'modifyObject' | 'deleteObject' | 'addLink' | 'deleteLink';
  [key: string]: unknown;
}

export interface PlannedEdits {
  stored: StoredEdit[];
  wire: WireEdit[];
  /** Why the edits cannot apply (an object a link names does not exist); the validation reports it. */
  failure?: string;
}

export async function planEdits(store: Store, ontology: OntologyRecord, action: ActionTypeDef, params: Record<string, unknown>): Promise<PlannedEdits> {
  const plan: PlannedEdits = { stored: [], wire: [] };
  const fill = (v: unknown): unknown => {
    const ref = parameterRef(v);
    return ref === undefined ? v : (params[ref] ?? null);
  };
  for (const e of action.edits) {
    const type = findObjectType(ontology, e.objectType);
    if (e.kind === 'create') {
      const values = typedValues(type, e.values, fill);
      const pk = values[type.primaryKey] as string | number | undefined;
      if (pk === undefined) throw invalidPropertyValue(type.primaryKey, 'primaryKey', null);
      plan.stored.push({ kind: 'create', objectType: type.apiName, primaryKey: pk, values });
      plan.wire.push({ type: 'addObject', objectType: type.apiName, primaryKey: pk });
      continue;
    }
    const pk = primaryKeyOf(type, fill(e.primaryKey));
    if (e.kind === 'modify') {
      plan.stored.push({ kind: 'modify', objectType: type.apiName, primaryKey: pk, set: typedValues(type, e.set, fill, true) });
      plan.wire.push({ type: 'modifyObject', objectType: type.apiName, primaryKey: pk });
    } else if (e.kind === 'delete') {
      plan.stored.push({ kind: 'delete', objectType: type.apiName, primaryKey: pk });
      plan.wire.push({ type: 'deleteObject', objectType: type.apiName, primaryKey: pk });
    } else {
      await planLink(store, ontology, type, e, pk, fill, plan);
    }
  }
  return plan;
}

async function planLink(
  store: Store,
  ontology: OntologyRecord,
  type: ObjectTypeDef,
  e: Extract<EditTemplate, { kind: 'link' | 'unlink' }>,
  pk: string | number,
  fill: (v: unknown) => unknown,
  plan: PlannedEdits,
) {
  const link = type.links.get(e.linkType)!;
  const targetType = findObjectType(ontology, link.target);
  const targetPk = primaryKeyOf(targetType, fill(e.target));
  for (const [t, key] of [
    [type, pk],
    [targetType, targetPk],
  ] as const) {
    if (!(await store.ontologyObjects.get(ontology.rid, t.apiName, String(key)))) plan.failure ??= `${t.apiName} ${String(key)} does not exist`;
  }
  const adding = e.kind === 'link';
  const via = link.via;
  if (via.kind !== 'pairs') {
    // The foreign key lives on the source (outgoing) or on the target (incoming); an unlink clears it only
    // when it names the other side, so unlinking objects that are not linked changes nothing.
    const [holderType, holderPk, otherPk] = via.kind === 'outgoing' ? [type, pk, targetPk] : [targetType, targetPk, pk];
    const holder = await store.ontologyObjects.get(ontology.rid, holderType.apiName, String(holderPk));
    if (adding || String(holder?.values[via.property]) === String(otherPk)) {
      plan.stored.push({ kind: 'modify', objectType: holderType.apiName, primaryKey: holderPk, set: { [via.property]: adding ? otherPk : null } });
    }
  } else {
    const [a, b] = via.side === 'a' ? [String(pk), String(targetPk)] : [String(targetPk), String(pk)];
    plan.stored.push({ kind: adding ? 'addPair' : 'removePair', linkId: via.linkId, a, b });
  }
  plan.wire.push({
    type: adding ? 'addLink' : 'deleteLink',
    linkTypeApiNameAtoB: link.apiName,
    linkTypeApiNameBtoA: link.reverse ?? '',
    aSideObject: { primaryKey: pk, objectType: type.apiName },
    bSideObject: { primaryKey: targetPk, objectType: targetType.apiName },
  });
}

/** Values written to properties, checked against the property types (a parameter may hold any declared type). */
function typedValues(type: ObjectTypeDef, template: Record<string, unknown>, fill: (v: unknown) => unknown, keepNulls = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(template)) {
    const value = fill(raw);
    if (value === null || value === undefined) {
      if (keepNulls) out[name] = null;
      continue;
    }
    const prop = type.properties.get(name)!;
    if (valueProblem(prop.dataType, value)) throw invalidPropertyValue(name, prop.dataType.type, value);
    out[name] = storedFileValue(prop.dataType.type, value);
  }
  return out;
}

function primaryKeyOf(type: ObjectTypeDef, value: unknown): string | number {
  const prop = type.properties.get(type.primaryKey)!;
  if (value === null || value === undefined || valueProblem(prop.dataType, value))
    throw invalidPropertyValue(type.primaryKey, prop.dataType.type, value ?? null);
  return value as string | number;
}

/** ObjectEdits (the SDK's `edits` of an apply response); `withDeletions` false drops the deletions (returnEdits ALL). */
export function editsWire(wire: WireEdit[], withDeletions: boolean) {
  const count = (t: WireEdit['type']) => wire.filter((w) => w.type === t).length;
  return {
    type: 'edits',
    edits: withDeletions ? wire : wire.filter((w) => w.type !== 'deleteObject' && w.type !== 'deleteLink'),
    addedObjectCount: count('addObject'),
    modifiedObjectsCount: count('modifyObject'),
    deletedObjectsCount: count('deleteObject'),
    addedLinksCount: count('addLink'),
    deletedLinksCount: count('deleteLink'),
  };
}
