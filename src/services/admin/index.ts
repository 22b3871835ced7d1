// The admin service module: users, the enrollment, and the directory's groups and markings
// (docs/contracts.md §3, docs/directory.md).
import type { ServiceModule } from '../service-module.js';
import { ENROLLMENT, USERS } from '../../store/core-parts.js';
import { adminRoutes } from './routes.js';
import { DIRECTORY } from './directory/part.js';
import { groupsSeed } from './groups-seed.js';
import { adminBackstage } from './backstage.js';
import { cbacBannerSeed, markingCategoriesSeed, markingsSeed } from './markings-seed.js';

export const adminService: ServiceModule = {
  name: 'admin',
  scopes: ['api:admin-read', 'api:admin-write'],
  policy: [{ path: '/api/v2/admin/', topics: ['users', 'directory'] }],
  store: [USERS, ENROLLMENT, DIRECTORY],
  // Groups first: markings name groups as members.
  seed: [groupsSeed, markingCategoriesSeed, markingsSeed, cbacBannerSeed],
  routes: adminRoutes,
  backstage: adminBackstage,
};
