// Executing a seeded query (CONTRACTS §5, §9): with declared parameters, they are checked first
// (UnknownParameter, MissingParameter, InvalidParameterValue); then the first case whose `when` equals the
// given values answers, else the seeded `result`. A query without declared parameters ignores them (SPEC §4.4).
import type { OntologyRecord } from '../../../store/store.js';
import { checkParameters, jsonEqual } from '../model/check-parameters.js';
import { queryTypeWire } from '../model/data-types.js';
import { invalidParameterValue, missingParameter, queryNotFound, queryVersionNotFound, unknownParameter } from '../errors.js';

/** The JSON bytes to answer with. */
export function executeQuery(ontology: OntologyRecord, apiName: string, parameters: Record<string, unknown>, version?: string): Buffer {
  const result = ontology.queries.get(apiName);
  const query = ontology.queryTypes.get(apiName);
  if (result === undefined || !query) throw queryNotFound(apiName);
  if (version && version !== query.version) throw queryVersionNotFound(apiName, version);
  if (query.parameters) {
    const check = checkParameters(query.parameters, parameters);
    if (check.unknown.length) throw unknownParameter(check.unknown, [...query.parameters.keys()]);
    if (check.missing.length) throw missingParameter(check.missing);
    if (check.invalid) throw invalidParameterValue(check.invalid.name, queryTypeWire(check.invalid.dataType), check.invalid.value);
  }
  // A case answers when its `when` equals the given parameters: the same names (absent and null alike) and values.
  const given = Object.fromEntries(Object.entries(parameters).filter(([, v]) => v !== null && v !== undefined));
  for (const c of query.cases) {
    const when = Object.fromEntries(Object.entries(c.when).filter(([, v]) => v !== null));
    if (jsonEqual(when, given)) return c.result;
  }
  return result;
}
