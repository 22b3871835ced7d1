// Job leases on a shared store (docs/compute-module-leases.md): a handed-out job is held under the lease of the
// instance that handed it out (src/store/instance-lease.ts, which renews it every third of module_gone_ms, at most
// every second). After each renewal this puts back the jobs of instances whose lease lapsed. An instance killed
// with jobs handed out (maybe never delivered) would otherwise strand them: the module then polls a survivor, so
// it never counts as gone there. The times are the database's, the one clock every instance shares.
import type { ComputeModuleJobRepo, RequeueOutcome } from '../../store/store.js';
import type { InstanceLease } from '../../store/instance-lease.js';

export interface JobLeaseDeps {
  jobs: ComputeModuleJobRepo;
  /** This instance's lease, shared with the app's other services. */
  lease: InstanceLease;
  /** The lease was made for this job service alone (no app): it stops with it. */
  ownsLease?: boolean;
  moduleGoneMs: number;
  maxHandOuts: number;
  now: () => number;
  /** Jobs of a runtime came back (or failed at the hand-out cap). */
  settle: (runtimeId: string, outcome: RequeueOutcome) => Promise<void>;
  logError?: (err: unknown, message: string) => void;
}

export class JobLeases {
  private readonly stopSweeping: () => void;

  constructor(private readonly deps: JobLeaseDeps) {
    // The memory store has no such sweep: one process, no one else to sweep (nor does its lease renew).
    this.stopSweeping = deps.jobs.requeueLapsed
      ? deps.lease.afterRenewal(() => this.sweep().catch((err: unknown) => deps.logError?.(err, 'could not take back the jobs of lapsed instances')))
      : () => undefined;
  }

  /** This instance, as the holder named by the jobs it hands out. */
  get instanceId(): string {
    return this.deps.lease.id;
  }

  /** The first renewal: no job is claimed under a lease no other instance could see alive. */
  get ready(): Promise<void> {
    return this.deps.lease.ready;
  }

  stop(): void {
    this.stopSweeping();
    if (this.deps.ownsLease) this.deps.lease.stop();
  }

  private async sweep(): Promise<void> {
    const { jobs, maxHandOuts } = this.deps;
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
