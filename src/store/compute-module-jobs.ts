// Compute-module jobs. Every state change is one atomic method, so that a PostgreSQL store can implement
// each as a single statement (claimNext with FOR UPDATE SKIP LOCKED). Only src/services/compute-modules/jobs.ts
// calls the methods that change state.

export type JobState = 'queued' | 'inProgress' | 'succeeded' | 'failed' | 'canceled';
export const FINISHED_STATES: readonly JobState[] = ['succeeded', 'failed', 'canceled'];

export interface JobResult {
  /** The bytes exactly as the module posted them. */
  body: Buffer;
  contentType?: string;
}

export interface JobRecord {
  jobId: string;
  runtimeId: string;
  deployedAppRid: string;
  branch: string;
  queryType: string;
  query: unknown;
  state: JobState;
  /** How many times a poll has been handed the job. */
  handOuts: number;
  submittedAt: number;
  /** The latest hand-out. */
  startedAt?: number;
  finishedAt?: number;
  result?: JobResult;
  /** Why a failed job failed. */
  failure?: string;
}

export interface RequeueOutcome {
  requeued: JobRecord[];
  failed: JobRecord[];
}

export interface ComputeModuleJobRepo {
  /** Queues a new job (state `queued`, no hand-outs) behind the runtime's other queued jobs. */
  insert(job: JobRecord): Promise<void>;
  /**
   * As insert, unless the runtime already has `maxQueued` queued jobs: then nothing is stored and the answer
   * is false. One statement (count and insert together), so that concurrent submits cannot overshoot.
   */
  insertIfRoom(job: JobRecord, maxQueued: number): Promise<boolean>;
  byId(jobId: string): Promise<JobRecord | undefined>;
  /**
   * Hands out the runtime's oldest queued job: `inProgress`, one more hand-out. `holder`: the instance handing
   * it out, whose lease it then is (stores shared by several instances).
   */
  claimNext(runtimeId: string, now: number, holder?: string): Promise<JobRecord | undefined>;
  /**
   * Shared stores: every in-progress job whose holding instance has not renewed its lease for `goneMs` goes back
   * to the queue, its hand-out counted (or fails after `maxHandOuts`). One statement, so exactly once.
   */
  requeueLapsed?(goneMs: number, maxHandOuts: number, failure: string, now: number): Promise<RequeueOutcome>;
  /**
   * Takes back a claim whose response never reached the poller: back to `queued` at its old place and the
   * hand-out not counted. Only while the job is in progress with exactly `handOuts` hand-outs.
   */
  unclaim(jobId: string, handOuts: number): Promise<boolean>;
  /** `queued` or `inProgress` -> `succeeded` with the result; undefined (nothing changes) otherwise. */
  complete(jobId: string, result: JobResult, now: number): Promise<JobRecord | undefined>;
  /** `queued` or `inProgress` -> `canceled`; undefined (nothing changes) otherwise. */
  cancel(jobId: string, now: number): Promise<JobRecord | undefined>;
  /** `queued` or `inProgress` -> `failed` with `failure`; undefined (nothing changes) otherwise. */
  fail(jobId: string, failure: string, now: number): Promise<JobRecord | undefined>;
  /**
   * Every `inProgress` job of the runtime goes back to the queue at its old place, except those already
   * handed out `maxHandOuts` times, which fail with `failure`.
   */
  requeueInProgress(runtimeId: string, maxHandOuts: number, failure: string, now: number): Promise<RequeueOutcome>;
  /**
   * One handed-out job goes back, its hand-out counted (a cut answer, a restarted replica's job): as
   * requeueInProgress, for the job `jobId` only and only while it is in progress with exactly `handOuts`
   * hand-outs (so a second take-back of the same hand-out, or one racing a new hand-out, does nothing).
   */
  requeueJob(jobId: string, handOuts: number, maxHandOuts: number, failure: string, now: number): Promise<RequeueOutcome>;
  /**
   * The lease: as requeueInProgress, but only for jobs last handed out at or before `handedOutBy` (their
   * `startedAt`), so that a job claimed by a poll that began after the runtime was judged gone stays with
   * that poll. One statement: UPDATE ... WHERE runtime and state inProgress and startedAt <= handedOutBy.
   */
  requeueHandedOutBefore(runtimeId: string, handedOutBy: number, maxHandOuts: number, failure: string, now: number): Promise<RequeueOutcome>;
  /**
   * Forgets the oldest finished jobs until at most `keep` remain and their results together hold at most
   * `maxResultBytes` bytes (no byte bound when omitted); queued and running jobs are never dropped.
   */
  pruneFinished(keep: number, maxResultBytes?: number): Promise<number>;
  /** The bytes of every retained result, together. */
  retainedResultBytes(): Promise<number>;
  countFinished(): Promise<number>;
  /** The runtime's newest `limit` jobs in any state, newest first, for the dashboard. */
  listByRuntime(runtimeId: string, limit: number): Promise<JobRecord[]>;
}
