// Job routes (SPEC §4.6, docs/contracts.md §6): what an app calls, with any valid bearer token, through the same
// paths as the platform's multiplexer. Errors use the OAuth envelope.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { JobRecord, Store } from '../../../store/store.js';
import { jobCanceled, jobFailed, jobNotReady, quote, resourceNotFound } from '../../../errors.js';
import { DEFAULT_BRANCH, type JobService } from '../jobs.js';
import { clientGone } from '../../../http/client-gone.js';
import { jobStatusWire, jobWire } from '../wire.js';
import { serializes } from '../serializes.js';

export const MULTIPLEXER_PREFIX = '/analytics-backend-multiplexer/api/module-group-multiplexer';

const bearer = { auth: { kind: 'bearer' } } as const;
const NonEmpty = Type.String({ minLength: 1 });
const JobRequestBody = Type.Object({
  deployedAppRid: NonEmpty,
  deployedAppBranch: Type.Optional(Type.Union([NonEmpty, Type.Null()])),
  queryType: NonEmpty,
  query: Type.Optional(Type.Unknown()),
});
/** A `Job` as the platform's client sends it back; only `id` is read. */
const JobBody = Type.Object({ id: NonEmpty });
const JobIdParams = Type.Object({ jobId: NonEmpty });

/** The result bytes of a succeeded job; otherwise the 409 that names its state. */
function sendResult(reply: FastifyReply, job: JobRecord): FastifyReply {
  switch (job.state) {
    case 'succeeded':
      return reply.type('application/octet-stream').send(job.result?.body ?? Buffer.alloc(0));
    case 'failed':
      throw jobFailed(`Job ${job.jobId} failed: ${job.failure ?? 'no reason recorded'}`);
    case 'canceled':
      throw jobCanceled(`Job ${job.jobId} was canceled.`);
    default:
      throw jobNotReady(`Job ${job.jobId} is ${job.state === 'queued' ? 'queued' : 'in progress'}; it has no result yet.`);
  }
}

export function jobRoutes(parent: FastifyInstance, deps: { store: Store; jobs: JobService }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { store, jobs } = deps;

  async function findJob(jobId: string): Promise<JobRecord> {
    const job = await store.computeModuleJobs.byId(jobId);
    if (!job) throw resourceNotFound(`Job ${quote(jobId)} was not found.`);
    return job;
  }

  // Synchronous: holds the request until the module has answered (or execute_timeout_ms has passed).
  for (const path of ['/compute-modules/jobs/execute', '/deployed-apps/jobs/execute']) {
    app.post(`${MULTIPLEXER_PREFIX}${path}`, { config: bearer, schema: { body: JobRequestBody } }, async (request, reply) => {
      const job = await jobs.execute(request.body, clientGone(reply));
      if (!job) return reply.code(204).send(); // the client went away (nobody reads this); the job stays
      return sendResult(reply, job);
    });
  }

  app.post(`${MULTIPLEXER_PREFIX}/deployed-apps/jobs`, { config: bearer, schema: { body: JobRequestBody } }, async (request) =>
    jobWire(await jobs.submit(request.body)),
  );

  app.get(`${MULTIPLEXER_PREFIX}/jobs/:jobId/status`, { config: bearer, schema: { params: JobIdParams } }, async (request) =>
    jobStatusWire(await findJob(request.params.jobId)),
  );
  app.put(`${MULTIPLEXER_PREFIX}/jobs/status/v2`, { config: bearer, schema: { body: JobBody } }, async (request) =>
    jobStatusWire(await findJob(request.body.id)),
  );

  app.put(`${MULTIPLEXER_PREFIX}/jobs/result/v2`, { config: bearer, schema: { body: JobBody } }, async (request, reply) =>
    sendResult(reply, await findJob(request.body.id)),
  );
  app.get(`${MULTIPLEXER_PREFIX}/jobs/:jobId/result`, { config: bearer, schema: { params: JobIdParams } }, async (request, reply) =>
    sendResult(reply, await findJob(request.params.jobId)),
  );

  const cancel = async (jobId: string, reply: FastifyReply) => {
    if (!(await jobs.cancel(jobId))) throw resourceNotFound(`Job ${quote(jobId)} was not found.`);
    return reply.code(204).send();
  };
  app.delete(`${MULTIPLEXER_PREFIX}/jobs`, { config: bearer, schema: { body: JobBody } }, async (request, reply) => cancel(request.body.id, reply));
  app.delete(`${MULTIPLEXER_PREFIX}/jobs/:jobId`, { config: bearer, schema: { params: JobIdParams } }, async (request, reply) =>
    cancel(request.params.jobId, reply),
  );

  // The function schemas the deployed app's module posted (the multiplexer's getComputeModuleSchemas).
  app.get(
    `${MULTIPLEXER_PREFIX}/schemas`,
    { config: bearer, schema: { querystring: Type.Object({ rid: NonEmpty, branch: Type.Optional(NonEmpty) }) } },
    async (request) => {
      const branch = request.query.branch ?? DEFAULT_BRANCH;
      const deployed = await store.computeModules.deployedApp(request.query.rid, branch);
      if (!deployed) throw resourceNotFound(`Deployed app ${quote(request.query.rid)} on branch ${quote(branch)} was not found.`);
      const schemas = await store.computeModules.schemas(deployed.runtimeId);
      // A schema that cannot be written (stored before deep JSON was refused) is left out, not a 500 for all.
      return schemas.filter(serializes).map((s) => ({ issues: [], ...(s as Record<string, unknown>) }));
    },
  );
}
