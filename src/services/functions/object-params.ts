// Object parameters of a function call (docs/functions.md, "Types"): the object a primary key names must exist
// in an ontology of the app that has its object type, checked before any job exists (the module never sees a
// call naming a missing object). Object sets are not resolved: the module gets the definition as given.
import type { Store } from '../../store/store.js';
import { invalidParameterValue, objectNotFound } from '../ontologies/errors.js';
import { queryDataTypeWire } from './types.js';
import type { FunctionQuery } from './registry.js';

export async function checkObjectParameters(store: Store, fn: FunctionQuery, query: Record<string, unknown>): Promise<void> {
  for (const p of fn.parameters) {
    const t = p.type.kind === 'optional' ? p.type.inner : p.type;
    const value = query[p.name];
    if (t.kind !== 'object' || value === undefined || value === null) continue;
    const ontologies = (await store.ontologies.list()).filter(
      (o) => (!fn.app.ontologies || fn.app.ontologies.includes(o.apiName)) && o.objectTypes.has(t.objectType),
    );
    if (ontologies.length === 0)
      throw invalidParameterValue(p.name, queryDataTypeWire(t), value).because(
        `Parameter ${p.name} of function ${fn.apiName} is an object of type ${t.objectType}, which no ontology of ${fn.app.deployedAppRid} has; no job was made.`,
      );
    let found = false;
    for (const o of ontologies) if (await store.ontologyObjects.get(o.rid, t.objectType, String(value))) found = true;
    if (!found)
      throw objectNotFound(t.objectType, value).because(
        `Parameter ${p.name} of function ${fn.apiName} names the ${t.objectType} with primary key ${JSON.stringify(value).slice(0, 100)}, which does not exist; no job was made.`,
      );
  }
}
