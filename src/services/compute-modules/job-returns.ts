// Jobs coming back to the queue (docs/compute-module-leases.md): a handed-out job whose module never read it,
// whose answer was cut, whose module restarted, went away or had its session reset. Each goes back counted as
// a hand-out (or uncounted, when the module never saw it), and fails once it has been handed out MAX_HAND_OUTS
// times. This file keeps which jobs this instance handed out, and to whom; jobs.ts owns the rest of the lifecycle.
import type { JobRecord, RequeueOutcome } from '../../store/store.js';
import { pruneRetained, type JobServiceDeps } from './job-admission.js';

export const MAX_HAND_OUTS = 3;

/** Who was handed a job on this instance: a module replica, known by the connection its poll came on. */
export interface JobHolder {
  /** Whether that connection has closed (the replica exited, or restarted). */
  gone(): boolean;
}

interface Held {
  runtimeId: string;
  handOuts: number;
  holder: JobHolder;
}

/** What the lifecycle does when jobs come back: wake the waiters of failed jobs, and polls for requeued ones. */
export interface ReturnEvents {
  finished(job: JobRecord): void;
  queued(runtimeId: string, count: number): void;
}

export class JobReturns {
  /** The jobs handed out here, with their holder; an entry goes when its job finishes or comes back. */
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly deps: JobServiceDeps,
    private readonly events: ReturnEvents,
  ) {}

  handedOut(job: JobRecord, runtimeId: string, holder: JobHolder): void {
    this.held.set(job.jobId, { runtimeId, handOuts: job.handOuts, holder });
  }

  /** The job finished: nobody holds it any more. */
  release(jobId: string): void {
    this.held.delete(jobId);
  }

  clear(): void {
    this.held.clear();
  }

  /** After jobs were put back: waiters of failed ones answer, and one poll per requeued job is woken. */
  async settle(runtimeId: string, outcome: RequeueOutcome): Promise<void> {
    for (const job of outcome.requeued) this.held.delete(job.jobId);
    for (const job of outcome.failed) this.events.finished(job);
    if (outcome.failed.length > 0) await pruneRetained(this.deps);
    if (outcome.requeued.length > 0) this.events.queued(runtimeId, outcome.requeued.length);
  }

  /** The lease: the runtime's module has gone; the jobs it was handed by `lastSeen` come back. */
  async moduleGone(runtimeId: string, lastSeen: number): Promise<void> {
    const failure = `The job was handed out ${MAX_HAND_OUTS} times without an answer; its module stopped polling.`;
    const outcome = await this.deps.store.computeModuleJobs.requeueHandedOutBefore(runtimeId, lastSeen, MAX_HAND_OUTS, failure, this.deps.clock.now());
    await this.settle(runtimeId, outcome);
  }

  /** A handed-out job whose response was never written out to its poller goes back to the queue, uncounted. */
  async undelivered(job: JobRecord): Promise<void> {
    this.held.delete(job.jobId);
    if (await this.deps.store.computeModuleJobs.unclaim(job.jobId, job.handOuts)) this.events.queued(job.runtimeId, 1);
  }

  /**
   * A handed-out job whose answer was written out but cut (its connection reset before the module read it)
   * goes back counted as a hand-out, so that a job whose answer is always cut fails after MAX_HAND_OUTS
   * instead of cycling for ever.
   */
  async answerCut(job: JobRecord): Promise<void> {
    const failure = `The job was handed out ${MAX_HAND_OUTS} times and each answer was cut off (connection reset) before the module read it.`;
    await this.requeueOne(job.runtimeId, job.jobId, job.handOuts, failure);
  }

  /**
   * A replica of the runtime's module restarted and said so (the in-pod runtime's restart notification): the
   * jobs it held go back to the queue (or fail after MAX_HAND_OUTS); their ids. Its jobs are those handed out
   * here on a connection that has since closed: the restarted process's connections are gone, while a replica
   * still running keeps its own, and its jobs. A job handed out by another instance is not known here; the
   * module-gone lease brings it back if its holder is gone.
   */
  async requeueRestarted(runtimeId: string): Promise<string[]> {
    const failure = `The job was handed out ${MAX_HAND_OUTS} times without an answer; its module restarted.`;
    const ids: string[] = [];
    for (const [jobId, held] of [...this.held]) {
      if (held.runtimeId !== runtimeId || !held.holder.gone()) continue;
      const outcome = await this.requeueOne(runtimeId, jobId, held.handOuts, failure);
      for (const job of [...outcome.requeued, ...outcome.failed]) ids.push(job.jobId);
    }
    return ids;
  }

  /** On a session reset: the runtime's handed-out, unanswered jobs go back (or fail after MAX_HAND_OUTS); their ids. */
  async requeueHandedOut(runtimeId: string): Promise<string[]> {
    const failure = `The job was handed out ${MAX_HAND_OUTS} times without an answer.`;
    const outcome = await this.deps.store.computeModuleJobs.requeueInProgress(runtimeId, MAX_HAND_OUTS, failure, this.deps.clock.now());
    await this.settle(runtimeId, outcome);
    return [...outcome.requeued, ...outcome.failed].map((job) => job.jobId);
  }

  private async requeueOne(runtimeId: string, jobId: string, handOuts: number, failure: string): Promise<RequeueOutcome> {
    this.held.delete(jobId);
    const outcome = await this.deps.store.computeModuleJobs.requeueJob(jobId, handOuts, MAX_HAND_OUTS, failure, this.deps.clock.now());
    await this.settle(runtimeId, outcome);
    return outcome;
  }
}
