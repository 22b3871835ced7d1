// The filesystem service module: spaces, projects, folders and resources in one tree (docs/directory.md).
// Known deviations from the real platform:
// - No roles, organizations, tags, templates or recently viewed; projects are created without role checks.
// - Datasets, streams and connections of the other services are not yet nodes of the tree; the `resources` seed
//   key declares such resources by rid for getByPath.
// - A trashed node leaves its path free (getByPath and children skip it); restoring it into a taken name is
//   ResourceNameAlreadyExists.
// - Markings on resources are recorded and inherited down the tree but do not restrict who may read them.
import type { ServiceModule } from '../service-module.js';
import { TREE } from './store/part.js';
import { TREE_SEEDS } from './seed.js';
import { filesystemRoutes } from './routes.js';
import { filesystemBackstage } from './backstage.js';

export const filesystemService: ServiceModule = {
  name: 'filesystem',
  scopes: ['api:filesystem-read', 'api:filesystem-write'],
  policy: [{ path: '/api/v2/filesystem/', topics: ['filesystem'] }],
  store: [TREE],
  seed: TREE_SEEDS,
  routes: filesystemRoutes,
  backstage: filesystemBackstage,
};
