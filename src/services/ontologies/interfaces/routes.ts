// Interface metadata routes (docs/live-ontology.md, "Interfaces"): list and get, from the seed's `interface_types`.
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../service-module.js';
import { findOntology, READ } from '../context.js';
import { notFound } from '../../../errors.js';
import { ontologyRid } from '../seed-compile.js';
import type { OntologySeed } from '../seed-schema.js';
import { interfacesOf, registerInterfaces, type InterfaceSeed } from './model.js';
import { interfaceTypeWire } from './wire.js';

export function interfaceRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const seeded = ((deps.seed as { ontologies?: OntologySeed[] }).ontologies ?? []).map((o) => ({
    rid: ontologyRid(o),
    interfaces: (o.interface_types ?? []) as InterfaceSeed[],
  }));
  registerInterfaces(deps.store, seeded);

  app.get<{ Params: { ontology: string } }>('/api/v2/ontologies/:ontology/interfaceTypes', { config: READ }, async (request) => {
    const ontology = await findOntology(deps.store, request.params.ontology);
    return { data: [...interfacesOf(deps.store, ontology.rid).values()].map(interfaceTypeWire) };
  });
  app.get<{ Params: { ontology: string; name: string } }>('/api/v2/ontologies/:ontology/interfaceTypes/:name', { config: READ }, async (request) => {
    const ontology = await findOntology(deps.store, request.params.ontology);
    const def = interfacesOf(deps.store, ontology.rid).get(request.params.name);
    if (!def)
      throw notFound('InterfaceTypeNotFound', { apiName: request.params.name }).because(
        `Ontology ${ontology.apiName} has no interface ${JSON.stringify(request.params.name.slice(0, 64))}.`,
      );
    return interfaceTypeWire(def);
  });
}
