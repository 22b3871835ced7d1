// The runtime routes as the in-pod runtime answers them (CONTRACTS §10), on the pod listener. Same paths,
// same job service and store as the public runtime routes (runtime-routes.ts); what differs is what the
// platform's Python runtime SDK (foundry-compute-modules 0.34.0) counts as success:
// - a result post succeeds only on 204 (anything else is retried five times, then an error result is posted);
// - schemas: any status is accepted; 204 as the in-pod runtime answers;
// - the restart notification, POSTed once at start, must be 200 with a JSON array of job ids (strings) or the
//   module exits after five attempts; the runtime's handed-out, unanswered jobs go back to the queue.
// No session or inspection routes here: those are the control side, on the public port.
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../../store/store.js';
import type { Settings } from '../../../settings.js';
import type { JobService } from '../jobs.js';
import { RUNTIMES_PREFIX, moduleAuth } from '../runtime-routes.js';
import { clientGone } from '../client-gone.js';
import { pollWire } from '../wire.js';
import { useJsonBodies } from '../../../http/body-parsers.js';

export const RESTART_TAIL = 'restart';

export interface PodRouteDeps {
  store: Store;
  settings: Readonly<Settings>;
  jobs: JobService;
}

const RuntimeParams = Type.Object({ runtimeId: Type.String({ minLength: 1 }) });
const JobParams = Type.Object({ runtimeId: Type.String({ minLength: 1 }), jobId: Type.String({ minLength: 1 }) });
const FunctionSchemas = Type.Array(Type.Object({}, { additionalProperties: true }));

export async function podRoutes(pod: FastifyInstance, deps: PodRouteDeps): Promise<void> {
  const { store, jobs } = deps;
  const app = pod.withTypeProvider<TypeBoxTypeProvider>();
  const auth = moduleAuth(store);

  // The long-poll exactly as on the public port: a job whose answer never reaches the module goes back.
  app.get(`${RUNTIMES_PREFIX}/:runtimeId/job`, { onRequest: auth, schema: { params: RuntimeParams } }, async (request, reply) => {
    const gone = clientGone(reply);
    const job = await jobs.poll(request.params.runtimeId, gone);
    if (!job) return reply.code(204).send();
    const requeue = () => jobs.undelivered(job).catch((err: unknown) => request.log.error({ err, jobId: job.jobId }, 'could not re-queue an undelivered job'));
    gone.addEventListener('abort', requeue, { once: true });
    return pollWire(job);
  });

  // Bodiless: the SDK sends no content type and no body.
  app.post(`${RUNTIMES_PREFIX}/:runtimeId/${RESTART_TAIL}`, { onRequest: auth, schema: { params: RuntimeParams } }, async (request) => {
    const ids = await jobs.requeueHandedOut(request.params.runtimeId);
    request.log.info({ runtimeId: request.params.runtimeId, requeued: ids.length, jobIds: ids }, 'module restart notification: handed-out jobs back in the queue');
    return ids;
  });

  await app.register(async (scope) => {
    useJsonBodies(scope);
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      `${RUNTIMES_PREFIX}/:runtimeId/schemas`,
      { onRequest: auth, schema: { params: RuntimeParams, body: FunctionSchemas } },
      async (request, reply) => {
        await store.computeModules.setSchemas(request.params.runtimeId, request.body);
        return reply.code(204).send();
      },
    );
  });

  // Results: raw bytes of any content type, possibly chunked (a streaming function's generator), up to the cap.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      `${RUNTIMES_PREFIX}/:runtimeId/results/:jobId`,
      { onRequest: auth, bodyLimit: deps.settings.computeModules.maxResultBytes, schema: { params: JobParams } },
      async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const accepted = await jobs.postResult(request.params.jobId, { body, contentType: request.headers['content-type'] });
        // 204 either way: the SDK retries anything else, and a late answer is discarded (CONTRACTS §6).
        if (!accepted) request.log.info({ jobId: request.params.jobId }, 'result for a job no longer in progress discarded');
        return reply.code(204).send();
      },
    );
  });
}
