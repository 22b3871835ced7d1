// Ontology API (SPEC §4.4, CONTRACTS §5): list, get one, and execute a seeded query.
// Known deviations from the real platform:
// - A query returns its seeded `result` as it is, whatever the parameters (they are checked to be an object,
//   then ignored); the real API wraps the value as `{value: ...}`, so a seed mirrors it by writing `result: {value: ...}`.
// - No object types, actions, links, metadata, versions or branches; the query parameters `version`, `branch`,
//   `sdkPackageRid`, `sdkVersion` and `transactionId` are accepted and ignored.
// - Every token with api:ontologies-read sees every ontology (no per-ontology permissions).
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../store/store.js';
import { ontologyListWire, ontologyWire } from './shapes.js';
import { ontologyNotFound, queryNotFound } from './errors.js';
import { useJsonBodies } from '../../http/body-parsers.js';
import { PreviewQuery } from '../../http/preview.js';

const READ = { auth: { kind: 'bearer', scope: 'api:ontologies-read' } } as const;
const OntologyParams = Type.Object({ ontology: Type.String() });
const QueryParams = Type.Object({ ontology: Type.String(), queryApiName: Type.String() });
const ExecuteBody = Type.Object({ parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }, { additionalProperties: false });

export function ontologyRoutes(parent: FastifyInstance, deps: { store: Store }): void {
  parent.register(async (scope) => {
    // The body of execute is optional (CONTRACTS §5); `curl -X POST -H 'content-type: application/json'` with no
    // data sends an empty one, which is read here as no body rather than as malformed JSON.
    useJsonBodies(scope, { emptyIsNoBody: true });

    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    /** An ontology by apiName, else by rid (the SDK's OntologyIdentifier is either). */
    const ontology = async (identifier: string) => {
      const found = (await deps.store.ontologies.byApiName(identifier)) ?? (await deps.store.ontologies.byRid(identifier));
      if (!found) throw ontologyNotFound(identifier, identifier.startsWith('ri.'));
      return found;
    };

    app.get('/api/v2/ontologies', {
      config: READ,
      schema: { querystring: PreviewQuery },
      handler: async () => ontologyListWire(await deps.store.ontologies.list()),
    });

    app.get('/api/v2/ontologies/:ontology', {
      config: READ,
      schema: { querystring: PreviewQuery, params: OntologyParams },
      handler: async (request) => ontologyWire(await ontology(request.params.ontology)),
    });

    app.post('/api/v2/ontologies/:ontology/queries/:queryApiName/execute', {
      config: READ,
      schema: { querystring: PreviewQuery, params: QueryParams, body: ExecuteBody },
      // No body at all means no parameters; a body that is there (`null`, an array, text) is still checked.
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
      handler: async (request, reply) => {
        const { queryApiName } = request.params;
        const result = (await ontology(request.params.ontology)).queries.get(queryApiName);
        if (result === undefined) throw queryNotFound(queryApiName);
        // JSON bytes from the seed: a seeded string or number goes out as JSON, not as text/plain.
        return reply.type('application/json; charset=utf-8').send(result);
      },
    });
  });
}
