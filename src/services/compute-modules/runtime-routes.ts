// Runtime routes (SPEC §4.5, CONTRACTS §6): what a module's runtime SDK talks to. Errors use the OAuth envelope.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { JobRecord, RuntimeRecord, Store } from '../../store/store.js';
import type { Settings } from '../../settings.js';
import { safeEqual } from '../../http/auth.js';
import { invalidModuleAuthToken, resourceNotFound } from '../../errors.js';
import type { JobService } from './jobs.js';
import { clientGone } from './client-gone.js';
import { inspectionWire, pollWire } from './wire.js';
import { CONTROL_ROUTE } from '../../http/route-config.js';
import { noteHandOut, noteResult, withNote } from './unanswered.js';

export const RUNTIMES_PREFIX = '/_emulate/platform/compute-modules/runtimes';

export interface RuntimeRouteDeps {
  store: Store;
  settings: Readonly<Settings>;
  jobs: JobService;
}

const RuntimeParams = Type.Object({ runtimeId: Type.String({ minLength: 1 }) });
const JobParams = Type.Object({ runtimeId: Type.String({ minLength: 1 }), jobId: Type.String({ minLength: 1 }) });
const SessionBody = Type.Object(
  {
    runtimeId: Type.String({ minLength: 1, maxLength: 200 }),
    moduleAuthToken: Type.Optional(Type.String({ minLength: 1 })),
    deployedAppRid: Type.Optional(Type.String({ minLength: 1 })),
    branch: Type.Optional(Type.String({ minLength: 1 })),
    displayName: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** The runtime, and the job when one is named, or 404 not_found. */
async function lookUp(store: Store, runtimeId: string, jobId?: string): Promise<{ runtime: RuntimeRecord; job?: JobRecord }> {
  const runtime = await store.computeModules.runtime(runtimeId);
  if (!runtime) throw resourceNotFound(`Runtime ${runtimeId} was not found.`);
  if (jobId === undefined) return { runtime };
  const job = await store.computeModuleJobs.byId(jobId);
  if (!job || job.runtimeId !== runtimeId) throw resourceNotFound(`Job ${jobId} was not found on runtime ${runtimeId}.`);
  return { runtime, job };
}

/** Unknown runtime (or job) 404 first, then the Module-Auth-Token in constant time: all before any body is read. */
function moduleAuth(store: Store) {
  return async (request: FastifyRequest) => {
    const { runtimeId, jobId } = request.params as { runtimeId: string; jobId?: string };
    const { runtime } = await lookUp(store, runtimeId, jobId);
    const presented = request.headers['module-auth-token'];
    if (typeof presented !== 'string') throw invalidModuleAuthToken().because(`No Module-Auth-Token header; the routes of runtime "${runtimeId}" expect the token its session answered.`);
    if (!safeEqual(presented, runtime.moduleAuthToken)) {
      throw invalidModuleAuthToken().because(`The Module-Auth-Token is not the current token of runtime "${runtimeId}" (a session reset rotates it).`);
    }
  };
}

export function runtimeRoutes(parent: FastifyInstance, deps: RuntimeRouteDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { store, jobs } = deps;
  const uri = (runtimeId: string, tail: string) => `${app.publicUrl()}${RUNTIMES_PREFIX}/${encodeURIComponent(runtimeId)}/${tail}`;

  // Session creation and inspection hand out or reveal session state, so like the control routes they answer
  // only on loopback or with the configured control token; otherwise 404.
  app.post(RUNTIMES_PREFIX, { config: CONTROL_ROUTE, schema: { body: SessionBody } }, async (request) => {
    const session = await jobs.openSession(request.body);
    request.log.info({ runtimeId: session.runtimeId, created: session.created }, 'compute-module session opened');
    return {
      runtimeId: session.runtimeId,
      moduleAuthToken: session.moduleAuthToken,
      getJobUri: uri(session.runtimeId, 'job'),
      postResultUri: uri(session.runtimeId, 'results'),
      postSchemaUri: uri(session.runtimeId, 'schemas'),
    };
  });

  app.get(`${RUNTIMES_PREFIX}/:runtimeId/job`, { onRequest: moduleAuth(store), schema: { params: RuntimeParams } }, async (request, reply) => {
    const gone = clientGone(reply);
    const job = await jobs.poll(request.params.runtimeId, gone);
    if (!job) return reply.code(204).send();
    // The same signal, still listening: if the answer is never written out to the module, the job goes back
    // to the queue. (poll returned the job only if the signal had not fired, and no event can run since.)
    const requeue = () => jobs.undelivered(job).catch((err: unknown) => request.log.error({ err, jobId: job.jobId }, 'could not re-queue an undelivered job'));
    gone.addEventListener('abort', requeue, { once: true });
    await noteHandOut(request, store, job);
    return pollWire(job);
  });

  // Each function schema is an object (the runtime SDK posts one per function); anything else is a broken
  // module's post, refused rather than stored and served garbled by the multiplexer's schemas route.
  const FunctionSchemas = Type.Array(Type.Object({}, { additionalProperties: true }));
  app.post(
    `${RUNTIMES_PREFIX}/:runtimeId/schemas`,
    { onRequest: moduleAuth(store), schema: { params: RuntimeParams, body: FunctionSchemas } },
    async (request) => {
      await store.computeModules.setSchemas(request.params.runtimeId, request.body);
      return {};
    },
  );

  // Results are raw bytes of any content type, up to max_result_bytes: their own parser, in their own scope.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      `${RUNTIMES_PREFIX}/:runtimeId/results/:jobId`,
      { onRequest: moduleAuth(store), bodyLimit: deps.settings.computeModules.maxResultBytes, schema: { params: JobParams } },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const contentType = request.headers['content-type'];
        const accepted = await jobs.postResult(request.params.jobId, { body, contentType });
        if (!accepted) request.log.info({ jobId: request.params.jobId }, 'result for a job no longer in progress discarded');
        else noteResult(request, request.params.jobId, body);
        return {};
      },
    );
  });

  app.get(
    `${RUNTIMES_PREFIX}/:runtimeId/jobs/:jobId`,
    { config: CONTROL_ROUTE, schema: { params: JobParams } },
    async (request) => {
      const { runtimeId, jobId } = request.params;
      const { runtime, job } = await lookUp(store, runtimeId, jobId);
      const [apps, schemas] = await Promise.all([store.computeModules.deployedAppsOf(runtimeId), store.computeModules.schemas(runtimeId)]);
      return withNote(inspectionWire(runtime, apps, job!, schemas, jobs.waitingPolls(runtimeId)), job!, schemas);
    },
  );
}
