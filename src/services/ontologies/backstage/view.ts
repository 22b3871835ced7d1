// What the dashboard shows of an ontology beyond its queries: its object types (with how many objects each
// holds) and its action types. Read by shape rather than by type, because the object store lands from another
// branch (issue 12's `objectTypes`, `actionTypes` and `store.ontologyObjects`): until then both lists are
// empty, and afterwards they fill in without a change here.
import type { OntologyRecord, Store } from '../../../store/store.js';

interface NamedDef {
  apiName: string;
  displayName?: string;
}

interface WithDefinitions {
  objectTypes?: Map<string, NamedDef>;
  actionTypes?: Map<string, NamedDef>;
}

interface ObjectLister {
  list(ontologyRid: string, objectType: string): Promise<readonly unknown[]>;
  countOf?(ontologyRid: string, objectType: string): Promise<number>;
}

/** A type's object count, read as a count where the store can (a refresh must not read every object). */
async function countOf(objects: ObjectLister | undefined, ontologyRid: string, type: string): Promise<number | null> {
  if (typeof objects?.countOf === 'function') return objects.countOf(ontologyRid, type);
  return typeof objects?.list === 'function' ? (await objects.list(ontologyRid, type)).length : null;
}

export async function ontologyDefinitions(store: Store, ontology: OntologyRecord) {
  const record = ontology as OntologyRecord & WithDefinitions;
  const objects = (store as Store & { ontologyObjects?: ObjectLister }).ontologyObjects;
  const types = record.objectTypes instanceof Map ? [...record.objectTypes.values()] : [];
  const objectTypes = await Promise.all(
    types.map(async (t) => ({
      apiName: t.apiName,
      displayName: t.displayName ?? t.apiName,
      objects: await countOf(objects, ontology.rid, t.apiName),
    })),
  );
  const actionTypes = record.actionTypes instanceof Map ? [...record.actionTypes.values()].map((a) => a.apiName) : [];
  return { objectTypes, actionTypes };
}
