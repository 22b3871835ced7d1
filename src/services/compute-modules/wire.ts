// Wire shapes of jobs, following the platform's generated multiplexer types (Job, JobStatus,
// UserFriendlyException) and the runtime SDK's poll response.
import type { DeployedAppRecord, JobRecord, RuntimeRecord } from '../../store/store.js';
import { stableUuid } from '../../ids.js';

function exception(job: JobRecord, code: string, name: string, message: string) {
  // Stable per job, so that repeated status calls describe the same error instance.
  return { args: [], errorInstanceId: stableUuid(`job-error:${job.jobId}`), errorType: { code, name }, message };
}

export function jobStatusWire(job: JobRecord) {
  switch (job.state) {
    case 'queued':
      return { type: 'queued', queued: { queueInfo: 'NORMAL_OPERATION' } };
    case 'inProgress':
      return { type: 'inProgress', inProgress: { completedTasks: 0 } };
    case 'succeeded':
      return { type: 'succeeded', succeeded: { intermediateJobInfoList: [] } };
    case 'failed':
      return { type: 'failed', failed: { exception: exception(job, 'INTERNAL', 'ComputeModules:JobFailed', job.failure ?? 'The job failed.') } };
    case 'canceled':
      return { type: 'canceled', canceled: { exception: exception(job, 'CONFLICT', 'ComputeModules:JobCanceled', 'The job was canceled.') } };
  }
}

export const jobWire = (job: JobRecord) => ({ id: job.jobId, moduleId: null, nodeId: null, status: jobStatusWire(job) });

/** What GET_JOB_URI answers with when it hands out a job (the runtime SDK reads `computeModuleJobV1`). */
export const pollWire = (job: JobRecord) => ({
  type: 'computeModuleJobV1',
  computeModuleJobV1: { jobId: job.jobId, queryType: job.queryType, query: job.query },
});

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** The inspection route's body: never the module auth token, never the result bytes (only their size). */
export function inspectionWire(runtime: RuntimeRecord, apps: DeployedAppRecord[], job: JobRecord, schemas: unknown[], waitingPolls: number) {
  return {
    runtime: {
      runtimeId: runtime.runtimeId,
      waitingPolls,
      deployedApps: apps.map((a) => ({ deployedAppRid: a.deployedAppRid, branch: a.branch, displayName: a.displayName ?? null, active: a.active })),
    },
    job: {
      id: job.jobId,
      state: job.state,
      status: jobStatusWire(job),
      deployedAppRid: job.deployedAppRid,
      branch: job.branch,
      queryType: job.queryType,
      query: job.query,
      handOuts: job.handOuts,
      submittedAt: iso(job.submittedAt),
      startedAt: iso(job.startedAt),
      finishedAt: iso(job.finishedAt),
      result: job.result ? { bytes: job.result.body.length, contentType: job.result.contentType ?? null } : null,
    },
    schemas,
  };
}
