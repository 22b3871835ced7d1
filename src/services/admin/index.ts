// The admin service module: users and the enrollment (docs/contracts.md §3).
import type { ServiceModule } from '../service-module.js';
import { ENROLLMENT, USERS } from '../../store/core-parts.js';
import { adminRoutes } from './routes.js';

export const adminService: ServiceModule = {
  name: 'admin',
  scopes: ['api:admin-read'],
  policy: [{ path: '/api/v2/admin/', topics: ['users'] }],
  store: [USERS, ENROLLMENT],
  routes: adminRoutes,
};
