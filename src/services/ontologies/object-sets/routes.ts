// Object sets (docs/contracts.md §9): loadObjects, loadObjectsMultipleObjectTypes, loadObjectsOrInterfaces and
// aggregate; sets seen through an interface page and aggregate by interface property (docs/live-ontology.md).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findOntology, READ, type OntologyDeps } from '../context.js';
import { evaluateObjectSet } from './evaluate.js';
import { pageOf } from '../object-reads/page.js';
import { aggregate } from './aggregate.js';
import { withPropertySecurities } from './property-securities.js';
import { isRecord } from '../model/data-types.js';
import { invalidRequest, notSupported } from '../errors.js';
import { interfaceMappingsFor } from '../interfaces/sets.js';
import { interfacePage } from '../interfaces/page.js';
import { checkInterfaceFields, interfaceViewType, viewThrough } from '../interfaces/view.js';
import type { OntologyRecord } from '../../../store/store.js';
import type { EvaluatedSet } from './evaluate.js';

/** A page of the set: through its interface when it is seen through one (interfaces/page.ts). */
function page(ontology: OntologyRecord, set: EvaluatedSet, body: Record<string, unknown>) {
  if (set.interfaceType) return interfacePage(ontology, set.interfaceType, set.objects, body);
  if (body.orderBy !== undefined && !set.objectType) throw notSupported('orderBy over objects of several types', 'orderBy');
  return pageOf(ontology, set.objectType, set.objects, body);
}

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
    return withPropertySecurities(page(ontology, set, body), body.loadPropertySecurities);
  });

  app.post(`${BASE}/loadObjectsMultipleObjectTypes`, { config: READ }, async (request) => {
    const { ontology, body, set } = await evaluate(request);
    return {
      ...withPropertySecurities(page(ontology, set, body), body.loadPropertySecurities),
      interfaceToObjectTypeMappings: interfaceMappingsFor(deps.store, ontology.rid, body.objectSet),
      interfaceToObjectTypeMappingsV2: {},
    };
  });

  // Objects of an interface set carry the interface's properties (interfaces/page.ts); any other set loads as loadObjects.
  app.post(`${BASE}/loadObjectsOrInterfaces`, { config: READ }, async (request) => {
    const { ontology, body, set } = await evaluate(request);
    return set.interfaceType ? interfacePage(ontology, set.interfaceType, set.objects, body, true) : page(ontology, set, body);
  });

  app.post(`${BASE}/aggregate`, { config: READ }, async (request) => {
    const { body, set } = await evaluate(request);
    const def = set.interfaceType;
    if (def) checkInterfaceFields(def, body.aggregation, body.groupBy);
    if (def)
      return aggregate(
        interfaceViewType(def),
        set.objects.map((o) => viewThrough(def, o)),
        body.aggregation,
        body.groupBy,
      );
    if (!set.objectType) throw notSupported('aggregation over objects of several types', 'aggregate');
    return aggregate(set.objectType, set.objects, body.aggregation, body.groupBy);
  });
}
