// Compute-module runtimes as the dashboard sees them (docs/contracts.md §7): each runtime with its deployed apps, the
// function schemas its module posted, its waiting polls and its newest jobs, results shown as text or hex;
// and cancelling a job. Registered inside the compute-module scope, because cancelling goes through the one
// job service (it wakes a held execute). Errors use that prefix's OAuth envelope. Never a module auth token.
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { JobRecord, Store } from '../../store/store.js';
import { resourceNotFound } from '../../errors.js';
import { CONTROL_ROUTE } from '../../http/route-config.js';
import type { JobService } from './jobs.js';
import { RUNTIMES_PREFIX } from './policy.js';

/** Newest jobs shown per runtime. */
const JOBS_PER_RUNTIME = 50;
/** Bytes of a result or a query shown in a listing; the rest is cut and marked. */
const PREVIEW_BYTES = 2048;

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** Printable UTF-8 (tabs and line breaks allowed) reads as text; anything else as hex. */
export function preview(bytes: Buffer): { encoding: 'text' | 'hex'; text: string; truncated: boolean } {
  const truncated = bytes.length > PREVIEW_BYTES;
  const head = bytes.subarray(0, PREVIEW_BYTES);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  // A cut in the middle of a character leaves one replacement character at the end; that is still text.
  const body = truncated ? text.replace(/\uFFFD$/, '') : text;
  // eslint-disable-next-line no-control-regex
  const printable = !body.includes('\uFFFD') && !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(body);
  if (printable) return { encoding: 'text', text: body, truncated };
  return { encoding: 'hex', text: head.toString('hex').replace(/(..)(?!$)/g, '$1 '), truncated };
}

function queryPreview(query: unknown): { text: string; truncated: boolean } {
  const text = JSON.stringify(query) ?? 'null';
  return text.length > PREVIEW_BYTES ? { text: text.slice(0, PREVIEW_BYTES), truncated: true } : { text, truncated: false };
}

export function jobView(job: JobRecord) {
  return {
    id: job.jobId,
    state: job.state,
    deployedAppRid: job.deployedAppRid,
    branch: job.branch,
    queryType: job.queryType,
    query: queryPreview(job.query),
    handOuts: job.handOuts,
    submittedAt: iso(job.submittedAt),
    startedAt: iso(job.startedAt),
    finishedAt: iso(job.finishedAt),
    failure: job.failure ?? null,
    result: job.result ? { bytes: job.result.body.length, contentType: job.result.contentType ?? null, preview: preview(job.result.body) } : null,
  };
}

export function runtimeControlRoutes(parent: FastifyInstance, deps: { store: Store; jobs: JobService }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { store, jobs } = deps;

  app.get(RUNTIMES_PREFIX, { config: CONTROL_ROUTE }, async () => {
    const runtimes = await store.computeModules.listRuntimes();
    return {
      runtimes: await Promise.all(
        runtimes.map(async ({ runtimeId }) => {
          const [apps, schemas, recent] = await Promise.all([
            store.computeModules.deployedAppsOf(runtimeId),
            store.computeModules.schemas(runtimeId),
            store.computeModuleJobs.listByRuntime(runtimeId, JOBS_PER_RUNTIME),
          ]);
          return {
            runtimeId,
            waitingPolls: jobs.waitingPolls(runtimeId),
            deployedApps: apps.map((a) => ({ deployedAppRid: a.deployedAppRid, branch: a.branch, displayName: a.displayName ?? null, active: a.active })),
            schemas,
            jobs: recent.map(jobView),
          };
        }),
      ),
    };
  });

  app.delete(
    `${RUNTIMES_PREFIX}/:runtimeId/jobs/:jobId`,
    { config: CONTROL_ROUTE, schema: { params: Type.Object({ runtimeId: Type.String({ minLength: 1 }), jobId: Type.String({ minLength: 1 }) }) } },
    async (request) => {
      const { runtimeId, jobId } = request.params;
      const existing = await store.computeModuleJobs.byId(jobId);
      if (!existing || existing.runtimeId !== runtimeId) throw resourceNotFound(`Job ${jobId} was not found on runtime ${runtimeId}.`);
      // A finished job stays as it is; the answer shows the state it has.
      const job = (await jobs.cancel(jobId)) ?? existing;
      return { job: jobView(job) };
    },
  );
}
