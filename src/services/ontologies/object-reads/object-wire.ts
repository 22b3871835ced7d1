// An object on the wire (OntologyObjectV2): its properties plus `__apiName`, `__primaryKey`, `__title` and,
// unless excluded, `__rid`, as the typed client expects. RIDs are derived from (ontology, type, key), so they
// are stable across resets; each is computed once per stored record.
import type { OntologyObjectRecord } from '../../../store/ontology-objects.js';
import type { ObjectTypeDef } from '../../../store/ontology-model.js';
import { stableUuid } from '../../../ids.js';

const rids = new WeakMap<OntologyObjectRecord, string>();

export function objectRid(ontologyRid: string, o: OntologyObjectRecord): string {
  let rid = rids.get(o);
  if (rid === undefined) rids.set(o, (rid = `ri.phonograph2-objects.main.object.${stableUuid(`${ontologyRid}:${o.objectType}:${o.key}`)}`));
  return rid;
}

export interface WireOptions {
  /** Only these properties (the primary key's value is always in `__primaryKey`). */
  select?: ReadonlySet<string>;
  excludeRid?: boolean;
}

export function objectWire(ontologyRid: string, type: ObjectTypeDef, o: OntologyObjectRecord, options: WireOptions = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (options.select) {
    for (const p of options.select) if (o.values[p] !== undefined) out[p] = o.values[p];
  } else Object.assign(out, o.values);
  out.__apiName = type.apiName;
  out.__primaryKey = o.primaryKey;
  out.__title = o.values[type.titleProperty] ?? o.primaryKey;
  if (!options.excludeRid) out.__rid = objectRid(ontologyRid, o);
  return out;
}
