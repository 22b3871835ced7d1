// Control routes beyond the spec (CONTRACTS §7): health, reset, minting tokens and switching users on and
// off, and moving the clock (clock.ts), so that test suites can arrange state without the browser flow.
// Errors use the platform envelope.
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../store/store.js';
import type { Clock } from '../../clock.js';
import type { Settings } from '../../settings.js';
import { conflict, notFound } from '../../errors.js';
import { mintAccessToken } from '../oauth/access-tokens.js';
import { accessTokensFullPlatform } from '../oauth/limits.js';
import { clockRoutes } from './clock.js';
import { listingRoutes } from './listings.js';
import { eventRoutes } from './events.js';
import { dashboardRoutes } from './dashboard.js';
import { journalRoutes } from './journal.js';
import { faultRoutes } from './faults.js';
import { entityRoutes } from './entities.js';
import { stateRoutes } from './state.js';
import { ontologyObjectRoutes } from './ontology-objects.js';
import { CONTROL_ROUTE } from '../../http/route-config.js';
import type { ServiceModule } from '../service-module.js';

export interface ControlDeps {
  store: Store;
  clock: Clock;
  settings: Pick<Settings, 'oauthLimits'>;
  resetToSeed: () => Promise<unknown>;
  services: readonly ServiceModule[];
}

const Username = Type.Object({ username: Type.String() });

export function controlRoutes(parent: FastifyInstance, deps: ControlDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/_emulate/health', async () => ({ status: 'ok' }));

  app.post('/_emulate/platform/reset', { config: CONTROL_ROUTE }, async () => {
    await deps.resetToSeed();
    return { status: 'ok' };
  });

  app.post(
    '/_emulate/platform/tokens',
    {
      config: CONTROL_ROUTE,
      schema: {
        body: Type.Object(
          { username: Type.String({ minLength: 1 }), scopes: Type.Array(Type.String(), { default: [] }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { username, scopes } = request.body;
      const user = await deps.store.users.byUsername(username);
      if (!user) throw notFound('UserNotFound', { username });
      if (!user.active) throw conflict('UserDeactivated', { username });
      return mintAccessToken(deps, { principal: user, clientId: null, scopes: [...new Set(scopes)] }, accessTokensFullPlatform);
    },
  );

  for (const [action, active] of [['activate', true], ['deactivate', false]] as const) {
    app.post(`/_emulate/platform/users/:username/${action}`, { config: CONTROL_ROUTE, schema: { params: Username } }, async (request) => {
      const user = await deps.store.users.setActive(request.params.username, active);
      if (!user) throw notFound('UserNotFound', { username: request.params.username });
      return { username: user.username, active: user.active };
    });
  }

  clockRoutes(parent, deps);
  listingRoutes(parent, deps);
  eventRoutes(parent);
  dashboardRoutes(parent);
  journalRoutes(parent);
  faultRoutes(parent);
  entityRoutes(parent, deps);
  stateRoutes(parent, deps);
  ontologyObjectRoutes(parent, deps);
}
