// Runtime changes without a restart (CONTRACTS §7): create or update users, OAuth clients, connections and
// query results. Bodies take the seed's own keys (README "Seed file"), validated by the seed's schema, so a
// suite can move a config fragment into a test as it is. A reset forgets these changes: it goes back to the seed.
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../store/store.js';
import { CONTROL_ROUTE } from '../../http/route-config.js';
import { invalidArgument, notFound } from '../../errors.js';
import { SeedError, validateSeed } from '../../seed/load.js';
import type { Seed } from '../../seed/schema.js';
import { userFromSeed } from '../../seed/apply.js';
import { userSeedOf, clientSeedOf, connectionSeedOf } from './state-shapes.js';
import { compileOntology } from '../ontologies/model/compile.js';
import type { QueryDef } from '../../store/ontology-model.js';

/** The definition the seed loader gives a query written `{api_name, result}`, compiled by the same code. */
function untypedQuery(ontologyRid: string, ontology: string, query: string): QueryDef {
  const seed = { api_name: ontology, display_name: ontology, queries: [{ api_name: query, result: null }], object_types: [], objects: {}, action_types: [] };
  return compileOntology(seed, ontologyRid, 'query').queryTypes.get(query)!;
}

const AnyObject = Type.Object({}, { additionalProperties: true });
const Key = Type.String({ minLength: 1, maxLength: 256 });
const UsernameParam = Type.Object({ username: Key });
const ClientParam = Type.Object({ clientId: Key });
const RidParam = Type.Object({ rid: Key });

/** Validates one entry as the seed would, with the path's key filled in; a problem is a 400 naming its field. */
function asSeed<K extends 'users' | 'oauth_clients' | 'connections'>(list: K, entry: Record<string, unknown>): Seed[K][number] {
  try {
    return validateSeed({ platform: { [list]: [entry] } }, 'body')[list][0] as Seed[K][number];
  } catch (err) {
    if (!(err instanceof SeedError)) throw err;
    const problems = err.problems.map((p) => p.replace(`platform.${list}[0].`, '').replace(`platform.${list}[0]`, 'body'));
    const field = problems[0]?.split(':')[0] ?? 'body';
    throw invalidArgument('InvalidArgument', { field }, `Invalid ${list.replace('_', ' ')} entry: ${problems.join('; ')}`.slice(0, 2000)).because(
      `The body is not a valid platform.${list} entry of the seed: ${problems.join('; ')}.`,
    );
  }
}

export function entityRoutes(parent: FastifyInstance, deps: { store: Store }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = deps;

  app.put('/_emulate/platform/users/:username', { config: CONTROL_ROUTE, schema: { params: UsernameParam, body: AnyObject } }, async (request) => {
    const seed = asSeed('users', { ...request.body, username: request.params.username });
    const created = await store.users.upsert(userFromSeed(seed));
    const user = await store.users.byUsername(seed.username);
    return { created, user: userSeedOf(user!) };
  });

  app.put('/_emulate/platform/oauth-clients/:clientId', { config: CONTROL_ROUTE, schema: { params: ClientParam, body: AnyObject } }, async (request) => {
    const c = asSeed('oauth_clients', { ...request.body, client_id: request.params.clientId });
    const record = {
      clientId: c.client_id,
      clientSecret: c.client_secret ? c.client_secret : undefined,
      name: c.name ?? c.client_id,
      redirectUris: c.redirect_uris,
      grantTypes: c.grant_types,
      allowedScopes: c.allowed_scopes,
    };
    const created = await store.clients.upsert(record);
    // The answer says whether the client is confidential, never its secret.
    const { client_secret: _secret, ...shown } = clientSeedOf(record);
    return { created, client: { ...shown, public: record.clientSecret === undefined } };
  });

  const ConnectionBody = Type.Object(
    { secrets: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 256 }), Type.String({ maxLength: 65536 }))) },
    { additionalProperties: true },
  );
  app.put('/_emulate/platform/connections/:rid', { config: CONTROL_ROUTE, schema: { params: RidParam, body: ConnectionBody } }, async (request) => {
    const { secrets = {}, ...rest } = request.body;
    const old = await store.connections.byRid(request.params.rid);
    const c = asSeed('connections', { domains: old?.domains.map(({ host, port, scheme }) => ({ host, port, scheme })) ?? [], ...rest, rid: request.params.rid });
    const record = {
      rid: request.params.rid,
      displayName: c.display_name,
      parentFolderRid: c.parent_folder_rid,
      worker: old?.worker ?? { type: 'foundryWorker' as const, networkEgressPolicyRids: [] },
      // Domains given here carry no auth; kept domains keep theirs (their secret names stay valid).
      domains: (request.body as { domains?: unknown }).domains === undefined && old ? old.domains : c.domains.map((d) => ({ host: d.host, port: d.port, scheme: d.scheme })),
      oauth2ClientRid: old?.oauth2ClientRid,
      secrets: { ...(old?.secrets ?? {}), ...secrets },
    };
    const created = await store.connections.upsert(record);
    // Secret names only: no value leaves the service (CONTRACTS §4).
    return { created, connection: { ...connectionSeedOf(record), secret_names: Object.keys(record.secrets).sort() } };
  });

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
        throw notFound('OntologyNotFound', { ontology }).because(`No ontology with api name or rid "${ontology}"; the ontologies are ${known.length ? known.join(', ') : 'none'}.`);
      }
      const created = !found.queries.has(query);
      // It sets the default `result` (what answers when no case of a typed query matches); cases stay. A new
      // query is untyped, defined as the seed defines `{api_name, result}` (SPEC §4.4: parameters not checked).
      const definition = found.queryTypes.has(query) ? undefined : untypedQuery(found.rid, found.apiName, query);
      await store.ontologies.setQueryResult(found.apiName, query, Buffer.from(JSON.stringify(request.body.result) ?? 'null'), definition);
      return { created, ontology: found.apiName, query, result: request.body.result };
    },
  );
}
