// Job leases on a shared store (docs/compute-module-leases.md): a handed-out job is held under the lease of the
// instance that handed it out. Each instance renews its lease every third of module_gone_ms (at most every
// second) and each time puts back the jobs of instances whose lease lapsed. An instance killed with jobs handed
// out (maybe never delivered) would otherwise strand them: the module then polls a survivor, so it never counts
// as gone there. The times are the database's, the one clock every instance shares.
import type { ComputeModuleJobRepo, RequeueOutcome } from '../../store/store.js';
import { randomUuid } from '../../ids.js';

export interface JobLeaseDeps {
  jobs: ComputeModuleJobRepo;
  moduleGoneMs: number;
  maxHandOuts: number;
  now: () => number;
  /** Jobs of a runtime came back (or failed at the hand-out cap). */
  settle: (runtimeId: string, outcome: RequeueOutcome) => Promise<void>;
  logError?: (err: unknown, message: string) => void;
}

export class JobLeases {
  /** This instance, as the holder named by the jobs it hands out. */
  readonly instanceId = randomUuid();
  /** The first renewal: no job is claimed under a lease no other instance could see alive. */
  readonly ready: Promise<void>;
  private timer?: NodeJS.Timeout;

  constructor(private readonly deps: JobLeaseDeps) {
    this.ready = this.start();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async start(): Promise<void> {
    const { jobs } = this.deps;
    if (!jobs.renewLease || !jobs.requeueLapsed) return; // the memory store: one process, no one else to sweep
    const every = Math.max(50, Math.min(1000, Math.floor(this.deps.moduleGoneMs / 3)));
    this.timer = setInterval(() => void this.sweep().catch((err: unknown) => this.deps.logError?.(err, "could not renew this instance's job leases")), every);
    this.timer.unref();
    await jobs.renewLease(this.instanceId).catch(() => undefined); // the timer tries again
  }

  private async sweep(): Promise<void> {
    const { jobs, maxHandOuts } = this.deps;
    await jobs.renewLease!(this.instanceId);
    const failure = `The job was handed out ${maxHandOuts} times without an answer; the instance that last handed it out stopped.`;
    const outcome = await jobs.requeueLapsed!(this.deps.moduleGoneMs, maxHandOuts, failure, this.deps.now());
    const byRuntime = new Map<string, RequeueOutcome>();
    for (const [kind, list] of [
      ['requeued', outcome.requeued],
      ['failed', outcome.failed],
    ] as const) {
      for (const job of list) {
        let entry = byRuntime.get(job.runtimeId);
        if (!entry) byRuntime.set(job.runtimeId, (entry = { requeued: [], failed: [] }));
        entry[kind].push(job);
      }
    }
    for (const [runtimeId, part] of byRuntime) await this.deps.settle(runtimeId, part);
  }
}
