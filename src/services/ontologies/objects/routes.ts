// Objects of one type (docs/contracts.md §9): list, get, search, count, aggregate, and linked objects.
// Query strings are read leniently (`preview` in any letter case and other unknown keys are ignored).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findObjectType, findOntology, READ, type OntologyDeps } from '../context.js';
import { objectNotFound, linkTypeNotFound, linkedObjectNotFound, invalidRequest } from '../errors.js';
import { objectWire } from '../object-reads/object-wire.js';
import { keyFromPath, pkValueFromPath } from './primary-key.js';
import { pageOf, selection } from '../object-reads/page.js';
import { compileWhere } from '../object-reads/where.js';
import { followLink } from '../object-reads/follow-link.js';
import { aggregate } from '../object-sets/aggregate.js';
import { isRecord } from '../model/data-types.js';
import { quote } from '../../../errors.js';
import { names } from '../reasons.js';

type Params = { ontology: string; objectType: string; primaryKey?: string; linkType?: string; linkedPrimaryKey?: string };
const BASE = '/api/v2/ontologies/:ontology/objects/:objectType';

/** GET query: `orderBy=properties.a:desc,p.b` (or `a:desc`), `select` repeated or comma-separated. */
function listRequest(query: Record<string, unknown>) {
  const orderBy = typeof query.orderBy === 'string' && query.orderBy ? { fields: query.orderBy.split(',').map(orderField) } : undefined;
  return { orderBy, pageSize: query.pageSize, pageToken: query.pageToken, select: query.select, excludeRid: query.excludeRid === 'true' };
}

function orderField(spec: string) {
  const [path = '', direction = 'asc'] = spec.split(':');
  return { field: path.replace(/^(properties|p)\./, ''), direction };
}

const bodyOf = (request: FastifyRequest): Record<string, unknown> => {
  if (request.body === undefined || request.body === null) return {};
  if (!isRecord(request.body)) throw invalidRequest('body', 'must be a JSON object');
  return request.body;
};

export function objectRoutes(app: FastifyInstance, deps: OntologyDeps): void {
  const resolve = async (request: FastifyRequest) => {
    const p = request.params as Params;
    const ontology = await findOntology(deps.store, p.ontology);
    return { ontology, type: findObjectType(ontology, p.objectType), p, query: request.query as Record<string, unknown> };
  };
  const one = async (ontologyRid: string, type: ReturnType<typeof findObjectType>, raw: string) => {
    const key = keyFromPath(type, raw);
    const found = key === undefined ? undefined : await deps.store.ontologyObjects.get(ontologyRid, type.apiName, key);
    if (!found) {
      throw objectNotFound(type.apiName, pkValueFromPath(type, raw)).because(
        key === undefined
          ? `${quote(raw)} cannot be a primary key of ${type.apiName}: ${type.primaryKey} is ${type.properties.get(type.primaryKey)?.dataType.type}, written as a plain integer.`
          : `No ${type.apiName} has the primary key ${quote(key)}.`,
      );
    }
    return found;
  };

  app.get(BASE, { config: READ }, async (request) => {
    const { ontology, type, query } = await resolve(request);
    const page = pageOf(ontology, type, await deps.store.ontologyObjects.list(ontology.rid, type.apiName), listRequest(query));
    return { ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}), data: page.data, totalCount: page.totalCount };
  });

  app.get(`${BASE}/:primaryKey`, { config: READ }, async (request) => {
    const { ontology, type, p, query } = await resolve(request);
    const found = await one(ontology.rid, type, p.primaryKey!);
    return objectWire(ontology.rid, type, found, { select: selection(type, query.select, undefined), excludeRid: query.excludeRid === 'true' });
  });

  app.post(`${BASE}/search`, { config: READ }, async (request) => {
    const { ontology, type } = await resolve(request);
    const body = bodyOf(request);
    const all = await deps.store.ontologyObjects.list(ontology.rid, type.apiName);
    const objects = body.where === undefined ? all : all.filter(compileWhere(type, body.where));
    return pageOf(ontology, type, objects, body);
  });

  app.post(`${BASE}/count`, { config: READ }, async (request) => {
    const { ontology, type } = await resolve(request);
    return { count: (await deps.store.ontologyObjects.list(ontology.rid, type.apiName)).length };
  });

  app.post(`${BASE}/aggregate`, { config: READ }, async (request) => {
    const { ontology, type } = await resolve(request);
    const body = bodyOf(request);
    const all = await deps.store.ontologyObjects.list(ontology.rid, type.apiName);
    const objects = body.where === undefined ? all : all.filter(compileWhere(type, body.where));
    return aggregate(type, objects, body.aggregation, body.groupBy);
  });

  const linked = async (request: FastifyRequest) => {
    const { ontology, type, p, query } = await resolve(request);
    const link = type.links.get(p.linkType!);
    if (!link)
      throw linkTypeNotFound(type.apiName, p.linkType!).because(
        `${type.apiName} has no link ${quote(p.linkType!)}; its links are ${names(type.links.keys())}.`,
      );
    const source = await one(ontology.rid, type, p.primaryKey!);
    const targets = await followLink(deps.store, ontology.rid, link, [source]);
    return { ontology, link, targets, target: findObjectType(ontology, link.target), p, query };
  };

  app.get(`${BASE}/:primaryKey/links/:linkType`, { config: READ }, async (request) => {
    const { ontology, targets, target, query } = await linked(request);
    const page = pageOf(ontology, target, targets, listRequest(query));
    return { data: page.data, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  });

  app.get(`${BASE}/:primaryKey/links/:linkType/:linkedPrimaryKey`, { config: READ }, async (request) => {
    const { ontology, link, targets, target, p, query } = await linked(request);
    const key = keyFromPath(target, p.linkedPrimaryKey!);
    const found = targets.find((o) => o.key === key);
    if (!found) {
      throw linkedObjectNotFound(link.apiName, target.apiName, pkValueFromPath(target, p.linkedPrimaryKey!)).because(
        `${p.objectType} ${p.primaryKey!} has no ${target.apiName} ${quote(p.linkedPrimaryKey!)} through its link ${link.apiName} (it has ${targets.length}).`,
      );
    }
    return objectWire(ontology.rid, target, found, { select: selection(target, query.select, undefined), excludeRid: query.excludeRid === 'true' });
  });
}
