// Compute modules (SPEC §4.5, §4.6; docs/contracts.md §6): the runtime routes a module's SDK polls, and the job
// routes an app calls, joined by one job lifecycle (jobs.ts) with event-driven waiting (wakeups.ts).
//
// Known deviations from the real platform:
// - One in-process queue per runtime; no replicas, scaling, queue timeouts or job metadata/timing fields.
// - A result posted for a job that is still queued (its earlier hand-out was re-queued by a session reset)
//   completes it; the real runtime's behaviour there is unknown.
// - Any valid bearer token may read or cancel any job (the platform limits this to the submitter).
// - Session creation and inspection answer only on loopback or with the control token (the spec gives them
//   no auth at all), because they reveal module auth tokens and job contents.
// - Beyond docs/contracts.md: DELETE {prefix}/jobs/{jobId} and GET {prefix}/schemas?rid&branch, as the platform's
//   generated multiplexer client calls them.
// - Error names docs/contracts.md §6 does not give (OAuth envelope): a job result asked of a failed job is 409
//   `job_failed`, of a canceled one 409 `job_canceled` (the "409 with the status"; the description names the
//   job, and a failure its reason); a synchronous execute whose job ends that way answers the same. An
//   execute still waiting when the emulator is reset answers 404 `not_found` (its job is gone with the
//   store), and one waiting when it shuts down 503 `temporarily_unavailable`.
// - Waiting is per process; on a shared PostgreSQL store, other instances' changes arrive as LISTEN/NOTIFY
//   hints (cross-instance.ts), and a lost hint delays a wake-up by up to a second (the periodic re-check).
// - A job past `max_queued_jobs` is 429 `queue_full` (docs/contracts.md §8 asks for "a clear error", names none).
// - Module liveness (liveness.ts) judges a module by its last poll on any instance (recorded in the store).
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../../store/store.js';
import type { Clock } from '../../../clock.js';
import type { Seed } from '../../../seed/schema.js';
import type { InstanceLease } from '../../../store/instance-lease.js';
import { computeModuleSettingsOf } from '../settings.js';
import { JobService } from '../jobs.js';
import { runtimeRoutes } from './runtime.js';
import { jobRoutes } from './jobs.js';
import { runtimeControlRoutes } from '../backstage.js';
import { useJsonBodies } from '../../../http/body-parsers.js';
import { newPodRuntimeHandle } from '../pod-runtime.js';
import { resetSurvival } from '../reset-survival.js';

export interface ComputeModuleDeps {
  store: Store;
  clock: Clock;
  /** Its job settings are under `compute_modules` (../settings.ts). */
  seed: Seed;
  /** The app's lease on a shared store, under which jobs are handed out (../job-leases.ts). */
  instance?: InstanceLease;
}

/** Registers both route families in their own encapsulated scope, and the handle the in-pod listener reads. */
export async function registerComputeModules(app: FastifyInstance, deps: ComputeModuleDeps): Promise<void> {
  app.decorate('podRuntime', newPodRuntimeHandle());
  await app.register(computeModuleRoutes, deps);
}

async function computeModuleRoutes(app: FastifyInstance, deps: ComputeModuleDeps): Promise<void> {
  const jobSettings = computeModuleSettingsOf(deps.seed);
  const jobs = new JobService({
    store: deps.store,
    clock: deps.clock,
    settings: jobSettings,
    instance: deps.instance,
    logError: (err, message) => app.log.error({ err }, message),
  });
  // Held polls and executes answer at once on reset and on close, so neither waits for a timer.
  // Also after the clear: an execute that subscribed after the first pass and queued its job before the
  // clear would otherwise wait out execute_timeout_ms for a job that is gone (issue 10, item 14).
  // First (before the interrupt forgets who polled): the sessions of connected modules survive the reset,
  // put back with the seed (reset-survival.ts).
  const survival = resetSurvival(deps.store, deps.clock, jobSettings.moduleGoneMs, (runtimeId) => jobs.moduleConnected(runtimeId));
  app.onReset(() => survival.capture());
  app.onReset(() => survival.restore(), { withSeed: true });
  app.onReset(() => jobs.interruptForReset(), { afterClear: true });
  app.addHook('preClose', async () => jobs.interruptForShutdown());
  // conjure clients send `Content-Type: application/json` on bodiless calls (DELETE by id): empty means none.
  useJsonBodies(app, { emptyIsNoBody: true });
  app.podRuntime.jobs = jobs; // shared with the in-pod runtime listener (pod-listener/)
  runtimeRoutes(app, { store: deps.store, jobSettings, jobs });
  jobRoutes(app, { store: deps.store, jobs });
  runtimeControlRoutes(app, { store: deps.store, jobs }); // the dashboard's runtime view and job cancel
}
