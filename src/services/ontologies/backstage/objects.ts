// Runtime changes to ontology objects (docs/contracts.md §7): create or replace (upsert by primary key) and delete
// an object of a seeded object type, without a restart. The body is the object as the seed writes it under
// `objects` (property values by api name), checked as the seed loader checks one: every property declared,
// every value of its type, a foreign key naming an existing object. So what these routes leave is always a
// state the seed could hold, and the state export round-trips it. A reset goes back to the seed.
//   PUT    /_emulate/platform/ontologies/{ontology}/objects/{objectType}/{primaryKey}   {property: value, ...}
//   DELETE /_emulate/platform/ontologies/{ontology}/objects/{objectType}/{primaryKey}
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { OntologyRecord, OntologyObjectRecord, Store } from '../../../store/store.js';
import type { ObjectTypeDef } from '../../../store/ontology-model.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import { conflict, invalidArgument, quote } from '../../../errors.js';
import { findObjectType, findOntology } from '../context.js';
import { objectNotFound } from '../errors.js';
import { keyFromPath, pkValueFromPath } from '../objects/primary-key.js';
import { valueProblem } from '../model/data-types.js';
import { changedObject, ontologyChanged } from '../subscriptions/change-feed.js';

const Name = Type.String({ minLength: 1, maxLength: 256 });
const Params = Type.Object({ ontology: Name, objectType: Name, primaryKey: Type.String({ minLength: 1, maxLength: 1024 }) });
const PATH = '/_emulate/platform/ontologies/:ontology/objects/:objectType/:primaryKey';

/** The problems of `body` as the object `pk` of `type`, each `body.<property>: ...` as the seed loader words them. */
async function problemsOf(store: Store, ontology: OntologyRecord, type: ObjectTypeDef, pk: string | number, body: Record<string, unknown>): Promise<string[]> {
  const problems: string[] = [];
  const pkProblem = valueProblem(type.properties.get(type.primaryKey)!.dataType, pk);
  if (pkProblem) problems.push(`primaryKey: ${pkProblem}`);
  for (const [name, value] of Object.entries(body)) {
    const prop = type.properties.get(name);
    if (!prop) problems.push(`body.${name}: not a property of ${type.apiName} (properties: ${[...type.properties.keys()].join(', ')})`);
    else if (name === type.primaryKey && value !== pk)
      problems.push(`body.${name}: the primary key is the path's (${JSON.stringify(pk)}); leave it out or give the same value`);
    else if (value !== null) {
      const why = valueProblem(prop.dataType, value);
      if (why) problems.push(`body.${name}: ${why}`);
    }
  }
  if (problems.length) return problems;
  for (const link of type.links.values()) {
    if (link.via.kind !== 'outgoing') continue;
    const v = body[link.via.property];
    if (v === undefined || v === null) continue;
    const target = await store.ontologyObjects.get(ontology.rid, link.target, String(v));
    if (!target) problems.push(`body.${link.via.property}: no ${link.target} with primary key ${quote(String(v))} (the link ${link.apiName} needs one)`);
  }
  return problems;
}

/** The link sides whose pairs name an object of `type`: its own side of each many-to-many link and the far side. */
function pairSidesOf(ontology: OntologyRecord, type: ObjectTypeDef): Array<{ linkId: string; side: 'a' | 'b' }> {
  const sides: Array<{ linkId: string; side: 'a' | 'b' }> = [];
  for (const t of ontology.objectTypes.values()) {
    for (const l of t.links.values()) {
      if (l.via.kind !== 'pairs' || l.via.side !== 'a') continue; // each link once, from its forward side
      if (l.source === type.apiName) sides.push({ linkId: l.via.linkId, side: 'a' });
      if (l.target === type.apiName) sides.push({ linkId: l.via.linkId, side: 'b' });
    }
  }
  return sides;
}

/** The objects whose foreign key names `key` of `type`: "Employee 1.officeId". */
async function referencesTo(store: Store, ontology: OntologyRecord, type: ObjectTypeDef, key: string): Promise<string[]> {
  const found: string[] = [];
  for (const t of ontology.objectTypes.values()) {
    for (const l of t.links.values()) {
      if (l.via.kind !== 'outgoing' || l.target !== type.apiName) continue;
      for (const o of await store.ontologyObjects.withValues(ontology.rid, t.apiName, l.via.property, new Set([key])))
        found.push(`${t.apiName} ${o.key}.${l.via.property}`);
    }
  }
  return found;
}

export function ontologyObjectRoutes(parent: FastifyInstance, deps: { store: Store }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = deps;

  const resolve = async (params: { ontology: string; objectType: string; primaryKey: string }) => {
    const ontology = await findOntology(store, params.ontology);
    const type = findObjectType(ontology, params.objectType);
    const key = keyFromPath(type, params.primaryKey);
    const pkType = type.properties.get(type.primaryKey)!.dataType.type;
    if (key === undefined) {
      throw invalidArgument(
        'InvalidArgument',
        { field: 'primaryKey' },
        `primaryKey: ${quote(params.primaryKey)} is not a primary key of ${type.apiName} (${type.primaryKey} is ${pkType})`,
      ).because(`The path's primary key ${quote(params.primaryKey)} is not a canonical ${pkType}, the type of ${type.apiName}.${type.primaryKey}.`);
    }
    return { ontology, type, key, pk: pkValueFromPath(type, params.primaryKey) };
  };

  app.put(PATH, { config: CONTROL_ROUTE, schema: { params: Params, body: Type.Record(Type.String(), Type.Unknown()) } }, async (request) => {
    const { ontology, type, key, pk } = await resolve(request.params);
    const problems = await problemsOf(store, ontology, type, pk, request.body);
    if (problems.length) {
      const field = problems[0]!.split(':')[0]!;
      const text = problems.slice(0, 20).join('; ');
      throw invalidArgument('InvalidArgument', { field }, `Invalid ${type.apiName} object: ${text}`.slice(0, 2000)).because(
        `The body is not a valid ${type.apiName} object of the seed: ${text}.`,
      );
    }
    const values: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(request.body)) if (value !== null) values[name] = value;
    values[type.primaryKey] = pk;
    const record: OntologyObjectRecord = { objectType: type.apiName, primaryKey: pk, key, values };
    const { created } = await store.ontologyObjects.putObject(ontology.rid, record);
    ontologyChanged(store, ontology.rid, changedObject(type.apiName, key));
    return { created, ontology: ontology.apiName, objectType: type.apiName, primaryKey: pk, object: values };
  });

  app.delete(PATH, { config: CONTROL_ROUTE, schema: { params: Params } }, async (request) => {
    const { ontology, type, key, pk } = await resolve(request.params);
    // A seed may not hold a foreign key naming no object: refuse rather than leave one behind.
    const referencedBy = await referencesTo(store, ontology, type, key);
    if (referencedBy.length) {
      throw conflict('ObjectReferenced', { objectType: type.apiName, primaryKey: pk, referencedBy: referencedBy.slice(0, 20) }).because(
        `${type.apiName} ${key} is named by the foreign key of ${referencedBy.slice(0, 5).join(', ')}${referencedBy.length > 5 ? ` and ${referencedBy.length - 5} more` : ''}; change or delete those objects first.`,
      );
    }
    const deleted = await store.ontologyObjects.deleteObject(ontology.rid, type.apiName, key, pairSidesOf(ontology, type));
    if (deleted) ontologyChanged(store, ontology.rid);
    if (!deleted) throw objectNotFound(type.apiName, pk).because(`No ${type.apiName} has the primary key ${quote(key)} in ontology ${ontology.apiName}.`);
    return { deleted: true, ontology: ontology.apiName, objectType: type.apiName, primaryKey: pk };
  });
}
