// The instances sharing one store (PostgreSQL): each keeps a row whose time it renews while it runs, by the
// database's clock. What an instance holds (a handed-out job, a one-call dataset upload's transaction) is taken
// back by another once that row has lapsed (src/store/instance-lease.ts). The memory store has one process.

export interface InstanceRepo {
  /** The instance `instanceId` is alive: the leases of what it holds stand. The memory store keeps nothing. */
  renew(instanceId: string): Promise<void>;
}
