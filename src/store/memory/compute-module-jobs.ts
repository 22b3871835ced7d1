import { FINISHED_STATES, type ComputeModuleJobRepo, type JobRecord, type JobResult, type RequeueOutcome } from '../compute-module-jobs.js';

interface Entry {
  job: JobRecord;
  /** Submission order; a queue keeps its jobs sorted by it. */
  seq: number;
}

export class MemoryComputeModuleJobs implements ComputeModuleJobRepo {
  private entries = new Map<string, Entry>();
  /** Queued job ids per runtime, oldest first. */
  private queues = new Map<string, Entry[]>();
  /** Finished job ids in the order they finished: pruning takes from the front. */
  private finished = new Set<string>();
  /** The bytes of the results of the jobs in `finished`. */
  private resultBytes = 0;
  private nextSeq = 0;

  async insert(job: JobRecord): Promise<void> {
    const entry = { job: { ...job, state: 'queued' as const, handOuts: 0 }, seq: this.nextSeq++ };
    this.entries.set(job.jobId, entry);
    this.enqueue(entry);
  }

  async insertIfRoom(job: JobRecord, maxQueued: number): Promise<boolean> {
    if ((this.queues.get(job.runtimeId)?.length ?? 0) >= maxQueued) return false;
    await this.insert(job);
    return true;
  }

  async byId(jobId: string): Promise<JobRecord | undefined> {
    const entry = this.entries.get(jobId);
    return entry && { ...entry.job };
  }

  async claimNext(runtimeId: string, now: number): Promise<JobRecord | undefined> {
    const entry = this.queues.get(runtimeId)?.shift();
    if (!entry) return undefined;
    entry.job = { ...entry.job, state: 'inProgress', handOuts: entry.job.handOuts + 1, startedAt: now };
    return { ...entry.job };
  }

  async unclaim(jobId: string, handOuts: number): Promise<boolean> {
    const entry = this.entries.get(jobId);
    if (!entry || entry.job.state !== 'inProgress' || entry.job.handOuts !== handOuts) return false;
    entry.job = { ...entry.job, state: 'queued', handOuts: handOuts - 1, startedAt: undefined };
    this.enqueue(entry);
    return true;
  }

  async complete(jobId: string, result: JobResult, now: number): Promise<JobRecord | undefined> {
    return this.finish(jobId, now, { state: 'succeeded', result });
  }

  async cancel(jobId: string, now: number): Promise<JobRecord | undefined> {
    return this.finish(jobId, now, { state: 'canceled' });
  }

  async fail(jobId: string, failure: string, now: number): Promise<JobRecord | undefined> {
    return this.finish(jobId, now, { state: 'failed', failure });
  }

  async requeueInProgress(runtimeId: string, maxHandOuts: number, failure: string, now: number): Promise<RequeueOutcome> {
    return this.requeue(runtimeId, Infinity, maxHandOuts, failure, now);
  }

  async requeueHandedOutBefore(runtimeId: string, handedOutBy: number, maxHandOuts: number, failure: string, now: number): Promise<RequeueOutcome> {
    return this.requeue(runtimeId, handedOutBy, maxHandOuts, failure, now);
  }

  async requeueJob(jobId: string, handOuts: number, maxHandOuts: number, failure: string, now: number): Promise<RequeueOutcome> {
    const entry = this.entries.get(jobId);
    if (!entry || entry.job.state !== 'inProgress' || entry.job.handOuts !== handOuts) return { requeued: [], failed: [] };
    return this.requeueEntries([entry], maxHandOuts, failure, now);
  }

  private requeue(runtimeId: string, handedOutBy: number, maxHandOuts: number, failure: string, now: number): RequeueOutcome {
    const entries = [...this.entries.values()].filter(
      (entry) => entry.job.runtimeId === runtimeId && entry.job.state === 'inProgress' && (entry.job.startedAt ?? 0) <= handedOutBy,
    );
    return this.requeueEntries(entries, maxHandOuts, failure, now);
  }

  private requeueEntries(entries: Entry[], maxHandOuts: number, failure: string, now: number): RequeueOutcome {
    const outcome: RequeueOutcome = { requeued: [], failed: [] };
    for (const entry of entries) {
      if (entry.job.handOuts >= maxHandOuts) {
        outcome.failed.push(this.finish(entry.job.jobId, now, { state: 'failed', failure })!);
      } else {
        entry.job = { ...entry.job, state: 'queued', startedAt: undefined };
        this.enqueue(entry);
        outcome.requeued.push({ ...entry.job });
      }
    }
    return outcome;
  }

  async pruneFinished(keep: number, maxResultBytes = Infinity): Promise<number> {
    let dropped = 0;
    for (const jobId of this.finished) {
      if (this.finished.size <= keep && this.resultBytes <= maxResultBytes) break;
      this.finished.delete(jobId);
      this.resultBytes -= this.entries.get(jobId)?.job.result?.body.length ?? 0;
      this.entries.delete(jobId);
      dropped++;
    }
    return dropped;
  }

  async retainedResultBytes(): Promise<number> {
    return this.resultBytes;
  }

  async listByRuntime(runtimeId: string, limit: number): Promise<JobRecord[]> {
    const jobs: JobRecord[] = [];
    for (const entry of this.entries.values()) if (entry.job.runtimeId === runtimeId) jobs.push(entry.job);
    // Entries keep submission order: the newest are at the end.
    return jobs
      .slice(Math.max(0, jobs.length - limit))
      .reverse()
      .map((job) => ({ ...job }));
  }

  async countFinished(): Promise<number> {
    return this.finished.size;
  }

  clear(): void {
    this.entries.clear();
    this.queues.clear();
    this.finished.clear();
    this.resultBytes = 0;
  }

  private finish(jobId: string, now: number, change: Pick<JobRecord, 'state'> & Partial<JobRecord>): JobRecord | undefined {
    const entry = this.entries.get(jobId);
    if (!entry || FINISHED_STATES.includes(entry.job.state)) return undefined;
    if (entry.job.state === 'queued') this.dequeue(entry);
    entry.job = { ...entry.job, ...change, finishedAt: now };
    this.finished.add(jobId);
    this.resultBytes += entry.job.result?.body.length ?? 0;
    return { ...entry.job };
  }

  /** Inserts at the place its submission order gives it (the back, for a new job). */
  private enqueue(entry: Entry): void {
    let queue = this.queues.get(entry.job.runtimeId);
    if (!queue) this.queues.set(entry.job.runtimeId, (queue = []));
    let at = queue.length;
    while (at > 0 && queue[at - 1]!.seq > entry.seq) at--;
    queue.splice(at, 0, entry);
  }

  private dequeue(entry: Entry): void {
    const queue = this.queues.get(entry.job.runtimeId);
    const at = queue?.indexOf(entry) ?? -1;
    if (at >= 0) queue!.splice(at, 1);
  }
}
