// The job lifecycle (docs/contracts.md §6) and the only code that changes job state. It also owns the wake-ups:
// polls wait per runtime for a queued job, synchronous executes wait per job for it to finish.
//
//   queued --poll--> inProgress --result--> succeeded
//   queued --result--> succeeded                     (a late answer from a module whose session was reset)
//   queued | inProgress --cancel--> canceled
//   inProgress --session reset, module gone, answer cut, restart--> queued, or failed (job-returns.ts)
//   queued | inProgress --its query cannot be serialized--> failed     (a poll never answers 500 for it)
import { performance } from 'node:perf_hooks';
import type { JobRecord, JobResult } from '../../store/store.js';
import { randomSecret } from '../../ids.js';
import { Wakeups } from './wakeups.js';
import { executeAnswer, withinAnswer } from './execute-answers.js';
import { ModuleLiveness, sharedPolls } from './liveness.js';
import { linkInstances, type CrossInstance } from './cross-instance.js';
import { serializes } from './serializes.js';
import { JobLeases } from './job-leases.js';
import { InstanceLease } from '../../store/instance-lease.js';
import { DEFAULT_BRANCH, enqueue, newJob, pruneRetained, type JobRequest, type JobServiceDeps, type SessionRequest } from './job-admission.js';
import { JobReturns, MAX_HAND_OUTS, type JobHolder } from './job-returns.js';

export { DEFAULT_BRANCH, type JobRequest, type JobServiceDeps, type SessionRequest } from './job-admission.js';
export { MAX_HAND_OUTS, type JobHolder } from './job-returns.js';

const FINISHED = new Set<JobRecord['state']>(['succeeded', 'failed', 'canceled']);

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
  /** Jobs coming back to the queue, and who holds the ones handed out here (job-returns.ts). */
  private readonly returns: JobReturns;

  private readonly liveness: ModuleLiveness;
  /** Hints to and from other instances sharing the store (none for the memory store). */
  private readonly peers: CrossInstance;
  /** The leases of the jobs this instance hands out, on a shared store (job-leases.ts). */
  private readonly leases: JobLeases;

  constructor(private readonly deps: JobServiceDeps) {
    this.returns = new JobReturns(deps, { finished: (job) => this.finished(job), queued: (runtimeId, count) => this.jobQueued(runtimeId, count) });
    this.liveness = new ModuleLiveness(
      deps.clock,
      deps.settings.moduleGoneMs,
      (runtimeId, lastSeen) => this.returns.moduleGone(runtimeId, lastSeen),
      (err, runtimeId) => deps.logError?.(err, `could not bring back the jobs of runtime ${runtimeId}, whose module has gone`),
      sharedPolls(deps.store),
    );
    this.peers = linkInstances(deps.store.shared ? deps.store.notifications : undefined, {
      jobQueued: (runtimeId) => this.jobQueued(runtimeId, 1, false),
      jobFinished: (jobId) => void this.finishedElsewhere(jobId),
      sessionReset: (runtimeId) => {
        this.sessions.set(runtimeId, { queued: 0 });
        this.polls.notify(runtimeId, 'session');
      },
      recheck: () => {
        for (const runtimeId of this.polls.keys()) this.jobQueued(runtimeId, this.polls.count(runtimeId), false);
        for (const jobId of this.finishes.keys()) void this.finishedElsewhere(jobId);
      },
    });
    this.leases = new JobLeases({
      jobs: deps.store.computeModuleJobs,
      lease: deps.instance ?? new InstanceLease(deps.store, deps.settings.moduleGoneMs, deps.logError),
      ownsLease: !deps.instance,
      moduleGoneMs: deps.settings.moduleGoneMs,
      maxHandOuts: MAX_HAND_OUTS,
      now: () => deps.clock.now(),
      settle: (runtimeId, outcome) => this.returns.settle(runtimeId, outcome),
      logError: deps.logError,
    });
  }

  /** Creates the runtime or resets its session: new token, no schemas, unanswered jobs back in the queue. */
  async openSession(request: SessionRequest): Promise<{ runtimeId: string; moduleAuthToken: string; created: boolean }> {
    const { store } = this.deps;
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
    this.peers.publishSession(request.runtimeId);
    await this.requeueHandedOut(request.runtimeId);
    return { runtimeId: request.runtimeId, moduleAuthToken, created };
  }

  /** Queues a job for the deployed app's runtime. */
  async submit(request: JobRequest): Promise<JobRecord> {
    const job = await newJob(this.deps, request);
    await enqueue(this.deps, job);
    this.jobQueued(job.runtimeId);
    return job;
  }

  /** Queues a job and waits until it finishes, or `executeTimeoutMs` (execute-answers.ts says what then). */
  async execute(request: JobRequest, signal: AbortSignal): Promise<JobRecord | undefined> {
    const { job, wake } = await this.queueAndWait(request, this.deps.settings.executeTimeoutMs, signal);
    return executeAnswer(job, wake, this.deps.settings.executeTimeoutMs);
  }

  /** For function calls (docs/functions.md): as execute, but waits at most `timeoutMs`, then answers the job as it is. */
  async executeWithin(request: JobRequest, timeoutMs: number, signal: AbortSignal): Promise<JobRecord> {
    const { job, wake } = await this.queueAndWait(request, timeoutMs, signal);
    return withinAnswer(job, wake);
  }

  /** Queues a job, subscribed to its finish before the job exists anywhere (so its result cannot slip past). */
  private async queueAndWait(request: JobRequest, timeoutMs: number, signal: AbortSignal) {
    const job = await newJob(this.deps, request);
    const subscription = this.finishes.subscribe(job.jobId, timeoutMs, signal);
    try {
      await enqueue(this.deps, job);
    } catch (err) {
      subscription.cancel();
      throw err;
    }
    this.jobQueued(job.runtimeId);
    return { job, wake: await subscription.wake };
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
  async poll(runtimeId: string, signal: AbortSignal, holder?: JobHolder): Promise<JobRecord | undefined> {
    await this.leases.ready;
    await this.liveness.pollStarted(runtimeId);
    try {
      const job = await this.pollQueue(runtimeId, signal);
      if (job && holder) this.returns.handedOut(job, runtimeId, holder);
      return job;
    } finally {
      this.liveness.pollEnded(runtimeId);
    }
  }

  /**
   * A queued job wakes one waiting poll (notifyOne), so a poll that was woken and leaves without looking
   * (its client went away) passes the wake-up on; one that looked and found nothing had it taken by another.
   */
  private async pollQueue(runtimeId: string, signal: AbortSignal): Promise<JobRecord | undefined> {
    const jobs = this.deps.store.computeModuleJobs;
    const deadline = performance.now() + this.deps.settings.pollTimeoutMs;
    const session = this.session(runtimeId);
    const current = () => this.sessions.get(runtimeId) === session;
    let woken = false;
    for (;;) {
      if (signal.aborted || !current()) {
        if (woken) this.polls.notifyOne(runtimeId, 'job');
        return undefined;
      }
      woken = false;
      const queuedBefore = session.queued;
      const job = await jobs.claimNext(runtimeId, this.deps.clock.now(), this.leases.instanceId);
      if (job && !(await this.servable(job))) continue;
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
      woken = wake.value === 'job';
    }
  }

  /**
   * Whether a claimed job can be answered: a query that cannot be serialized (stored by an older version, or
   * straight into the store) would make every poll that picks it a 500, so the job fails with a reason instead.
   */
  private async servable(job: JobRecord): Promise<boolean> {
    if (serializes(job.query)) return true;
    const failed = await this.deps.store.computeModuleJobs.fail(
      job.jobId,
      "The job's query could not be serialized (nested too deeply?); no module was given it.",
      this.deps.clock.now(),
    );
    if (failed) {
      this.finished(failed);
      await pruneRetained(this.deps);
    }
    return false;
  }

  /** Ways a handed-out job comes back (job-returns.ts); the routes call them. */
  readonly undelivered = (job: JobRecord): Promise<void> => this.returns.undelivered(job);
  readonly answerCut = (job: JobRecord): Promise<void> => this.returns.answerCut(job);
  readonly requeueRestarted = (runtimeId: string): Promise<string[]> => this.returns.requeueRestarted(runtimeId);
  readonly requeueHandedOut = (runtimeId: string): Promise<string[]> => this.returns.requeueHandedOut(runtimeId);

  /** Stores a result. False when the job had already finished (canceled or answered): the result is discarded. */
  async postResult(jobId: string, result: JobResult): Promise<boolean> {
    const job = await this.deps.store.computeModuleJobs.complete(jobId, result, this.deps.clock.now());
    if (!job) return false;
    this.finished(job);
    await pruneRetained(this.deps);
    return true;
  }

  /** Cancels a queued or running job; a finished job is left as it is. Undefined for an unknown job. */
  async cancel(jobId: string): Promise<JobRecord | undefined> {
    const jobs = this.deps.store.computeModuleJobs;
    const canceled = await jobs.cancel(jobId, this.deps.clock.now());
    if (!canceled) return jobs.byId(jobId);
    this.finished(canceled);
    await pruneRetained(this.deps);
    return canceled;
  }

  /** The store was reset: every waiter answers at once. */
  interruptForReset(): void {
    this.sessions.clear(); // a poll still looking at the queue ends too
    this.returns.clear();
    this.liveness.clear();
    this.polls.interruptAll('reset');
    this.finishes.interruptAll('reset');
  }

  /** The server is closing: every waiter answers at once and new ones do not wait. */
  interruptForShutdown(): void {
    this.leases.stop();
    this.liveness.close();
    this.peers.stop();
    this.polls.interruptAll('shutdown');
    this.finishes.interruptAll('shutdown');
  }

  /** Whether the runtime's module polled here within module_gone_ms (a reset keeps its session). */
  moduleConnected(runtimeId: string): boolean {
    return this.liveness.connected(runtimeId);
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
  private jobQueued(runtimeId: string, count = 1, tellPeers = true): void {
    this.session(runtimeId).queued += count;
    for (let i = 0; i < count; i++) if (!this.polls.notifyOne(runtimeId, 'job')) break;
    if (tellPeers) this.peers.publishQueued(runtimeId);
  }

  private finished(job: JobRecord): void {
    this.returns.release(job.jobId);
    this.finishes.notify(job.jobId, job);
    this.peers.publishFinished(job.jobId);
  }

  /** A hint that another instance finished a job: the store says whether it has, and with what. */
  private async finishedElsewhere(jobId: string): Promise<void> {
    if (this.finishes.count(jobId) === 0) return;
    const job = await this.deps.store.computeModuleJobs.byId(jobId).catch(() => undefined);
    if (job && FINISHED.has(job.state)) this.finishes.notify(jobId, job);
  }
}
