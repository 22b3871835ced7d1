// The ontologies service's control routes (docs/contracts.md §7): list ontologies with their definitions, set a
// query's default result, and create, replace or delete objects (objects.ts); the dashboard's Objects and Object
// files views (object-views.ts).
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ServiceDeps } from '../../service-module.js';
import type { QueryDef } from '../../../store/ontology-model.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import { notFound } from '../../../errors.js';
import { compileOntology } from '../model/compile.js';
import { ontologyDefinitions } from './view.js';
import { ontologyObjectRoutes } from './objects.js';
import { objectViewRoutes } from './object-views.js';

/** The definition the seed loader gives a query written `{api_name, result}`, compiled by the same code. */
function untypedQuery(ontologyRid: string, ontology: string, query: string): QueryDef {
  const seed = { api_name: ontology, display_name: ontology, queries: [{ api_name: query, result: null }], object_types: [], objects: {}, action_types: [] };
  return compileOntology(seed, ontologyRid, 'query').queryTypes.get(query)!;
}

export function ontologiesBackstage(parent: FastifyInstance, deps: ServiceDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = deps;

  app.get('/_emulate/platform/ontologies', { config: CONTROL_ROUTE }, async () => ({
    ontologies: await Promise.all(
      (await store.ontologies.list()).map(async (o) => ({
        rid: o.rid,
        apiName: o.apiName,
        displayName: o.displayName,
        description: o.description,
        queries: [...o.queries].map(([apiName, result]) => ({ apiName, resultBytes: result.length })),
        ...(await ontologyDefinitions(store, o)),
      })),
    ),
  }));

  app.put(
    '/_emulate/platform/ontologies/:ontology/queries/:query',
    {
      config: CONTROL_ROUTE,
      schema: {
        params: Type.Object({ ontology: Type.String({ minLength: 1, maxLength: 256 }), query: Type.String({ minLength: 1, maxLength: 256 }) }),
        body: Type.Object({ result: Type.Unknown() }, { additionalProperties: false, required: ['result'] }),
      },
    },
    async (request) => {
      const { ontology, query } = request.params;
      const found = (await store.ontologies.byApiName(ontology)) ?? (await store.ontologies.byRid(ontology));
      if (!found) {
        const known = (await store.ontologies.list()).map((o) => o.apiName);
        throw notFound('OntologyNotFound', { ontology }).because(
          `No ontology with api name or rid "${ontology}"; the ontologies are ${known.length ? known.join(', ') : 'none'}.`,
        );
      }
      const created = !found.queries.has(query);
      // It sets the default `result` (what answers when no case of a typed query matches); cases stay. A new
      // query is untyped, defined as the seed defines `{api_name, result}` (parameters not checked).
      const definition = found.queryTypes.has(query) ? undefined : untypedQuery(found.rid, found.apiName, query);
      await store.ontologies.setQueryResult(found.apiName, query, Buffer.from(JSON.stringify(request.body.result) ?? 'null'), definition);
      return { created, ontology: found.apiName, query, result: request.body.result };
    },
  );

  ontologyObjectRoutes(parent, deps);
  objectViewRoutes(parent, deps);
}
