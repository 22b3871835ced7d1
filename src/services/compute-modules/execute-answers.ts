// What a synchronous execute answers once its wait for the job ended (jobs.ts queues the job and waits): the
// finished job, or the error that says why there is none. Two callers, two rules for a wait that ran out.
import type { JobRecord } from '../../store/store.js';
import { jobTimeout, resourceNotFound, temporarilyUnavailable } from '../../errors.js';
import type { Wake } from './wakeups.js';

/**
 * The execute route: the finished job; job_timeout after `timeoutMs` (the job stays); undefined when the client
 * went away (the job stays too).
 */
export function executeAnswer(job: JobRecord, wake: Wake<JobRecord>, timeoutMs: number): JobRecord | undefined {
  if (wake.kind === 'timeout')
    throw jobTimeout(`Job ${job.jobId} did not finish within ${timeoutMs} ms; it stays queued or running and its result can be fetched later.`);
  return wake.kind === 'aborted' ? undefined : withinAnswer(job, wake);
}

/**
 * Function calls (docs/functions.md): the job as it then is when time ran out or the caller went away (still
 * queued or running), so that the caller can cancel it.
 */
export function withinAnswer(job: JobRecord, wake: Wake<JobRecord>): JobRecord {
  if (wake.kind === 'notified') return wake.value;
  if (wake.kind === 'reset') throw resourceNotFound(`Job ${job.jobId} was discarded when the service was reset.`);
  if (wake.kind === 'shutdown') throw temporarilyUnavailable(`The service is shutting down; job ${job.jobId} was not answered.`);
  return job;
}
