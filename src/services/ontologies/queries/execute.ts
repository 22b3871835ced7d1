// Executing a seeded query (docs/contracts.md §5, §9): with declared parameters, they are checked first
// (UnknownParameter, MissingParameter, InvalidParameterValue); then the first case whose `when` equals the
// given values answers, else the seeded `result`. A query without declared parameters ignores them (SPEC §4.4).
import type { OntologyRecord } from '../../../store/store.js';
import { checkParameters, jsonEqual } from '../model/check-parameters.js';
import { queryTypeWire } from '../model/data-types.js';
import { quote } from '../../../errors.js';
import { names, shown } from '../reasons.js';
import { invalidParameterValue, missingParameter, queryNotFound, queryVersionNotFound, unknownParameter } from '../errors.js';

/** The JSON bytes to answer with. */
export function executeQuery(ontology: OntologyRecord, apiName: string, parameters: Record<string, unknown>, version?: string): Buffer {
  const result = ontology.queries.get(apiName);
  const query = ontology.queryTypes.get(apiName);
  if (result === undefined || !query)
    throw queryNotFound(apiName).because(`Ontology ${ontology.apiName} has no query ${quote(apiName)}; its queries are ${names(ontology.queryTypes.keys())}.`);
  if (version && version !== query.version)
    throw queryVersionNotFound(apiName, version).because(`Query ${apiName} is at version ${query.version}; the request asked for ${quote(version)}.`);
  if (query.parameters) {
    const check = checkParameters(query.parameters, parameters);
    const declared = [...query.parameters.keys()];
    if (check.unknown.length)
      throw unknownParameter(check.unknown, declared).because(
        `Query ${apiName} declares no parameter ${names(check.unknown)}; it declares ${names(declared)}.`,
      );
    if (check.missing.length)
      throw missingParameter(check.missing).because(
        `Query ${apiName} needs the parameter ${names(check.missing)}, which the request did not give (or gave as null).`,
      );
    const bad = check.invalid;
    if (bad)
      throw invalidParameterValue(bad.name, queryTypeWire(bad.dataType), bad.value).because(
        `Parameter ${bad.name} of query ${apiName} ${bad.problem}; the request gave ${shown(bad.value)}.`,
      );
  }
  // A case answers when its `when` equals the given parameters: the same names (absent and null alike) and values.
  const given = Object.fromEntries(Object.entries(parameters).filter(([, v]) => v !== null && v !== undefined));
  for (const c of query.cases) {
    const when = Object.fromEntries(Object.entries(c.when).filter(([, v]) => v !== null));
    if (jsonEqual(when, given)) return c.result;
  }
  return result;
}
