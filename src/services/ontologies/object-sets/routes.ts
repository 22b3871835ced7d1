// Object sets (docs/contracts.md §9): loadObjects, loadObjectsMultipleObjectTypes and aggregate.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findOntology, READ, type OntologyDeps } from '../context.js';
import { evaluateObjectSet } from './evaluate.js';
import { pageOf } from './page.js';
import { aggregate } from './aggregate.js';
import { isRecord } from '../model/data-types.js';
import { invalidRequest, notSupported } from '../errors.js';
import { interfaceMappingsFor } from '../interfaces/sets.js';

const BASE = '/api/v2/ontologies/:ontology/objectSets';

export function objectSetRoutes(app: FastifyInstance, deps: OntologyDeps): void {
  const evaluate = async (request: FastifyRequest) => {
    const ontology = await findOntology(deps.store, (request.params as { ontology: string }).ontology);
    const body = request.body;
    if (!isRecord(body)) throw invalidRequest('body', 'must be a JSON object');
    if (body.objectSet === undefined) throw invalidRequest('objectSet', 'required');
    return { ontology, body, set: await evaluateObjectSet(deps.store, ontology, body.objectSet) };
  };

  app.post(`${BASE}/loadObjects`, { config: READ }, async (request) => {
    const { ontology, body, set } = await evaluate(request);
    if (body.orderBy !== undefined && !set.objectType) throw notSupported('orderBy over objects of several types', 'orderBy');
    return { ...pageOf(ontology, set.objectType, set.objects, body), propertySecurities: [] };
  });

  app.post(`${BASE}/loadObjectsMultipleObjectTypes`, { config: READ }, async (request) => {
    const { ontology, body, set } = await evaluate(request);
    if (body.orderBy !== undefined && !set.objectType) throw notSupported('orderBy over objects of several types', 'orderBy');
    return {
      ...pageOf(ontology, set.objectType, set.objects, body),
      interfaceToObjectTypeMappings: interfaceMappingsFor(deps.store, ontology.rid, body.objectSet),
      interfaceToObjectTypeMappingsV2: {},
      propertySecurities: [],
    };
  });

  app.post(`${BASE}/aggregate`, { config: READ }, async (request) => {
    const { body, set } = await evaluate(request);
    if (!set.objectType) throw notSupported('aggregation over objects of several types', 'aggregate');
    return aggregate(set.objectType, set.objects, body.aggregation, body.groupBy);
  });
}
