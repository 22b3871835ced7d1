// Connectivity API (SPEC §4.3, docs/contracts.md §4): create, get, getConfiguration and updateSecrets of REST connections.
// Known deviations from the real platform:
// - Only REST connections; every other configuration type answers ConnectionTypeNotSupported.
// - No updateExportSettings, JDBC drivers, file or table imports, virtual tables, listing or deletion.
// - parentFolderRid is not checked against a filesystem (there is none), so ParentFolderNotFoundForConnection never occurs.
// - Secrets live in memory in plaintext (never returned or logged); the platform encrypts them at rest.
// - updateSecrets adds names it does not know as additional secrets (docs/contracts.md §4) where the platform may answer
//   SecretNamesDoNotExist. A domain's auth secret is named `domains[<i>].auth.<field>` (our choice); updateSecrets
//   with that name replaces it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../store/store.js';
import { randomUuid } from '../../ids.js';
import { ConnectionParams, CreateConnectionBody, PreviewQuery, UpdateSecretsBody } from './schemas.js';
import { connectionFromRequest } from './create.js';
import { configurationWire, connectionWire } from './shapes.js';
import { connectionNotFound } from './errors.js';
import { checkSecretMap } from './secrets.js';

const READ = 'api:connectivity-connection-read';
const WRITE = 'api:connectivity-connection-write';
const PREFIX = '/api/v2/connectivity/connections';

/** The rid in the path, for the 403s whose parameters name it. */
const ridOf = (request: FastifyRequest) => ({ connectionRid: (request.params as { connectionRid?: string }).connectionRid ?? '' });

export function connectivityRoutes(parent: FastifyInstance, deps: { store: Store }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  const existing = async (rid: string) => {
    const connection = await deps.store.connections.byRid(rid);
    if (!connection) throw connectionNotFound(rid);
    return connection;
  };

  app.post(PREFIX, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'CreateConnectionPermissionDenied', parameters: () => ({}) } } },
    schema: { querystring: PreviewQuery, body: CreateConnectionBody },
    handler: async (request) => {
      const record = connectionFromRequest(request.body, `ri.magritte..source.${randomUuid()}`);
      // A fresh random rid cannot be taken; if it ever were, failing loudly beats overwriting a connection.
      if (!(await deps.store.connections.insert(record))) throw new Error('generated connection rid collided');
      return connectionWire(record);
    },
  });

  app.get(`${PREFIX}/:connectionRid`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { querystring: PreviewQuery, params: ConnectionParams },
    handler: async (request) => connectionWire(await existing(request.params.connectionRid)),
  });

  app.get(`${PREFIX}/:connectionRid/getConfiguration`, {
    config: { auth: { kind: 'bearer', scope: READ, denied: { errorName: 'GetConfigurationPermissionDenied', parameters: ridOf } } },
    schema: { querystring: PreviewQuery, params: ConnectionParams },
    handler: async (request) => configurationWire(await existing(request.params.connectionRid)),
  });

  app.post(`${PREFIX}/:connectionRid/updateSecrets`, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'UpdateSecretsForConnectionPermissionDenied', parameters: ridOf } } },
    schema: { querystring: PreviewQuery, params: ConnectionParams, body: UpdateSecretsBody },
    handler: async (request, reply) => {
      const rid = request.params.connectionRid;
      checkSecretMap(request.body.secrets, ['secrets']);
      if (!(await deps.store.connections.mergeSecrets(rid, request.body.secrets))) throw connectionNotFound(rid);
      return reply.code(204).send();
    },
  });
}
