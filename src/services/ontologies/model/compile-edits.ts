// An action type's declarative edits (docs/contracts.md §9): `{create: T, values}`, `{modify: T, primary_key, set}`,
// `{delete: T, primary_key}`, `{link|unlink: T, primary_key, link_type, target}`. A string `$name` stands for
// the parameter `name`; every other value is a literal, checked against the property it is written to.
import type { EditTemplate, ObjectTypeDef, ParameterDef } from '../../../store/ontology-model.js';
import { short, valueProblem } from './data-types.js';

type EditSeed = {
  create?: string;
  modify?: string;
  delete?: string;
  link?: string;
  unlink?: string;
  values?: Record<string, unknown>;
  set?: Record<string, unknown>;
  primary_key?: unknown;
  link_type?: string;
  target?: unknown;
};

const OPS = ['create', 'modify', 'delete', 'link', 'unlink'] as const;
const KEYS: Record<(typeof OPS)[number], string[]> = {
  create: ['values'],
  modify: ['primary_key', 'set'],
  delete: ['primary_key'],
  link: ['primary_key', 'link_type', 'target'],
  unlink: ['primary_key', 'link_type', 'target'],
};

/** The parameter a value names (`$name`), else undefined for a literal. */
export const parameterRef = (v: unknown): string | undefined => (typeof v === 'string' && v.startsWith('$') && v.length > 1 ? v.slice(1) : undefined);

export function compileEdits(
  edits: EditSeed[],
  parameters: Map<string, ParameterDef>,
  types: Map<string, ObjectTypeDef>,
  path: string,
  problems: string[],
): EditTemplate[] {
  const out: EditTemplate[] = [];
  for (const [i, e] of edits.entries()) {
    const at = `${path}[${i}]`;
    const ops = OPS.filter((op) => e[op] !== undefined);
    if (ops.length !== 1) {
      problems.push(`${at}: give exactly one of ${OPS.join(', ')}`);
      continue;
    }
    const op = ops[0]!;
    const typeName = e[op]!;
    const type = types.get(typeName);
    if (!type) {
      problems.push(`${at}.${op}: no object type "${short(typeName)}"`);
      continue;
    }
    const allowed = KEYS[op];
    let ok = true;
    for (const key of Object.keys(e)) {
      if (key !== op && !allowed.includes(key)) {
        problems.push(`${at}.${key}: not used by a ${op} edit (it takes ${allowed.join(', ')})`);
        ok = false;
      }
    }
    for (const key of allowed) {
      if (e[key as keyof EditSeed] === undefined) {
        problems.push(`${at}.${key}: required for a ${op} edit`);
        ok = false;
      }
    }
    if (!ok) continue;
    const checkRef = (value: unknown, where: string, property?: string) => {
      const ref = parameterRef(value);
      if (ref !== undefined) {
        if (!parameters.has(ref))
          problems.push(`${where}: $${short(ref)} is not a declared parameter (declared: ${[...parameters.keys()].join(', ') || 'none'})`);
        return;
      }
      const prop = property === undefined ? undefined : type.properties.get(property);
      const why = prop && value !== null ? valueProblem(prop.dataType, value) : undefined;
      if (why) problems.push(`${where}: ${why}`);
    };
    const checkValues = (values: Record<string, unknown>, where: string) => {
      for (const [name, value] of Object.entries(values)) {
        if (!type.properties.has(name)) problems.push(`${where}.${name}: not a property of ${type.apiName}`);
        else checkRef(value, `${where}.${name}`, name);
      }
    };
    if (op === 'create') {
      checkValues(e.values!, `${at}.values`);
      if (!(type.primaryKey in e.values!)) problems.push(`${at}.values.${type.primaryKey}: required (the primary key)`);
      out.push({ kind: 'create', objectType: typeName, values: e.values! });
      continue;
    }
    checkRef(e.primary_key, `${at}.primary_key`, type.primaryKey);
    if (op === 'modify') {
      checkValues(e.set!, `${at}.set`);
      if (type.primaryKey in e.set!) problems.push(`${at}.set.${type.primaryKey}: the primary key cannot be changed`);
      out.push({ kind: 'modify', objectType: typeName, primaryKey: e.primary_key, set: e.set! });
    } else if (op === 'delete') {
      out.push({ kind: 'delete', objectType: typeName, primaryKey: e.primary_key });
    } else {
      const link = type.links.get(e.link_type!);
      if (!link) problems.push(`${at}.link_type: ${type.apiName} has no link "${short(e.link_type!)}" (links: ${[...type.links.keys()].join(', ') || 'none'})`);
      else if (parameterRef(e.target) !== undefined) checkRef(e.target, `${at}.target`);
      out.push({ kind: op, objectType: typeName, primaryKey: e.primary_key, linkType: e.link_type!, target: e.target });
    }
  }
  return out;
}
