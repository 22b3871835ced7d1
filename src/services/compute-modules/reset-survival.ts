// A module connected when the service is reset keeps its runtime session (issue 25): the runtime, its token,
// its deployed apps and its function schemas are put back with the seed, in the reset's own step (on PostgreSQL
// its transaction), so that no poll of the module ever finds the runtime missing. Only its jobs go, as every
// job does. Without this, a module whose runtime was created at run time (run-module) polled 404 after a reset,
// and the Python runtime SDK retries a 404 at once, without end; a seeded runtime got a new token and the
// module polled 401 the same way. Neither runtime SDK backs off on an answer (only on a refused connection), so
// no answer could make them wait: the session has to survive. See docs/compute-module-leases.md.
import type { Clock } from '../../clock.js';
import type { Store } from '../../store/store.js';
import type { DeployedAppRecord, RuntimeRecord } from '../../store/compute-modules.js';

interface Kept {
  runtime: RuntimeRecord;
  apps: DeployedAppRecord[];
  schemas: unknown[];
}

export interface ResetSurvival {
  /** Before the store is cleared: notes the sessions of the modules connected now. */
  capture(): Promise<void>;
  /** After the seed was applied, in the same step: puts those sessions back. */
  restore(): Promise<void>;
}

/**
 * `connected(runtimeId)`: whether this instance saw the runtime's module poll within module_gone_ms (or has a
 * poll in flight). On a shared store the latest poll any instance recorded counts too.
 */
export function resetSurvival(store: Store, clock: Clock, goneMs: number, connected: (runtimeId: string) => boolean): ResetSurvival {
  let kept: Kept[] = [];
  /** When each session was last kept: a reset forgets who polled, so a second reset soon after still keeps it. */
  const keptAt = new Map<string, number>();
  const { computeModules } = store;
  const recentlyPolled = async (runtimeId: string) => {
    if (connected(runtimeId)) return true;
    const at = keptAt.get(runtimeId);
    if (at !== undefined && clock.now() - at < goneMs) return true;
    const last = await computeModules.lastPoll?.(runtimeId);
    return last !== undefined && clock.now() - last < goneMs;
  };
  return {
    async capture() {
      const next: Kept[] = [];
      for (const runtime of await computeModules.listRuntimes()) {
        if (!(await recentlyPolled(runtime.runtimeId))) continue;
        next.push({ runtime, apps: await computeModules.deployedAppsOf(runtime.runtimeId), schemas: await computeModules.schemas(runtime.runtimeId) });
      }
      kept = next;
      keptAt.clear();
      for (const { runtime } of next) keptAt.set(runtime.runtimeId, clock.now());
    },
    // Idempotent (a retried transaction runs it again); the snapshot is replaced by the next capture.
    async restore() {
      for (const { runtime, apps, schemas } of kept) {
        await computeModules.openSession(runtime);
        for (const app of apps) if (!(await computeModules.deployedApp(app.deployedAppRid, app.branch))) await computeModules.upsertDeployedApp(app);
        if (schemas.length > 0) await computeModules.setSchemas(runtime.runtimeId, schemas);
      }
    },
  };
}
