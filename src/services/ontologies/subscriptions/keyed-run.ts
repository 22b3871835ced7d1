// Which sets a run's changed objects may move (docs/live-ontology.md), for the sets made of filters over one
// type (SetWatch.keyedOn): an object matters to such a set only if it was a member (it may leave or change) or
// now passes the set's equality clause (it may enter). Sets are indexed per run by that clause's key and
// members are indexed by object (Holders), so an edit costs the sets it may move, not every set of its type:
// at 100 sets of one type, testing every set was a tenth of the server's time under a stream of edits.
import type { OntologyRecord, OntologyObjectRecord } from '../../../store/store.js';
import type { ChangedObject, RunReads, SetWatch } from './watch.js';
import type { Changed } from './change-feed.js';
import type { Holders } from './holders.js';

export interface KeyedRun {
  /** The one object type the run's change names by key. */
  objectType: string;
  /** Per keyed set of that type, the changed objects that may move it, in the change's order. */
  targets: Map<SetWatch, ChangedObject[]>;
}

/** The keyed sets' share of a run, or undefined when the change is not a list of keys of one type. */
export async function keyedRun(
  watches: Iterable<SetWatch>,
  ontology: OntologyRecord,
  changed: Changed,
  reads: RunReads,
  holders: Holders<SetWatch>,
): Promise<KeyedRun | undefined> {
  if (changed === undefined || changed.size !== 1) return undefined;
  const [objectType, keys] = changed.entries().next().value!;
  if (keys === 'all') return undefined;
  const byKey = new Map<string, SetWatch[]>();
  const everyObject: SetWatch[] = [];
  const fields = new Map<string, (o: OntologyObjectRecord) => string | undefined>();
  for (const watch of watches) {
    if (!watch.keyedOn(objectType)) continue;
    let equality;
    try {
      equality = watch.equalityFor(ontology);
    } catch {
      // The set no longer compiles: it sees every object, and its own refresh reports the error.
    }
    if (!equality) {
      everyObject.push(watch);
      continue;
    }
    fields.set(equality.field, equality.keyOf);
    const at = `${equality.field}\u0000${equality.key}`;
    const list = byKey.get(at);
    if (list) list.push(watch);
    else byKey.set(at, [watch]);
  }
  const targets = new Map<SetWatch, ChangedObject[]>();
  if (everyObject.length === 0 && byKey.size === 0) return { objectType, targets };
  const objects = await reads.changedOf(objectType, keys);
  const add = (watch: SetWatch, o: ChangedObject) => {
    const list = targets.get(watch);
    if (!list) targets.set(watch, [o]);
    else if (list[list.length - 1] !== o) list.push(o); // one object may reach a set both ways
  };
  for (const o of objects) {
    for (const watch of everyObject) add(watch, o);
    for (const watch of holders.of(o.id)) if (watch.keyedOn(objectType)) add(watch, o);
    if (o.record === undefined) continue;
    for (const [field, keyOf] of fields) {
      const key = keyOf(o.record);
      if (key !== undefined) for (const watch of byKey.get(`${field}\u0000${key}`) ?? []) add(watch, o);
    }
  }
  return { objectType, targets };
}
