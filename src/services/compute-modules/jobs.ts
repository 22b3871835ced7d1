// The job lifecycle (CONTRACTS §6) and the only code that changes job state. It also owns the wake-ups:
// polls wait per runtime for a queued job, synchronous executes wait per job for it to finish.
//
//   queued --poll--> inProgress --result--> succeeded
//   queued --result--> succeeded                     (a late answer from a module whose session was reset)
//   queued | inProgress --cancel--> canceled
//   inProgress --session reset--> queued, or failed once it has been handed out MAX_HAND_OUTS times
import { performance } from 'node:perf_hooks';
import type { Store, JobRecord, JobResult } from '../../store/store.js';
import type { Clock } from '../../clock.js';
import type { ComputeModuleSettings } from '../../settings.js';
import { randomSecret, randomUuid } from '../../ids.js';
import { deployedAppInactive, jobTimeout, resourceNotFound, temporarilyUnavailable } from '../../errors.js';
import { Wakeups } from './wakeups.js';

export const MAX_HAND_OUTS = 3;
export const DEFAULT_BRANCH = 'master';

export interface JobServiceDeps {
  store: Store;
  clock: Clock;
  settings: Readonly<ComputeModuleSettings>;
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

/** What woke a waiting poll: a job was queued, or the runtime's session was reset (the poll then ends). */
type PollEvent = 'job' | 'session';

/**
 * One per runtime session: a poll keeps the one it started under and ends when it is replaced (a session
 * or store reset). `queued` counts the jobs queued for the runtime since, so that a poll can tell whether
 * one arrived while it was looking at the queue.
 */
interface PollSession {
  queued: number;
}

export class JobService {
  private readonly polls = new Wakeups<PollEvent>();
  private readonly finishes = new Wakeups<JobRecord>();
  /** Per runtime; bounded by the store's runtimes and emptied on reset. */
  private readonly sessions = new Map<string, PollSession>();

  constructor(private readonly deps: JobServiceDeps) {}

  /** Creates the runtime or resets its session: new token, no schemas, unanswered jobs back in the queue. */
  async openSession(request: SessionRequest): Promise<{ runtimeId: string; moduleAuthToken: string; created: boolean }> {
    const { store, clock } = this.deps;
    const moduleAuthToken = request.moduleAuthToken ?? randomSecret();
    const created = await store.computeModules.openSession({ runtimeId: request.runtimeId, moduleAuthToken });
    if (request.deployedAppRid !== undefined) {
      const branch = request.branch ?? DEFAULT_BRANCH;
      const existing = await store.computeModules.deployedApp(request.deployedAppRid, branch);
      await store.computeModules.upsertDeployedApp({
        deployedAppRid: request.deployedAppRid,
        branch,
        runtimeId: request.runtimeId,
        displayName: request.displayName ?? existing?.displayName,
        active: existing?.active ?? true,
      });
    }
    // Polls of the previous session end first, so that they cannot take the jobs put back below.
    this.sessions.set(request.runtimeId, { queued: 0 });
    this.polls.notify(request.runtimeId, 'session');
    const failure = `The job was handed out ${MAX_HAND_OUTS} times without an answer.`;
    const outcome = await store.computeModuleJobs.requeueInProgress(request.runtimeId, MAX_HAND_OUTS, failure, clock.now());
    for (const job of outcome.failed) this.finishes.notify(job.jobId, job);
    if (outcome.failed.length > 0) await this.prune();
    if (outcome.requeued.length > 0) this.jobQueued(request.runtimeId);
    return { runtimeId: request.runtimeId, moduleAuthToken, created };
  }

  /** Queues a job for the deployed app's runtime. */
  async submit(request: JobRequest): Promise<JobRecord> {
    const job = await this.newJob(request);
    await this.deps.store.computeModuleJobs.insert(job);
    this.jobQueued(job.runtimeId);
    return job;
  }

  /**
   * Queues a job and waits until it finishes. Resolves with the finished job; throws job_timeout after
   * `executeTimeoutMs` (the job stays), and undefined when the client went away (the job stays too).
   */
  async execute(request: JobRequest, signal: AbortSignal): Promise<JobRecord | undefined> {
    const job = await this.newJob(request);
    // Subscribed before the job exists anywhere, so its result cannot slip past.
    const subscription = this.finishes.subscribe(job.jobId, this.deps.settings.executeTimeoutMs, signal);
    try {
      await this.deps.store.computeModuleJobs.insert(job);
    } catch (err) {
      subscription.cancel();
      throw err;
    }
    this.jobQueued(job.runtimeId);
    const wake = await subscription.wake;
    switch (wake.kind) {
      case 'notified':
        return wake.value;
      case 'timeout':
        throw jobTimeout(`Job ${job.jobId} did not finish within ${this.deps.settings.executeTimeoutMs} ms; it stays queued or running and its result can be fetched later.`);
      case 'aborted':
        return undefined;
      case 'reset':
        throw resourceNotFound(`Job ${job.jobId} was discarded when the service was reset.`);
      case 'shutdown':
        throw temporarilyUnavailable(`The service is shutting down; job ${job.jobId} was not answered.`);
    }
  }

  /**
   * Long-poll: hands out the runtime's next queued job, waiting up to `pollTimeoutMs` for one. Undefined
   * when none came, the session was reset, or the client went away (then nothing is handed out).
   *
   * It looks at the queue first and subscribes only when the look found nothing, so a poll that gets a job
   * never registers as waiting. No wake-up is lost in between: a job queued while the look was under way
   * (the store is asynchronous) has moved the session's `queued` count, and then the poll looks again;
   * the count is compared and the subscription made in one synchronous step, so nothing can be queued in
   * between.
   */
  async poll(runtimeId: string, signal: AbortSignal): Promise<JobRecord | undefined> {
    const jobs = this.deps.store.computeModuleJobs;
    const deadline = performance.now() + this.deps.settings.pollTimeoutMs;
    const session = this.session(runtimeId);
    const current = () => this.sessions.get(runtimeId) === session;
    for (;;) {
      if (signal.aborted || !current()) return undefined;
      const queuedBefore = session.queued;
      const job = await jobs.claimNext(runtimeId, this.deps.clock.now());
      if (job) {
        if (!signal.aborted && current()) return job;
        // Its client went away, or its session was reset while it looked: the job goes back.
        await this.undelivered(job);
        return undefined;
      }
      if (!current()) return undefined;
      if (session.queued !== queuedBefore) continue;
      const wake = await this.polls.subscribe(runtimeId, deadline - performance.now(), signal).wake;
      if (wake.kind !== 'notified') return undefined;
    }
  }

  /** A handed-out job whose response never reached its poller goes back to the queue. */
  async undelivered(job: JobRecord): Promise<void> {
    if (await this.deps.store.computeModuleJobs.unclaim(job.jobId, job.handOuts)) this.jobQueued(job.runtimeId);
  }

  /** Stores a result. False when the job had already finished (canceled or answered): the result is discarded. */
  async postResult(jobId: string, result: JobResult): Promise<boolean> {
    const job = await this.deps.store.computeModuleJobs.complete(jobId, result, this.deps.clock.now());
    if (!job) return false;
    this.finishes.notify(jobId, job);
    await this.prune();
    return true;
  }

  /** Cancels a queued or running job; a finished job is left as it is. Undefined for an unknown job. */
  async cancel(jobId: string): Promise<JobRecord | undefined> {
    const jobs = this.deps.store.computeModuleJobs;
    const canceled = await jobs.cancel(jobId, this.deps.clock.now());
    if (!canceled) return jobs.byId(jobId);
    this.finishes.notify(jobId, canceled);
    await this.prune();
    return canceled;
  }

  /** The store was reset: every waiter answers at once. */
  interruptForReset(): void {
    this.sessions.clear(); // a poll still looking at the queue ends too
    this.polls.interruptAll('reset');
    this.finishes.interruptAll('reset');
  }

  /** The server is closing: every waiter answers at once and new ones do not wait. */
  interruptForShutdown(): void {
    this.polls.interruptAll('shutdown');
    this.finishes.interruptAll('shutdown');
  }

  /**
   * The module restarted and said so (the in-pod runtime's restart notification, CONTRACTS §10): the runtime's
   * handed-out, unanswered jobs go back to the queue (or fail after MAX_HAND_OUTS hand-outs). Their ids.
   */
  async requeueHandedOut(runtimeId: string): Promise<string[]> {
    const failure = `The job was handed out ${MAX_HAND_OUTS} times without an answer.`;
    const outcome = await this.deps.store.computeModuleJobs.requeueInProgress(runtimeId, MAX_HAND_OUTS, failure, this.deps.clock.now());
    for (const job of outcome.failed) this.finishes.notify(job.jobId, job);
    if (outcome.failed.length > 0) await this.prune();
    if (outcome.requeued.length > 0) this.jobQueued(runtimeId);
    return [...outcome.requeued, ...outcome.failed].map((job) => job.jobId);
  }

  waitingPolls(runtimeId: string): number {
    return this.polls.count(runtimeId);
  }

  private session(runtimeId: string): PollSession {
    let session = this.sessions.get(runtimeId);
    if (!session) this.sessions.set(runtimeId, (session = { queued: 0 }));
    return session;
  }

  /** Counted before anyone is woken, so that a poll between its look and its subscription sees it. */
  private jobQueued(runtimeId: string): void {
    this.session(runtimeId).queued++;
    this.polls.notify(runtimeId, 'job');
  }

  private async newJob(request: JobRequest): Promise<JobRecord> {
    const branch = request.deployedAppBranch ?? DEFAULT_BRANCH;
    const app = await this.deps.store.computeModules.deployedApp(request.deployedAppRid, branch);
    if (!app) throw resourceNotFound(`Deployed app ${request.deployedAppRid} on branch ${branch} was not found.`);
    if (!app.active) throw deployedAppInactive(`Deployed app ${request.deployedAppRid} on branch ${branch} is not active.`);
    return {
      jobId: randomUuid(),
      runtimeId: app.runtimeId,
      deployedAppRid: app.deployedAppRid,
      branch,
      queryType: request.queryType,
      query: request.query ?? {},
      state: 'queued',
      handOuts: 0,
      submittedAt: this.deps.clock.now(),
    };
  }

  private async prune(): Promise<void> {
    await this.deps.store.computeModuleJobs.pruneFinished(this.deps.settings.retainedJobs);
  }
}
