// Ontology metadata (docs/contracts.md §9): full metadata, object types, outgoing link types, query types, action types.
// Lists are returned whole (no nextPageToken): a seeded ontology is small.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findObjectType, findOntology, READ, type OntologyDeps } from '../context.js';
import { actionTypeNotFound, linkTypeNotFound, queryNotFound, queryVersionNotFound } from '../errors.js';
import { quote } from '../../../errors.js';
import { names } from '../reasons.js';
import { functionQueryResolverOf } from '../queries/function-resolver.js';
import { implementsOf, interfacesOf } from '../interfaces/model.js';
import { actionTypeWireOf, fullMetadataWire, linkSideWire, objectTypeFullWire, objectTypeWire, queryTypeWireOf } from './wire.js';

const BASE = '/api/v2/ontologies/:ontology';
type Params = { ontology: string; objectType: string; linkType: string; queryApiName: string; actionType: string };

export function metadataRoutes(app: FastifyInstance, deps: OntologyDeps): void {
  const ontologyOf = (request: FastifyRequest) => findOntology(deps.store, (request.params as Params).ontology);
  const typeOf = async (request: FastifyRequest) => findObjectType(await ontologyOf(request), (request.params as Params).objectType);

  const full = async (request: FastifyRequest) => {
    const ontology = await ontologyOf(request);
    return fullMetadataWire(ontology, interfacesOf(deps.store, ontology.rid));
  };
  app.get(`${BASE}/fullMetadata`, { config: READ }, full);
  // POST .../metadata (loadMetadata) names what to load; every part of a small seeded ontology is returned.
  app.post(`${BASE}/metadata`, { config: READ }, full);

  app.get(`${BASE}/objectTypes`, { config: READ }, async (request) => ({ data: [...(await ontologyOf(request)).objectTypes.values()].map(objectTypeWire) }));
  app.get(`${BASE}/objectTypes/:objectType`, { config: READ }, async (request) => objectTypeWire(await typeOf(request)));
  app.get(`${BASE}/objectTypes/:objectType/fullMetadata`, { config: READ }, async (request) => {
    const ontology = await ontologyOf(request);
    const type = findObjectType(ontology, (request.params as Params).objectType);
    return objectTypeFullWire(type, implementsOf(deps.store, ontology.rid, type.apiName));
  });
  app.get(`${BASE}/objectTypes/:objectType/outgoingLinkTypes`, { config: READ }, async (request) => ({
    data: [...(await typeOf(request)).links.values()].map(linkSideWire),
  }));
  app.get(`${BASE}/objectTypes/:objectType/outgoingLinkTypes/:linkType`, { config: READ }, async (request) => {
    const type = await typeOf(request);
    const link = type.links.get((request.params as Params).linkType);
    if (!link)
      throw linkTypeNotFound(type.apiName, (request.params as Params).linkType).because(
        `${type.apiName} has no link ${quote((request.params as Params).linkType)}; its links are ${names(type.links.keys())}.`,
      );
    return linkSideWire(link);
  });

  app.get(`${BASE}/queryTypes`, { config: READ }, async (request) => {
    const ontology = await ontologyOf(request);
    const served = (await functionQueryResolverOf(deps.store)?.list(ontology)) ?? []; // functions of compute modules
    return { data: [...[...ontology.queryTypes.values()].map(queryTypeWireOf), ...served] };
  });
  app.get(`${BASE}/queryTypes/:queryApiName`, { config: READ }, async (request) => {
    const { queryApiName } = request.params as Params;
    const ontology = await ontologyOf(request);
    const query = ontology.queryTypes.get(queryApiName);
    const served = query ? undefined : await functionQueryResolverOf(deps.store)?.get(ontology, queryApiName);
    if (served) {
      const version = (request.query as Record<string, unknown>).version;
      if (typeof version === 'string' && version && version !== served.version)
        throw queryVersionNotFound(queryApiName, version).because(
          `Query ${queryApiName} is at version ${String(served.version)}; the request asked for ${quote(version)}.`,
        );
      return served;
    }
    if (!query)
      throw queryNotFound(queryApiName).because(
        `Ontology ${ontology.apiName} has no query ${quote(queryApiName)}; its queries are ${names(ontology.queryTypes.keys())}.`,
      );
    const version = (request.query as Record<string, unknown>).version;
    if (typeof version === 'string' && version && version !== query.version)
      throw queryVersionNotFound(queryApiName, version).because(
        `Query ${queryApiName} is at version ${query.version}; the request asked for ${quote(version)}.`,
      );
    return queryTypeWireOf(query);
  });

  app.get(`${BASE}/actionTypes`, { config: READ }, async (request) => ({ data: [...(await ontologyOf(request)).actionTypes.values()].map(actionTypeWireOf) }));
  app.get(`${BASE}/actionTypes/:actionType`, { config: READ }, async (request) => {
    const { actionType } = request.params as Params;
    const ontology = await ontologyOf(request);
    const action = ontology.actionTypes.get(actionType);
    if (!action)
      throw actionTypeNotFound(actionType).because(
        `Ontology ${ontology.apiName} has no action type ${quote(actionType)}; its action types are ${names(ontology.actionTypes.keys())}.`,
      );
    return actionTypeWireOf(action);
  });
}
