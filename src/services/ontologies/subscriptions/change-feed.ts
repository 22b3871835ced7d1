// The ontology change feed (docs/live-ontology.md): every writer of ontology objects (actions, function-backed
// actions, the control routes' object edits; a reset is heard through the app's reset hooks) says here, after
// its commit, which ontology changed. Listeners in this process hear it at once; other instances sharing the
// store (PostgreSQL) hear a hint through the store's notifications and read the objects table again, which
// stays the truth.
import type { Store } from '../../../store/store.js';

/**
 * What changed: per object type, the keys of the objects that changed, or `all` when any of the type's may
 * have; `undefined`: anything in the ontology (a link pair, a reset).
 */
export type Changed = ReadonlyMap<string, ReadonlySet<string> | 'all'> | undefined;
export type ChangeListener = (ontologyRid: string, changed: Changed) => void;

const listeners = new WeakMap<Store, Set<ChangeListener>>();

/** The hint topic other instances hear for a change to an ontology's objects. */
export const CHANGE_TOPIC = 'ontology-objects:';

/** Tells every listener of this store, then the other instances. Never throws, never waits. */
export function ontologyChanged(store: Store, ontologyRid: string, changed?: Changed): void {
  for (const listener of listeners.get(store) ?? []) {
    try {
      listener(ontologyRid, changed);
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

/** The objects a batch of stored edits touches; undefined when a link pair changes (it may move any set). */
export function changedByEdits(edits: ReadonlyArray<{ kind: string; objectType?: string; primaryKey?: string | number }>): Changed {
  const changed = new Map<string, Set<string>>();
  for (const e of edits) {
    if (e.objectType === undefined || e.primaryKey === undefined) return undefined;
    let keys = changed.get(e.objectType);
    if (!keys) changed.set(e.objectType, (keys = new Set()));
    keys.add(String(e.primaryKey));
  }
  return changed;
}

/** One object changed. */
export const changedObject = (objectType: string, key: string): Changed => new Map([[objectType, new Set([key])]]);
