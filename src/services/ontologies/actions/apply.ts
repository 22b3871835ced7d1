// Applying an action (docs/contracts.md §9). Parameters not declared are ParametersNotFound and ill-typed values
// InvalidParameterValue (400s); a missing required parameter, an object parameter naming no object, or edits
// that cannot apply (a create whose key is taken, a modify of no object) make the validation INVALID, which
// the response reports with status 200 and nothing changed, as the platform does. Otherwise the edits are
// applied together (VALIDATE_AND_EXECUTE) or only tried (VALIDATE_ONLY).
import type { Store, OntologyRecord } from '../../../store/store.js';
import type { ActionTypeDef } from '../../../store/ontology-model.js';
import { checkParameters } from '../model/check-parameters.js';
import { actionTypeWire } from '../model/data-types.js';
import { invalidParameterValue, parametersNotFound } from '../errors.js';
import { names, shown } from '../reasons.js';
import { planEdits, type PlannedEdits } from './edits.js';
import { ontologyChanged, changedByEdits } from '../subscriptions/change-feed.js';
import { markFilesUsed } from '../attachments/used.js';

export interface Validation {
  result: 'VALID' | 'INVALID';
  submissionCriteria: Array<{ result: 'VALID' | 'INVALID'; configuredFailureMessage?: string }>;
  parameters: Record<string, { result: 'VALID' | 'INVALID'; evaluatedConstraints: never[]; required: boolean }>;
}

/** Checks one request's parameters and plans its edits; throws the 400s, reports the rest in the validation. */
export async function validate(
  store: Store,
  ontology: OntologyRecord,
  action: ActionTypeDef,
  given: Record<string, unknown>,
): Promise<{ validation: Validation; plan?: PlannedEdits }> {
  const check = checkParameters(action.parameters, given);
  const declared = [...action.parameters.keys()];
  if (check.unknown.length)
    throw parametersNotFound(action.apiName, check.unknown, declared).because(
      `Action ${action.apiName} declares no parameter ${names(check.unknown)}; it declares ${names(declared)}.`,
    );
  const bad = check.invalid;
  if (bad)
    throw invalidParameterValue(bad.name, actionTypeWire(bad.dataType), bad.value).because(
      `Parameter ${bad.name} of action ${action.apiName} ${bad.problem}; the request gave ${shown(bad.value)}.`,
    );
  const parameters: Validation['parameters'] = {};
  for (const [name, def] of action.parameters) {
    let ok = !check.missing.includes(name);
    const value = given[name];
    if (ok && def.dataType.type === 'object' && value !== undefined && value !== null) {
      ok = (await store.ontologyObjects.get(ontology.rid, def.dataType.objectType, String(value))) !== undefined;
    }
    parameters[name] = { result: ok ? 'VALID' : 'INVALID', evaluatedConstraints: [], required: def.required };
  }
  const validation: Validation = { result: 'VALID', submissionCriteria: [], parameters };
  if (Object.values(parameters).some((p) => p.result === 'INVALID')) return { validation: { ...validation, result: 'INVALID' } };
  const plan = await planEdits(store, ontology, action, given);
  if (plan.failure) return { validation: failed(validation, plan.failure) };
  return { validation, plan };
}

/** Why a validation is INVALID, in plain words, for the journal. */
export function whyInvalid(v: Validation): string {
  const params = Object.entries(v.parameters)
    .filter(([, p]) => p.result === 'INVALID')
    .map(([name]) => name);
  const criteria = v.submissionCriteria.flatMap((c) => (c.configuredFailureMessage ? [c.configuredFailureMessage] : []));
  return [...(params.length ? [`the parameter ${names(params)} is missing or names no object`] : []), ...criteria].join('; ');
}

export function failed(validation: Validation, message: string): Validation {
  return { ...validation, result: 'INVALID', submissionCriteria: [{ result: 'INVALID', configuredFailureMessage: message }] };
}

/** Applies (or with dryRun only tries) the planned edits; a store refusal is a validation failure. */
export async function commit(store: Store, ontology: OntologyRecord, plan: PlannedEdits, dryRun: boolean): Promise<string | undefined> {
  const outcome = await store.ontologyObjects.applyEdits(ontology.rid, plan.stored, { dryRun });
  if (outcome.ok && !dryRun) await markFilesUsed(store, plan.stored);
  if (outcome.ok && !dryRun) ontologyChanged(store, ontology.rid, changedByEdits(plan.stored));
  if (outcome.ok) return undefined;
  return outcome.problem === 'exists'
    ? `${outcome.objectType} ${String(outcome.primaryKey)} already exists`
    : `${outcome.objectType} ${String(outcome.primaryKey)} does not exist`;
}
