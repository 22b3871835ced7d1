// The functions API (docs/functions.md): `GET /api/v2/functions/queries/{q}`, `GET .../getByRid?rid=`,
// `POST .../{q}/execute`. It serves the seeded queries of every ontology (they are functions too) and the
// functions compute modules registered, by api name and rid. It also registers the ontology routes' function
// query resolver, through which `POST /api/v2/ontologies/{o}/queries/{q}/execute` and the query type metadata
// reach the same functions.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ServiceDeps } from '../service-module.js';
import type { QueryDef } from '../../store/ontology-model.js';
import type { OntologyRecord } from '../../store/store.js';
import { permissionDenied, quote } from '../../errors.js';
import { queryVersionNotFound } from '../ontologies/errors.js';
import { functionNotFound, functionQueryNotFound } from './errors.js';
import { executeQuery } from '../ontologies/queries/execute.js';
import { queryTypeWireOf } from '../ontologies/metadata/wire.js';
import { setFunctionQueryResolver } from '../ontologies/queries/function-resolver.js';
import { clientGone } from '../../http/client-gone.js';
import { names } from '../ontologies/reasons.js';
import { functionResolver } from './resolver.js';
import { functionQueryWire, registeredFunctions, type FunctionQuery } from './registry.js';

/** Any one of these lets a token use the functions routes (docs/functions.md, "Scopes"). */
export const FUNCTION_SCOPES = ['api:functions-read', 'api:functions-execute', 'api:ontologies-read'] as const;

const ByName = Type.Object({ queryApiName: Type.String({ minLength: 1, maxLength: 512 }) });
const Versioned = Type.Object({ version: Type.Optional(Type.String()), preview: Type.Optional(Type.String()) }, { additionalProperties: true });
const ByRid = Type.Object({ rid: Type.String({ minLength: 1, maxLength: 512 }) }, { additionalProperties: true });
const ExecuteBody = Type.Object(
  {
    parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    version: Type.Optional(Type.String()),
    branch: Type.Optional(Type.String()),
    // Sent by the Python SDK; one version per function here, so they change nothing.
    latestVersionResolution: Type.Optional(Type.String()),
    includePrerelease: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

type Found = { kind: 'seeded'; ontology: OntologyRecord; query: QueryDef } | { kind: 'function'; fn: FunctionQuery };

export function functionRoutes(parent: FastifyInstance, deps: ServiceDeps): void {
  const resolver = functionResolver({ store: deps.store, jobs: () => parent.podRuntime?.jobs, warn: (m) => parent.log.warn(m) });
  setFunctionQueryResolver(deps.store, resolver);

  /** Seeded queries first (in ontology order), then the registered functions. */
  async function find(match: (apiName: string, rid: string) => boolean): Promise<Found | undefined> {
    for (const ontology of await deps.store.ontologies.list()) {
      for (const query of ontology.queryTypes.values()) if (match(query.apiName, query.rid)) return { kind: 'seeded', ontology, query };
    }
    const fn = (await registeredFunctions(deps.store)).find((f) => match(f.apiName, f.rid));
    return fn && { kind: 'function', fn };
  }

  async function known(): Promise<string[]> {
    const seeded = (await deps.store.ontologies.list()).flatMap((o) => [...o.queryTypes.keys()]);
    return [...seeded, ...(await registeredFunctions(deps.store)).map((f) => f.apiName)];
  }

  async function byName(apiName: string, version: string | undefined): Promise<Found> {
    const found = await find((name) => name === apiName);
    if (!found)
      throw functionQueryNotFound(apiName).because(
        `No seeded query and no registered function has the api name ${quote(apiName)}; there are ${names(await known())}.`,
      );
    const at = found.kind === 'seeded' ? found.query.version : found.fn.version;
    if (version && version !== at)
      throw queryVersionNotFound(apiName, version).because(`Query ${apiName} is at version ${at}; the request asked for ${quote(version)}.`);
    return found;
  }

  const wireOf = (found: Found) => (found.kind === 'seeded' ? queryTypeWireOf(found.query) : functionQueryWire(found.fn));

  parent.register(async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    // Any one of the scopes will do, which the route config (one scope) cannot say.
    app.addHook('preHandler', async (request: FastifyRequest) => {
      const scopes = request.accessToken?.scopes ?? [];
      if (!FUNCTION_SCOPES.some((s) => scopes.includes(s))) {
        throw permissionDenied('ApiUsageDenied', { missingScope: FUNCTION_SCOPES[0] }).because(
          `The functions routes need one of the scopes ${FUNCTION_SCOPES.join(', ')}; the token has ${scopes.length ? scopes.join(' ') : 'no scopes'}.`,
        );
      }
    });
    const config = { auth: { kind: 'bearer' } } as const;

    app.get('/api/v2/functions/queries/getByRid', { config, schema: { querystring: ByRid } }, async (request) => {
      const found = await find((_, rid) => rid === request.query.rid);
      if (!found) throw functionNotFound(request.query.rid).because(`No seeded query and no registered function has the rid ${quote(request.query.rid)}.`);
      return wireOf(found);
    });

    app.get('/api/v2/functions/queries/:queryApiName', { config, schema: { params: ByName, querystring: Versioned } }, async (request) =>
      wireOf(await byName(request.params.queryApiName, request.query.version || undefined)),
    );

    app.post(
      '/api/v2/functions/queries/:queryApiName/execute',
      { config, schema: { params: ByName, querystring: Versioned, body: ExecuteBody } },
      async (request, reply) => {
        const found = await byName(request.params.queryApiName, request.body.version || undefined);
        const parameters = request.body.parameters ?? {};
        if (found.kind === 'seeded') return reply.type('application/json; charset=utf-8').send(executeQuery(found.ontology, found.query.apiName, parameters));
        const served = await resolver.run(found.fn, parameters, clientGone(reply));
        request.journalNote = served.note;
        return served.answer;
      },
    );
  });
}
