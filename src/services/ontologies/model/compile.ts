// Seed ontology -> definitions, objects and pairs, with every problem the shapes could not catch (docs/contracts.md §9):
// data types, property values against their types, unique primary keys, foreign keys and pairs pointing at
// existing objects, link and edit references resolving, `$parameters` declared. Used by the seed loader (for
// the problems) and by applySeed (for the records); a seed is compiled once and the result reused on reset.
import type { OntologySeed } from '../seed-schema.js';
import type { ActionTypeDef, DataType, EditTemplate, LinkSideDef, ObjectTypeDef, PropertyDef, QueryDef } from '../../../store/ontology-model.js';
import type { OntologyObjectRecord } from '../../../store/ontology-objects.js';
import { stableUuid } from '../../../ids.js';
import { parseDataType, short, valueProblem } from './data-types.js';
import { parseParameters } from './parameters.js';
import { compileEdits } from './compile-edits.js';

export interface CompiledOntology {
  objectTypes: Map<string, ObjectTypeDef>;
  queryTypes: Map<string, QueryDef>;
  actionTypes: Map<string, ActionTypeDef>;
  objects: OntologyObjectRecord[];
  /** Many-to-many pairs by link id: [source key, target key]. */
  pairs: Map<string, Array<[string, string]>>;
  problems: string[];
}

const PRIMARY_KEY_TYPES = ['string', 'integer', 'long', 'short', 'byte'];

export function compileOntology(o: OntologySeed, ontologyRid: string, path: string): CompiledOntology {
  const problems: string[] = [];
  const rid = (kind: string, key: string) => `ri.ontology.main.${kind}.${stableUuid(`${ontologyRid}:${kind}:${key}`)}`;
  const objectTypes = new Map<string, ObjectTypeDef>();

  for (const [i, t] of o.object_types.entries()) {
    const at = `${path}.object_types[${i}]`;
    if (objectTypes.has(t.api_name)) {
      problems.push(`${at}.api_name: duplicate object type "${short(t.api_name)}"`);
      continue;
    }
    const properties = new Map<string, PropertyDef>();
    for (const [name, raw] of Object.entries(t.properties)) {
      const dataType = parseDataType(raw, `${at}.properties.${name}`, 'property', problems);
      if (dataType) properties.set(name, { apiName: name, dataType, rid: rid('property', `${t.api_name}.${name}`) });
    }
    const pk = properties.get(t.primary_key);
    if (!(t.primary_key in t.properties)) problems.push(`${at}.primary_key: "${short(t.primary_key)}" is not one of the properties`);
    else if (pk && !PRIMARY_KEY_TYPES.includes(pk.dataType.type))
      problems.push(`${at}.primary_key: a primary key must be of type ${PRIMARY_KEY_TYPES.join(', ')}`);
    const title = t.title_property ?? t.primary_key;
    if (!(title in t.properties)) problems.push(`${at}.title_property: "${short(title)}" is not one of the properties`);
    const displayName = t.display_name ?? t.api_name;
    objectTypes.set(t.api_name, {
      apiName: t.api_name,
      displayName,
      pluralDisplayName: t.plural_display_name ?? `${displayName}s`,
      description: t.description,
      rid: t.rid ?? rid('object-type', t.api_name),
      primaryKey: t.primary_key,
      titleProperty: title,
      properties,
      links: new Map(),
    });
  }

  const { objects, byType } = compileObjects(o, objectTypes, path, problems);
  const pairs = compileLinks(o, objectTypes, byType, ontologyRid, path, problems);

  const queryTypes = new Map<string, QueryDef>();
  for (const [i, q] of o.queries.entries()) {
    const at = `${path}.queries[${i}]`;
    if (queryTypes.has(q.api_name)) continue; // applySeed warns about the duplicate
    const parameters = q.parameters && parseParameters(q.parameters, `${at}.parameters`, problems);
    const output = q.output === undefined ? undefined : parseDataType(q.output, `${at}.output`, 'parameter', problems);
    const cases = (q.cases ?? []).map((c, j) => {
      for (const [name, value] of Object.entries(c.when)) {
        if (!parameters) continue;
        const p = parameters.get(name);
        if (!p) problems.push(`${at}.cases[${j}].when.${name}: not a declared parameter (declared: ${[...parameters.keys()].join(', ') || 'none'})`);
        else if (value !== null) {
          const why = valueProblem(p.dataType, value);
          if (why) problems.push(`${at}.cases[${j}].when.${name}: ${why}`);
        }
      }
      return { when: c.when, result: Buffer.from(JSON.stringify(c.result) ?? 'null') };
    });
    queryTypes.set(q.api_name, {
      apiName: q.api_name,
      version: q.version ?? '0.0.0',
      rid: `ri.function-registry.main.function.${stableUuid(`${ontologyRid}:query:${q.api_name}`)}`,
      displayName: q.display_name,
      description: q.description,
      parameters,
      output,
      cases,
    });
  }

  const actionTypes = new Map<string, ActionTypeDef>();
  for (const [i, a] of o.action_types.entries()) {
    const at = `${path}.action_types[${i}]`;
    if (actionTypes.has(a.api_name)) {
      problems.push(`${at}.api_name: duplicate action type "${short(a.api_name)}"`);
      continue;
    }
    const parameters = parseParameters(a.parameters, `${at}.parameters`, problems);
    for (const [name, p] of parameters) {
      const target = p.dataType.type === 'object' ? p.dataType.objectType : undefined;
      if (target && !objectTypes.has(target)) problems.push(`${at}.parameters.${name}.objectTypeApiName: no object type "${short(target)}"`);
    }
    const edits: EditTemplate[] = compileEdits(a.edits, parameters, objectTypes, `${at}.edits`, problems);
    if (a.function !== undefined && a.edits.length > 0)
      problems.push(`${at}.function: an action type takes its edits from the function or from \`edits\`, not both`);
    actionTypes.set(a.api_name, {
      apiName: a.api_name,
      rid: a.rid ?? `ri.actions.main.action-type.${stableUuid(`${ontologyRid}:action:${a.api_name}`)}`,
      displayName: a.display_name ?? a.api_name,
      description: a.description,
      parameters,
      edits,
      ...(a.function !== undefined ? { function: a.function } : {}),
    });
  }
  return { objectTypes, queryTypes, actionTypes, objects, pairs, problems };
}

function compileObjects(o: OntologySeed, types: Map<string, ObjectTypeDef>, path: string, problems: string[]) {
  const objects: OntologyObjectRecord[] = [];
  const byType = new Map<string, Map<string, OntologyObjectRecord>>();
  for (const [typeName, list] of Object.entries(o.objects)) {
    const type = types.get(typeName);
    if (!type) {
      problems.push(`${path}.objects.${typeName}: no object type "${short(typeName)}" (object types: ${[...types.keys()].join(', ') || 'none'})`);
      continue;
    }
    const keys = new Map<string, OntologyObjectRecord>();
    byType.set(typeName, keys);
    for (const [k, raw] of list.entries()) {
      const at = `${path}.objects.${typeName}[${k}]`;
      const values: Record<string, unknown> = {};
      let ok = true;
      for (const [name, value] of Object.entries(raw)) {
        const prop = type.properties.get(name);
        if (!prop) {
          problems.push(`${at}.${name}: not a property of ${typeName} (properties: ${[...type.properties.keys()].join(', ')})`);
          ok = false;
        } else if (value !== null) {
          const why = valueProblem(prop.dataType, value);
          if (why) {
            problems.push(`${at}.${name}: ${why}`);
            ok = false;
          } else values[name] = value;
        }
      }
      const pk = values[type.primaryKey] as string | number | undefined;
      if (pk === undefined) {
        if (ok) problems.push(`${at}.${type.primaryKey}: required (the primary key)`);
        continue;
      }
      const key = String(pk);
      if (keys.has(key)) problems.push(`${at}.${type.primaryKey}: duplicate primary key ${short(key)}`);
      else if (ok) {
        // The seed's own mapping when it holds no nulls (it is never changed): one copy of 100,000 objects, not two.
        const same = Object.keys(values).length === Object.keys(raw).length;
        const record: OntologyObjectRecord = { objectType: typeName, primaryKey: pk, key, values: same ? raw : values };
        keys.set(key, record);
        objects.push(record);
      }
    }
  }
  return { objects, byType };
}

function compileLinks(
  o: OntologySeed,
  types: Map<string, ObjectTypeDef>,
  byType: Map<string, Map<string, OntologyObjectRecord>>,
  ontologyRid: string,
  path: string,
  problems: string[],
): Map<string, Array<[string, string]>> {
  const pairs = new Map<string, Array<[string, string]>>();
  const addSide = (side: LinkSideDef, at: string) => {
    const owner = types.get(side.source)!;
    if (owner.links.has(side.apiName)) problems.push(`${at}: ${side.source} already has a link "${short(side.apiName)}"`);
    else owner.links.set(side.apiName, side);
  };
  for (const [i, t] of o.object_types.entries()) {
    const source = types.get(t.api_name);
    if (!source) continue;
    for (const [j, l] of t.links.entries()) {
      const at = `${path}.object_types[${i}].links[${j}]`;
      const target = types.get(l.target);
      if (!target) {
        problems.push(`${at}.target: no object type "${short(l.target)}"`);
        continue;
      }
      if ((l.foreign_key === undefined) === (l.pairs === undefined)) {
        problems.push(`${at}: give exactly one of foreign_key (one-to-many) or pairs (many-to-many)`);
        continue;
      }
      const linkId = `${t.api_name}.${l.api_name}`;
      const linkTypeRid = `ri.ontology.main.relation.${stableUuid(`${ontologyRid}:link:${linkId}`)}`;
      // The link as seen from its source, and from its target when it names a reverse (always MANY from there).
      const addBothSides = (cardinality: LinkSideDef['cardinality'], via: LinkSideDef['via'], reverseVia: LinkSideDef['via']) => {
        const forward = { linkTypeRid, apiName: l.api_name, displayName: l.display_name ?? l.api_name, source: t.api_name, target: l.target };
        addSide({ ...forward, cardinality, reverse: l.reverse, via }, `${at}.api_name`);
        if (!l.reverse) return;
        const back = { linkTypeRid, apiName: l.reverse, displayName: l.reverse_display_name ?? l.reverse, source: l.target, target: t.api_name };
        addSide({ ...back, cardinality: 'MANY', reverse: l.api_name, via: reverseVia }, `${at}.reverse`);
      };
      if (l.foreign_key !== undefined) {
        const fk = source.properties.get(l.foreign_key);
        const targetPk = target.properties.get(target.primaryKey);
        if (!fk) {
          problems.push(`${at}.foreign_key: "${short(l.foreign_key)}" is not a property of ${t.api_name}`);
          continue;
        }
        if (targetPk && !sameType(fk.dataType, targetPk.dataType))
          problems.push(`${at}.foreign_key: ${l.foreign_key} is ${fk.dataType.type} but ${target.apiName}.${target.primaryKey} is ${targetPk.dataType.type}`);
        for (const [k, obj] of [...(byType.get(t.api_name)?.values() ?? [])].entries()) {
          const v = obj.values[l.foreign_key];
          if (v !== undefined && !byType.get(l.target)?.has(String(v)))
            problems.push(`${path}.objects.${t.api_name}[${k}].${l.foreign_key}: no ${l.target} with primary key ${short(String(v))}`);
        }
        addBothSides('ONE', { kind: 'outgoing', property: l.foreign_key }, { kind: 'incoming', property: l.foreign_key });
      } else {
        const list: Array<[string, string]> = [];
        for (const [n, pair] of (l.pairs ?? []).entries()) {
          if (pair.length !== 2) {
            problems.push(`${at}.pairs[${n}]: must be [this side's primary key, the target's primary key]`);
            continue;
          }
          const [a, b] = pair.map((v) => String(v)) as [string, string];
          if (!byType.get(t.api_name)?.has(a)) problems.push(`${at}.pairs[${n}][0]: no ${t.api_name} with primary key ${short(a)}`);
          else if (!byType.get(l.target)?.has(b)) problems.push(`${at}.pairs[${n}][1]: no ${l.target} with primary key ${short(b)}`);
          else list.push([a, b]);
        }
        pairs.set(linkId, list);
        addBothSides('MANY', { kind: 'pairs', linkId, side: 'a' }, { kind: 'pairs', linkId, side: 'b' });
      }
    }
  }
  return pairs;
}

const sameType = (a: DataType, b: DataType) => JSON.stringify(a) === JSON.stringify(b);
