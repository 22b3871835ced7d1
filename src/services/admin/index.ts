// The admin service module: users, the enrollment, and the directory's groups and markings
// (docs/contracts.md §3, docs/directory.md).
import type { ServiceModule } from '../service-module.js';
import { ENROLLMENT, USERS } from '../../store/core-parts.js';
import { adminRoutes } from './routes.js';
import { adminBackstage } from './backstage/index.js';
import { enrollmentSeed, usersSeed } from './seed.js';
import { DIRECTORY } from './directory/part.js';
import { groupsSeed } from './groups-seed.js';
import { cbacBannerSeed, markingCategoriesSeed, markingsSeed } from './markings-seed.js';

export const adminService: ServiceModule = {
  name: 'admin',
  scopes: ['api:admin-read', 'api:admin-write'],
  policy: [
    { path: '/api/v2/admin/', cors: true, topics: ['users', 'directory'] },
    { path: '/_emulate/platform/users', topics: ['users', 'tokens'] },
    { path: '/_emulate/platform/groups', topics: ['directory'] },
  ],
  store: [USERS, ENROLLMENT, DIRECTORY],
  // Users first, then groups (they name users), then markings (they name groups).
  seed: [usersSeed, enrollmentSeed, groupsSeed, markingCategoriesSeed, markingsSeed, cbacBannerSeed],
  routes: adminRoutes,
  backstage: adminBackstage,
};
