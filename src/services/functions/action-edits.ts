// Function-backed actions (docs/functions.md, "Function-backed actions"): the edits a module's function returns,
// in the form of the platform's public example serializer, read into the ontology's edit templates after every
// edit is checked against the ontology. An edit that does not fit (unknown object type, property or link type,
// a value of the wrong type, no primary key) fails the whole action, naming the edit, before anything is applied.
import type { OntologyRecord } from '../../store/store.js';
import type { EditTemplate } from '../../store/ontology-model.js';
import { isRecord, valueProblem } from '../ontologies/model/data-types.js';
import { shown } from '../ontologies/reasons.js';
import { quote } from '../../errors.js';

/** A name as a reason shows it: quoted when a string, else as JSON. */
const named = (v: unknown): string => (typeof v === 'string' ? quote(v) : shown(v));

export interface ReadEdits {
  templates: EditTemplate[];
  /** What `planEdits` fills `$name` placeholders from: here each literal `$...` string maps to itself. */
  literals: Record<string, unknown>;
}

const KINDS = ['addObject', 'modifyObject', 'deleteObject', 'addLink', 'removeLink'] as const;

/** The templates, or the problem naming the first edit that does not fit. */
export function readModuleEdits(ontology: OntologyRecord, raw: unknown): ReadEdits | { problem: string } {
  const list = Array.isArray(raw) ? raw : isRecord(raw) && Array.isArray(raw.edits) ? raw.edits : undefined;
  if (!list) return { problem: `the function returned ${shown(raw)}, not a list of edits` };
  const templates: EditTemplate[] = [];
  const literals: Record<string, unknown> = {};
  const keep = (v: unknown) => {
    if (typeof v === 'string' && v.startsWith('$') && v.length > 1) literals[v.slice(1)] = v;
    return v;
  };
  for (const [i, e] of list.entries()) {
    const at = `edit [${i}]`;
    const kind = isRecord(e) && typeof e.type === 'string' ? (KINDS as readonly string[]).find((k) => k === e.type) : undefined;
    const body = kind && isRecord(e) && isRecord(e[kind]) ? (e[kind] as Record<string, unknown>) : undefined;
    if (!kind || !body) return { problem: `${at} is ${shown(e)}; an edit is {type: ${KINDS.join(' | ')}, <type>: {...}}` };
    if (kind === 'addLink' || kind === 'removeLink') {
      const source = locator(ontology, body.source, `${at}.source`);
      if ('problem' in source) return source;
      const target = locator(ontology, body.target, `${at}.target`);
      if ('problem' in target) return target;
      const link = typeof body.linkTypeId === 'string' ? ontology.objectTypes.get(source.type)!.links.get(body.linkTypeId) : undefined;
      if (!link || link.target !== target.type) return { problem: `${at}.linkTypeId: ${source.type} has no link ${named(body.linkTypeId)} to ${target.type}` };
      templates.push({
        kind: kind === 'addLink' ? 'link' : 'unlink',
        objectType: source.type,
        primaryKey: keep(source.primaryKey),
        linkType: link.apiName,
        target: keep(target.primaryKey),
      });
      continue;
    }
    const loc = locator(ontology, body.locator, `${at}.locator`);
    if ('problem' in loc) return loc;
    if (kind === 'deleteObject') {
      templates.push({ kind: 'delete', objectType: loc.type, primaryKey: keep(loc.primaryKey) });
      continue;
    }
    const values = body.propertyValues === undefined ? {} : body.propertyValues;
    if (!isRecord(values)) return { problem: `${at}.propertyValues must be a mapping of property values` };
    const type = ontology.objectTypes.get(loc.type)!;
    for (const [name, v] of Object.entries(values)) {
      const prop = type.properties.get(name);
      if (!prop) return { problem: `${at}.propertyValues: ${loc.type} has no property ${named(name)}` };
      const p = v === null ? undefined : valueProblem(prop.dataType, v);
      if (p) return { problem: `${at}.propertyValues.${name} ${p}; the function gave ${shown(v)}` };
      keep(v);
    }
    if (kind === 'addObject') templates.push({ kind: 'create', objectType: loc.type, values: { ...values, [type.primaryKey]: loc.primaryKey } });
    else templates.push({ kind: 'modify', objectType: loc.type, primaryKey: loc.primaryKey, set: values });
  }
  return { templates, literals };
}

function locator(ontology: OntologyRecord, raw: unknown, at: string): { type: string; primaryKey: string | number } | { problem: string } {
  if (!isRecord(raw)) return { problem: `${at} must be {typeId, primaryKey}` };
  const type = typeof raw.typeId === 'string' ? ontology.objectTypes.get(raw.typeId) : undefined;
  if (!type) return { problem: `${at}.typeId: ontology ${ontology.apiName} has no object type ${named(raw.typeId)}` };
  const pkType = type.properties.get(type.primaryKey)!.dataType;
  const pk = raw.primaryKey;
  if ((typeof pk !== 'string' && typeof pk !== 'number') || valueProblem(pkType, pk))
    return { problem: `${at}.primaryKey: ${shown(pk)} is not a primary key of ${type.apiName} (${pkType.type})` };
  return { type: type.apiName, primaryKey: pk };
}
