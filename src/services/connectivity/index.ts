// The connectivity service module: connections whose secrets never leave (docs/contracts.md §4).
import type { ServiceModule } from '../service-module.js';
import { CONNECTIONS } from '../../store/core-parts.js';
import { connectivityRoutes } from './routes.js';
import { connectivityBackstage } from './backstage.js';
import { connectionsSeed } from './seed.js';
import { connectionResources } from './resources.js';

export const connectivityService: ServiceModule = {
  name: 'connectivity',
  scopes: ['api:connectivity-connection-read', 'api:connectivity-connection-write'],
  policy: [
    { path: '/api/v2/connectivity/', cors: true, topics: ['connections'] },
    { path: '/_emulate/platform/connections', topics: ['connections'] },
  ],
  store: [CONNECTIONS],
  seed: [connectionsSeed],
  routes: connectivityRoutes,
  resources: connectionResources,
  backstage: {
    routes: connectivityBackstage,
    panels: [{ id: 'connections', title: 'Connections', script: 'connections-panel.js', topics: ['connections'] }],
  },
};
