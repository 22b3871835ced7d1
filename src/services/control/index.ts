// The generic control routes (docs/contracts.md §7): health, reset, tokens, clock, journal, faults, state,
// events and the dashboard's assets. Each service's own control routes live in its backstage.
import type { ServiceModule } from '../service-module.js';
import { controlRoutes } from './routes/index.js';

export const controlService: ServiceModule = {
  name: 'control',
  policy: [
    { path: '/_emulate/platform/clock', topics: ['clock', 'tokens'] },
    { path: '/_emulate/platform/journal', topics: ['journal'] },
    { path: '/_emulate/platform/faults', topics: [] },
  ],
  routes: controlRoutes,
};
