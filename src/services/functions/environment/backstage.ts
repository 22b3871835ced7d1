// The module environment's control route (docs/functions.md, "Module environment"): what run-module asks for
// after opening a runtime session. For the deployed app (named, or the runtime's first app that has an
// environment) it answers the application-permissions client (id and secret), the sources' file contents, and
// the CA of the emulator's TLS listener when it runs one (for DEFAULT_CA_PATH). Loopback or the control token,
// like every control route; the secrets go into the answer only, never into a log line.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ServiceDeps } from '../../service-module.js';
import type { ConnectionRecord } from '../../../store/store.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import { MODULE_ENVIRONMENTS, type ModuleEnvironment } from './part.js';
import { sourceFiles } from './files.js';

export const MODULE_ENVIRONMENT_ROUTE = '/_emulate/platform/module-environment';

const Body = Type.Object(
  {
    runtimeId: Type.String({ minLength: 1, maxLength: 128 }),
    deployedAppRid: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    branch: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
);

export function moduleEnvironmentBackstage(parent: FastifyInstance, { store }: ServiceDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.post(MODULE_ENVIRONMENT_ROUTE, { config: CONTROL_ROUTE, schema: { body: Body } }, async (request) => {
    const { runtimeId, deployedAppRid, branch } = request.body;
    const envs = store.part(MODULE_ENVIRONMENTS);
    let found: ModuleEnvironment | undefined;
    if (deployedAppRid !== undefined) found = await envs.get(deployedAppRid, branch ?? 'master');
    else
      for (const a of await store.computeModules.deployedAppsOf(runtimeId)) {
        found = await envs.get(a.deployedAppRid, a.branch);
        if (found) break;
      }
    const publicTls = app.podRuntime?.publicTls;
    const trust = publicTls ? { trust: { url: publicTls.url, caCertificate: publicTls.caCertificate } } : {};
    if (!found) return trust;

    // Each reference read now: a client or connection changed through the control routes is what the module gets.
    const warnings: string[] = [];
    let client: { clientId: string; clientSecret: string } | undefined;
    if (found.clientId !== undefined) {
      const record = await store.clients.byId(found.clientId);
      if (record?.clientSecret) client = { clientId: record.clientId, clientSecret: record.clientSecret };
      else warnings.push(`the OAuth client "${found.clientId}" ${record ? 'has no secret' : 'does not exist'}: CLIENT_ID and CLIENT_SECRET are not set`);
    }
    const sources: Array<{ apiName: string; connection: ConnectionRecord }> = [];
    for (const s of found.sources) {
      const connection = await store.connections.byRid(s.connectionRid);
      if (connection) sources.push({ apiName: s.apiName, connection });
      else warnings.push(`source "${s.apiName}": the connection ${s.connectionRid} does not exist; left out`);
    }
    request.log.info(
      { deployedAppRid: found.deployedAppRid, clientId: client?.clientId, sources: sources.map((s) => s.apiName) },
      'module environment handed out',
    );
    return {
      deployedAppRid: found.deployedAppRid,
      branch: found.branch,
      ...(client ? { client } : {}),
      ...(found.sources.length > 0 ? { sources: sourceFiles(sources) } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
      ...trust,
    };
  });
}
