// The generic control routes (docs/contracts.md §7): health, reset, the clock, the journal, faults, the state
// export, the event stream and the dashboard's assets. Each service's own control routes (users, tokens, clients,
// connections, ontologies, runtimes) live in its backstage. Errors use the platform envelope.
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../service-module.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import { clockRoutes } from './clock.js';
import { eventRoutes } from './events.js';
import { dashboardRoutes } from './dashboard.js';
import { journalRoutes } from './journal.js';
import { faultRoutes } from './faults.js';
import { stateRoutes } from './state.js';

export function controlRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  app.get('/_emulate/health', async () => ({ status: 'ok' }));

  app.post('/_emulate/platform/reset', { config: CONTROL_ROUTE }, async () => {
    await deps.resetToSeed();
    return { status: 'ok' };
  });

  clockRoutes(app, deps);
  eventRoutes(app);
  dashboardRoutes(app, deps.services);
  journalRoutes(app);
  faultRoutes(app);
  stateRoutes(app, deps);
}
