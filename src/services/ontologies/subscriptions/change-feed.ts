// The ontology change feed (docs/live-ontology.md): every writer of ontology objects (actions, function-backed
// actions, the control routes' object edits; a reset is heard through the app's reset hooks) says here, after
// its commit, which ontology changed. Listeners in this process hear it at once; other instances sharing the
// store (PostgreSQL) hear a hint through the store's notifications and read the objects table again, which
// stays the truth.
import type { Store } from '../../../store/store.js';

/** `undefined` types: anything in the ontology may have changed (a link pair, a reset). */
export type ChangeListener = (ontologyRid: string, objectTypes: ReadonlySet<string> | undefined) => void;

const listeners = new WeakMap<Store, Set<ChangeListener>>();

/** The hint topic other instances hear for a change to an ontology's objects. */
export const CHANGE_TOPIC = 'ontology-objects:';

/** Tells every listener of this store, then the other instances. Never throws, never waits. */
export function ontologyChanged(store: Store, ontologyRid: string, objectTypes?: Iterable<string>): void {
  const types = objectTypes === undefined ? undefined : new Set(objectTypes);
  for (const listener of listeners.get(store) ?? []) {
    try {
      listener(ontologyRid, types);
    } catch {
      // a listener's failure is its own: the writer has committed and goes on
    }
  }
  if (store.shared) store.notifications.publish(`${CHANGE_TOPIC}${ontologyRid}`);
}

/** Listens to changes committed through this store object (this process); returns the unsubscribe function. */
export function onOntologyChange(store: Store, listener: ChangeListener): () => void {
  let set = listeners.get(store);
  if (!set) listeners.set(store, (set = new Set()));
  set.add(listener);
  return () => void set.delete(listener);
}

/** The object types a batch of stored edits touches; undefined when a link pair changes (it may move any set). */
export function typesOfEdits(edits: ReadonlyArray<{ kind: string; objectType?: string }>): string[] | undefined {
  const types: string[] = [];
  for (const e of edits) {
    if (e.objectType === undefined) return undefined;
    types.push(e.objectType);
  }
  return types;
}
