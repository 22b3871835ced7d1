// The routes a module's runtime SDK calls (docs/contracts.md §6): the long-poll, schemas and results. One definition
// for both places that serve them, the public port (runtime-routes.ts) and the in-pod runtime listener
// (pod-listener/, docs/contracts.md §10), so that every check, lease and note applies to both. The one difference is
// a parameter: the in-pod runtime answers a stored result or schemas with 204, the public port with 200 `{}`.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../../store/store.js';
import type { ComputeModuleSettings } from '../settings.js';
import { invalidRequest } from '../../../errors.js';
import type { JobService } from '../jobs.js';
import { clientGone } from '../../../http/client-gone.js';
import { pollArrived, watchDelivery } from '../delivery.js';
import { pollWire } from '../wire.js';
import { serializes } from '../serializes.js';
import { noteHandOut, noteResult } from './unanswered.js';
import { RUNTIMES_PREFIX } from '../policy.js';
import { JobParams, RuntimeParams, moduleAuth } from './module-auth.js';

export interface ModuleRouteDeps {
  store: Store;
  jobSettings: Readonly<ComputeModuleSettings>;
  jobs: JobService;
  /** How a stored result or schemas is answered: `{}` with 200 (public port), or 204 (the in-pod runtime). */
  stored: 'emptyObject' | 'noContent';
}

/** Registers the poll, schemas and results routes on `parent` (its JSON parser must be useJsonBodies'). */
export function moduleRoutes(parent: FastifyInstance, deps: ModuleRouteDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { store, jobs } = deps;
  const stored = (reply: FastifyReply) => (deps.stored === 'noContent' ? reply.code(204).send() : {});

  // Only GET: Fastify's automatic HEAD route would run this handler, hand out a job and drop it (issue 10, item 4).
  // A poll that answers 200 hands out a job: the event stream reports the runtimes changed.
  const pollRoute = { exposeHeadRoute: false, onRequest: moduleAuth(store), schema: { params: RuntimeParams }, config: { changes: ['runtimes'] } };
  app.get(`${RUNTIMES_PREFIX}/:runtimeId/job`, pollRoute, async (request, reply) => {
    pollArrived(request.raw.socket);
    const gone = clientGone(reply);
    const socket = request.raw.socket;
    const job = await jobs.poll(request.params.runtimeId, gone, { gone: () => socket.destroyed });
    if (!job) return reply.code(204).send();
    // The same signal, still listening: if the answer is never written out to the module, the job goes back
    // to the queue. (poll returned the job only if the signal had not fired, and no event can run since.)
    // At most once: a closing connection can fire both watches below, and a second take-back could otherwise
    // meet the job already handed out again with the same count.
    let taken = false;
    const requeue = (how: 'undelivered' | 'answerCut') => {
      if (taken) return;
      taken = true;
      jobs[how](job).catch((err: unknown) => request.log.error({ err, jobId: job.jobId }, 'could not re-queue an undelivered job'));
    };
    // Never written out: back uncounted, the module never saw it.
    gone.addEventListener('abort', () => requeue('undelivered'), { once: true });
    // Written out but reset before it was read (delivery.ts): back too, counted as a hand-out, so that an
    // answer cut every time ends the job after MAX_HAND_OUTS instead of cycling. Whichever of the two notices
    // first puts the job back; the other then does nothing.
    watchDelivery(socket, () => requeue('answerCut'));
    await noteHandOut(request, store, job);
    return pollWire(job);
  });

  // Each function schema is an object (the runtime SDK posts one per function); anything else is a broken
  // module's post, refused rather than stored and served garbled by the multiplexer's schemas route.
  const FunctionSchemas = Type.Array(Type.Object({}, { additionalProperties: true }));
  app.post(
    `${RUNTIMES_PREFIX}/:runtimeId/schemas`,
    { onRequest: moduleAuth(store), schema: { params: RuntimeParams, body: FunctionSchemas } },
    async (request, reply) => {
      if (!serializes(request.body)) throw invalidRequest('The function schemas cannot be stored: they could not be serialized again (nested too deeply).');
      await store.computeModules.setSchemas(request.params.runtimeId, request.body);
      return stored(reply);
    },
  );

  // Results are raw bytes of any content type, possibly chunked (a streaming function's generator), up to
  // max_result_bytes: their own parser, in their own scope.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope
      .withTypeProvider<TypeBoxTypeProvider>()
      .post(
        `${RUNTIMES_PREFIX}/:runtimeId/results/:jobId`,
        { onRequest: moduleAuth(store), bodyLimit: deps.jobSettings.maxResultBytes, schema: { params: JobParams } },
        async (request, reply) => {
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const contentType = request.headers['content-type'];
          const accepted = await jobs.postResult(request.params.jobId, { body, contentType });
          // Accepted either way: a late answer is discarded (docs/contracts.md §6), and the SDKs retry or exit on a refusal.
          if (!accepted) request.log.info({ jobId: request.params.jobId }, 'result for a job no longer in progress discarded');
          else noteResult(request, request.params.jobId, body);
          return stored(reply);
        },
      );
  });
}
