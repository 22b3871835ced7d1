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
}

export async function ontologyDefinitions(store: Store, ontology: OntologyRecord) {
  const record = ontology as OntologyRecord & WithDefinitions;
  const objects = (store as Store & { ontologyObjects?: ObjectLister }).ontologyObjects;
  const types = record.objectTypes instanceof Map ? [...record.objectTypes.values()] : [];
  const objectTypes = await Promise.all(
    types.map(async (t) => ({
      apiName: t.apiName,
      displayName: t.displayName ?? t.apiName,
      objects: typeof objects?.list === 'function' ? (await objects.list(ontology.rid, t.apiName)).length : null,
    })),
  );
  const actionTypes = record.actionTypes instanceof Map ? [...record.actionTypes.values()].map((a) => a.apiName) : [];
  return { objectTypes, actionTypes };
}
