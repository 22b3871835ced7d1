// The compute-modules service module: runtime routes a module polls, job routes an app calls (docs/contracts.md §6).
import type { ServiceModule } from '../service-module.js';
import { COMPUTE_MODULE_JOBS, COMPUTE_MODULES } from '../../store/core-parts.js';
import { registerComputeModules } from './routes/index.js';
import { computeModulesSeed } from './seed.js';
import { COMPUTE_MODULES_POLICY } from './policy.js';
import { computeModuleSettingsOf } from './settings.js';

export const computeModulesService: ServiceModule = {
  name: 'compute-modules',
  policy: COMPUTE_MODULES_POLICY,
  store: [COMPUTE_MODULES, COMPUTE_MODULE_JOBS],
  seed: [computeModulesSeed],
  // A handed-out job is held under the instance's lease: it lapses when the job's module would count as gone.
  instanceLapseMs: (seed) => computeModuleSettingsOf(seed).moduleGoneMs,
  // Its control routes (runtimes, job cancel) are registered inside its own scope (routes.ts): they share the job service.
  routes: registerComputeModules,
  // The runtimes panel's script (ui/runtimes-panel.js) reads those routes; its buttons cancel open jobs.
  backstage: { panels: [{ id: 'runtimes', title: 'Compute modules', script: 'runtimes-panel.js', topics: ['runtimes'], wide: true }] },
};
