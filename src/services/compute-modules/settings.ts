// The job settings under the service's seed key `compute_modules` (its codec, seed.ts, validates them), with
// their defaults: read once per seed by the routes, the job service and the in-pod listener.
import type { Seed } from '../../seed/schema.js';

export interface ComputeModuleSettings {
  pollTimeoutMs: number;
  executeTimeoutMs: number;
  retainedJobs: number;
  maxResultBytes: number;
  /** A runtime with handed-out jobs and no poll in flight or started for this long has gone; its jobs come back. */
  moduleGoneMs: number;
  /** Queued jobs per runtime; past it a new job is refused (429 queue_full). */
  maxQueuedJobs: number;
  /** Total bytes of retained results; past it the oldest finished jobs are forgotten. */
  maxRetainedResultBytes: number;
  /** The in-pod runtime listener's port (docs/contracts.md §10); 0 picks a free one. */
  podListenerPort: number;
}

/** The settings as the seed writes them. */
interface ComputeModuleSettingsSeed {
  poll_timeout_ms?: number;
  execute_timeout_ms?: number;
  retained_jobs?: number;
  max_result_bytes?: number;
  module_gone_ms?: number;
  max_queued_jobs?: number;
  max_retained_result_bytes?: number;
  pod_listener_port?: number;
}

const MIB = 1024 * 1024;
const resolved = new WeakMap<object, Readonly<ComputeModuleSettings>>();

/** The job settings a seed sets, defaults filled in (resolved once per seed). */
export function computeModuleSettingsOf(seed: Seed): Readonly<ComputeModuleSettings> {
  let settings = resolved.get(seed);
  if (!settings) {
    const cm = (seed.compute_modules ?? {}) as ComputeModuleSettingsSeed;
    settings = Object.freeze({
      pollTimeoutMs: cm.poll_timeout_ms ?? 2000,
      executeTimeoutMs: cm.execute_timeout_ms ?? 300_000,
      retainedJobs: cm.retained_jobs ?? 10_000,
      maxResultBytes: cm.max_result_bytes ?? 32 * MIB,
      moduleGoneMs: cm.module_gone_ms ?? 30_000,
      maxQueuedJobs: cm.max_queued_jobs ?? 10_000,
      maxRetainedResultBytes: cm.max_retained_result_bytes ?? 1024 * MIB,
      podListenerPort: cm.pod_listener_port ?? 0,
    });
    resolved.set(seed, settings);
  }
  return settings;
}
