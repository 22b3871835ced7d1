// Ontology API (SPEC §4.4, docs/contracts.md §5 and §9): the registrar. Ontologies and query execution are here;
// metadata, objects, object sets and actions each live in their own folder.
// Known deviations from the real platform:
// - A query returns its seeded `result` (or a matching case's) as it is; the real API wraps the value as
//   `{value: ...}`, so a seed mirrors it by writing `result: {value: ...}`.
// - Interfaces and derived properties only as docs/live-ontology.md describes; no shared property types, value
//   types, branches or transactions; the query parameters
//   `branch`, `sdkPackageRid`, `sdkVersion`, `transactionId` and `preview` (any letter case) are accepted and ignored.
// - Every token with api:ontologies-read sees every ontology (no per-ontology permissions).
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../store/store.js';
import { ontologyListWire, ontologyWire } from './shapes.js';
import { useJsonBodies } from '../../http/body-parsers.js';
import { findOntology, READ } from './context.js';
import { executeQuery } from './queries/execute.js';
import { functionQueryResolverOf } from './queries/function-resolver.js';
import { clientGone } from '../../http/client-gone.js';
import { metadataRoutes } from './metadata/routes.js';
import { objectRoutes } from './objects/routes.js';
import { objectSetRoutes } from './object-sets/routes.js';
import { actionRoutes } from './actions/routes.js';
import { PreviewQuery } from '../../http/preview.js';

const OntologyParams = Type.Object({ ontology: Type.String() });
const QueryParams = Type.Object({ ontology: Type.String(), queryApiName: Type.String() });
const ExecuteBody = Type.Object({ parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }, { additionalProperties: false });

export function ontologyRoutes(parent: FastifyInstance, deps: { store: Store }): void {
  parent.register(async (scope) => {
    // The body of execute is optional (docs/contracts.md §5); `curl -X POST -H 'content-type: application/json'` with no
    // data sends an empty one, which is read here as no body rather than as malformed JSON.
    useJsonBodies(scope, { emptyIsNoBody: true });

    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/api/v2/ontologies', {
      config: READ,
      schema: { querystring: PreviewQuery },
      handler: async () => ontologyListWire(await deps.store.ontologies.list()),
    });

    app.get('/api/v2/ontologies/:ontology', {
      config: READ,
      schema: { querystring: PreviewQuery, params: OntologyParams },
      handler: async (request) => ontologyWire(await findOntology(deps.store, request.params.ontology)),
    });

    app.post('/api/v2/ontologies/:ontology/queries/:queryApiName/execute', {
      config: READ,
      schema: { querystring: PreviewQuery, params: QueryParams, body: ExecuteBody },
      // No body at all means no parameters; a body that is there (`null`, an array, text) is still checked.
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
      handler: async (request, reply) => {
        const ontology = await findOntology(deps.store, request.params.ontology);
        const version = (request.query as Record<string, unknown>).version;
        // A query the ontology does not seed may be a function served by a compute module (queries/function-resolver.ts).
        const resolver = ontology.queryTypes.has(request.params.queryApiName) ? undefined : functionQueryResolverOf(deps.store);
        const served = await resolver?.execute(ontology, request.params.queryApiName, request.body.parameters ?? {}, clientGone(reply));
        if (served) {
          request.journalNote = served.note;
          return served.answer;
        }
        const result = executeQuery(ontology, request.params.queryApiName, request.body.parameters ?? {}, typeof version === 'string' ? version : undefined);
        // JSON bytes from the seed: a seeded string or number goes out as JSON, not as text/plain.
        return reply.type('application/json; charset=utf-8').send(result);
      },
    });

    metadataRoutes(scope, deps);
    objectRoutes(scope, deps);
    objectSetRoutes(scope, deps);
    actionRoutes(scope, deps);
  });
}
