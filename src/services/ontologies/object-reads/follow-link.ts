// Following a link from a set of objects (docs/contracts.md §9): what link object sets, linked-object routes and
// derived properties share. Its own file, so that derived properties (which object sets evaluate) can use it
// without importing the evaluator.
import type { Store, OntologyObjectRecord } from '../../../store/store.js';
import type { LinkSideDef } from '../../../store/ontology-model.js';

/** The objects at the other end of `link` from `from`, each once, in the order met. */
export async function followLink(store: Store, ontologyRid: string, link: LinkSideDef, from: readonly OntologyObjectRecord[]): Promise<OntologyObjectRecord[]> {
  // By identity (type and key), not by reference: a store other than the memory one reads fresh records each time.
  const out = new Map<string, OntologyObjectRecord>();
  const add = (o: OntologyObjectRecord) => void (out.has(identity(o)) || out.set(identity(o), o));
  const via = link.via;
  if (via.kind === 'outgoing') {
    for (const o of from) {
      const v = o.values[via.property];
      const target = v === undefined ? undefined : await store.ontologyObjects.get(ontologyRid, link.target, String(v));
      if (target) add(target);
    }
  } else if (via.kind === 'incoming') {
    for (const t of await store.ontologyObjects.withValues(ontologyRid, link.target, via.property, new Set(from.map((o) => o.key)))) add(t);
  } else {
    for (const o of from) {
      for (const key of await store.ontologyObjects.paired(ontologyRid, via.linkId, via.side, o.key)) {
        const target = await store.ontologyObjects.get(ontologyRid, link.target, key);
        if (target) add(target);
      }
    }
  }
  return [...out.values()];
}

/** What makes two records the same object, whichever read they came from. */
export const identity = (o: OntologyObjectRecord): string => `${o.objectType}\u0000${o.key}`;
