// Given parameter values against declared parameters, shared by queries and actions: which are unknown,
// which required ones are missing, and the first ill-typed value. Callers turn these into their own errors.
import type { DataType, ParameterDef } from '../../../store/ontology-model.js';
import { valueProblem } from './data-types.js';

export interface ParameterCheck {
  unknown: string[];
  missing: string[];
  invalid?: { name: string; dataType: DataType; value: unknown; problem: string };
}

export function checkParameters(declared: Map<string, ParameterDef>, given: Record<string, unknown>): ParameterCheck {
  const unknown = Object.keys(given).filter((k) => !declared.has(k));
  const missing: string[] = [];
  let invalid: ParameterCheck['invalid'];
  for (const [name, def] of declared) {
    const value = given[name];
    if (value === undefined || value === null) {
      if (def.required) missing.push(name);
      continue;
    }
    const problem = valueProblem(def.dataType, value);
    if (problem && !invalid) invalid = { name, dataType: def.dataType, value, problem };
  }
  return { unknown, missing, invalid };
}

/** Deep equality of JSON values (a query case's `when` against the given parameters). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
