// Runtime routes (SPEC §4.5, docs/contracts.md §6): what a module's runtime SDK talks to. Errors use the OAuth envelope.
// The module-facing routes (poll, schemas, results) are module-routes.ts's, shared with the in-pod runtime
// listener; here are the control side's session and inspection routes, and those routes as the public port answers.
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../../store/store.js';
import type { ComputeModuleSettings } from '../settings.js';
import type { JobService } from '../jobs.js';
import { inspectionWire } from '../wire.js';
import { serializes } from '../serializes.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import { withNote } from './unanswered.js';
import { RUNTIMES_PREFIX } from '../policy.js';
import { JobParams, ModuleAuthToken, RuntimeId, lookUp } from './module-auth.js';
import { moduleRoutes } from './module.js';

export interface RuntimeRouteDeps {
  store: Store;
  jobSettings: Readonly<ComputeModuleSettings>;
  jobs: JobService;
}

// The shapes docs/contracts.md §6 gives (module-auth.ts), checked before anything is created (issue 10, items 6 and 12).
// Other names: no control characters, no lone surrogates (the u-flag pattern reads a surrogate pair as one
// character, so only a lone one falls in the range).
const name = (minLength: number) => Type.String({ pattern: `^[^\\u0000-\\u001f\\u007f\\ud800-\\udfff]{${minLength},256}$` });
const SessionBody = Type.Object(
  {
    runtimeId: RuntimeId,
    moduleAuthToken: Type.Optional(ModuleAuthToken),
    deployedAppRid: Type.Optional(name(1)),
    branch: Type.Optional(name(1)),
    displayName: Type.Optional(name(0)),
  },
  { additionalProperties: false },
);

export function runtimeRoutes(parent: FastifyInstance, deps: RuntimeRouteDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { store, jobs } = deps;
  const uri = (runtimeId: string, tail: string) => `${app.publicUrl()}${RUNTIMES_PREFIX}/${encodeURIComponent(runtimeId)}/${tail}`;

  // Session creation and inspection hand out or reveal session state, so like the control routes they answer
  // only on loopback or with the configured control token; otherwise 404.
  app.post(RUNTIMES_PREFIX, { config: CONTROL_ROUTE, schema: { body: SessionBody } }, async (request) => {
    const session = await jobs.openSession(request.body);
    request.log.info({ runtimeId: session.runtimeId, created: session.created }, 'compute-module session opened');
    // The in-pod runtime listener, when this server runs one: what a Python module needs (docs/contracts.md §10).
    const pod = await app.podRuntime.listener?.();
    return {
      runtimeId: session.runtimeId,
      moduleAuthToken: session.moduleAuthToken,
      getJobUri: uri(session.runtimeId, 'job'),
      postResultUri: uri(session.runtimeId, 'results'),
      postSchemaUri: uri(session.runtimeId, 'schemas'),
      ...(pod
        ? {
            podRuntime: {
              host: pod.host,
              port: pod.port,
              restartNotificationUri: pod.restartNotificationUri(session.runtimeId),
              caCertificate: pod.caCertificate,
            },
          }
        : {}),
    };
  });

  moduleRoutes(app, { ...deps, stored: 'emptyObject' });

  app.get(`${RUNTIMES_PREFIX}/:runtimeId/jobs/:jobId`, { config: CONTROL_ROUTE, schema: { params: JobParams } }, async (request) => {
    const { runtimeId, jobId } = request.params;
    const { runtime, job } = await lookUp(store, runtimeId, jobId);
    const [apps, schemas] = await Promise.all([store.computeModules.deployedAppsOf(runtimeId), store.computeModules.schemas(runtimeId)]);
    const answer = inspectionWire(runtime, apps, job!, schemas, jobs.waitingPolls(runtimeId));
    if (serializes(answer)) return withNote(answer, job!, schemas);
    // Stored before such values were refused: shown without what cannot be written, never a 500.
    return withNote(
      { ...answer, job: { ...answer.job, query: serializes(job!.query) ? job!.query : null }, schemas: schemas.filter(serializes) },
      job!,
      schemas,
    );
  });
}
