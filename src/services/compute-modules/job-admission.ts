// Admission of compute-module jobs (docs/contracts.md §6, §8): what a job request must name, the job it becomes, the
// per-runtime queue cap, and the retention bound on finished jobs. The lifecycle itself is in jobs.ts.
import type { Store, JobRecord } from '../../store/store.js';
import type { Clock } from '../../clock.js';
import type { InstanceLease } from '../../store/instance-lease.js';
import type { ComputeModuleSettings } from './settings.js';
import { randomUuid } from '../../ids.js';
import { deployedAppInactive, invalidRequest, queueFull, quote, resourceNotFound } from '../../errors.js';
import { serializes } from './serializes.js';

export const DEFAULT_BRANCH = 'master';

export interface JobServiceDeps {
  store: Store;
  clock: Clock;
  settings: Readonly<ComputeModuleSettings>;
  /** The app's lease on a shared store (src/store/instance-lease.ts); a job service made without one makes its own. */
  instance?: InstanceLease;
  /** Where failures that no request can report (a lease check on a timer) are logged. */
  logError?: (err: unknown, message: string) => void;
}

export interface JobRequest {
  deployedAppRid: string;
  /** Absent or null: the default branch. */
  deployedAppBranch?: string | null;
  queryType: string;
  query?: unknown;
}

export interface SessionRequest {
  runtimeId: string;
  moduleAuthToken?: string;
  deployedAppRid?: string;
  branch?: string;
  displayName?: string;
}

/** Queues the job unless its runtime's queue is full (docs/contracts.md §8). */
export async function enqueue(deps: JobServiceDeps, job: JobRecord): Promise<void> {
  const max = deps.settings.maxQueuedJobs;
  if (await deps.store.computeModuleJobs.insertIfRoom(job, max)) return;
  throw queueFull(`Runtime ${quote(job.runtimeId)} already has ${max} queued jobs (compute_modules.max_queued_jobs); retry once its module has taken some.`);
}

/** A new queued job for the deployed app, checked before anything is stored. */
export async function newJob(deps: JobServiceDeps, request: JobRequest): Promise<JobRecord> {
  const branch = request.deployedAppBranch ?? DEFAULT_BRANCH;
  const app = await deps.store.computeModules.deployedApp(request.deployedAppRid, branch);
  const named = `Deployed app ${quote(request.deployedAppRid)} on branch ${quote(branch)}`;
  if (!app) throw resourceNotFound(`${named} was not found.`);
  if (!app.active) throw deployedAppInactive(`${named} is not active.`);
  // Nothing stored may later fail to serialize (issue 10, item 1); the edge also refuses deep JSON.
  if (!serializes(request.query)) throw invalidRequest('The query cannot be stored: it could not be serialized again (nested too deeply).');
  return {
    jobId: randomUuid(),
    runtimeId: app.runtimeId,
    deployedAppRid: app.deployedAppRid,
    branch,
    queryType: request.queryType,
    query: request.query ?? {},
    state: 'queued',
    handOuts: 0,
    submittedAt: deps.clock.now(),
  };
}

/** Forgets the oldest finished jobs past `retained_jobs` or `max_retained_result_bytes`. */
export async function pruneRetained(deps: JobServiceDeps): Promise<void> {
  const { retainedJobs, maxRetainedResultBytes } = deps.settings;
  await deps.store.computeModuleJobs.pruneFinished(retainedJobs, maxRetainedResultBytes);
}
