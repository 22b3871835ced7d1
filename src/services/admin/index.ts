// The admin service module: users and the enrollment (docs/contracts.md §3).
import type { ServiceModule } from '../service-module.js';
import { ENROLLMENT, USERS } from '../../store/core-parts.js';
import { adminRoutes } from './routes.js';
import { adminBackstage } from './backstage.js';
import { enrollmentSeed, usersSeed } from './seed.js';

export const adminService: ServiceModule = {
  name: 'admin',
  scopes: ['api:admin-read'],
  policy: [
    { path: '/api/v2/admin/', cors: true, topics: ['users'] },
    { path: '/_emulate/platform/users', topics: ['users', 'tokens'] },
  ],
  store: [USERS, ENROLLMENT],
  seed: [usersSeed, enrollmentSeed],
  routes: adminRoutes,
  backstage: { routes: adminBackstage },
};
