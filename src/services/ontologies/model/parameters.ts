// Declared parameters of queries and actions: `name: type` or `name: {type: ..., required: false, description}`,
// required unless written so (docs/contracts.md §9).
import type { ParameterDef } from '../../../store/ontology-model.js';
import { isRecord, parseDataType } from './data-types.js';

export function parseParameters(raw: Record<string, unknown>, path: string, problems: string[]): Map<string, ParameterDef> {
  const out = new Map<string, ParameterDef>();
  for (const [name, spec] of Object.entries(raw)) {
    const at = `${path}.${name}`;
    let required = true;
    let typeSpec = spec;
    if (isRecord(spec) && ('required' in spec || 'description' in spec)) {
      const { required: r, description: _d, ...rest } = spec;
      if (r !== undefined && typeof r !== 'boolean') problems.push(`${at}.required: must be true or false`);
      required = r !== false;
      typeSpec = rest;
    }
    const dataType = parseDataType(typeSpec, at, 'parameter', problems);
    if (dataType) out.set(name, { dataType, required });
  }
  return out;
}
