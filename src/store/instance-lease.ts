// This instance's lease on a store shared by several instances (docs/postgres-internals.md, "Instance leases"):
// its id names what the instance holds (a handed-out job, a one-call dataset upload's transaction), and its row is
// renewed every third of `lapseMs` (at most every second), so that no other instance takes those back while it
// runs. Killed, it stops renewing, and once `lapseMs` has passed by the database's clock the others may. One lease
// per app, shared by its services; on the memory store (one process) nothing is renewed.
import type { Store } from './store.js';
import { randomUuid } from '../ids.js';

/** The lapse when no service sets one (the services declare theirs: src/services/service-module.ts). */
export const DEFAULT_INSTANCE_LAPSE_MS = 30_000;

export class InstanceLease {
  /** This instance, as the holder named by what it holds. */
  readonly id = randomUuid();
  /** The first renewal: nothing should be held under a lease no other instance could yet see alive. */
  readonly ready: Promise<void>;
  private readonly afterRenewals = new Set<() => Promise<void>>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly store: Pick<Store, 'shared' | 'instances'>,
    /** How long the lease outlives its last renewal: past it, the instance counts as gone. */
    readonly lapseMs: number,
    private readonly logError?: (err: unknown, message: string) => void,
  ) {
    this.ready = this.start();
  }

  /** Runs `hook` after each renewal (the job leases' sweep); answers its removal. */
  afterRenewal(hook: () => Promise<void>): () => void {
    this.afterRenewals.add(hook);
    return () => void this.afterRenewals.delete(hook);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async start(): Promise<void> {
    if (!this.store.shared) return; // one process: no one else to take anything back
    const every = Math.max(50, Math.min(1000, Math.floor(this.lapseMs / 3)));
    this.timer = setInterval(() => void this.renew(), every);
    this.timer.unref();
    await this.store.instances.renew(this.id).catch(() => undefined); // the timer tries again
  }

  private async renew(): Promise<void> {
    try {
      await this.store.instances.renew(this.id);
    } catch (err) {
      this.logError?.(err, "could not renew this instance's lease");
      return;
    }
    for (const hook of this.afterRenewals) await hook().catch((err: unknown) => this.logError?.(err, 'a sweep after the lease renewal failed'));
  }
}
