// The admin service's control side: users (users.ts) and the directory's people and groups (directory.ts).
import type { Backstage } from '../../service-module.js';
import { usersBackstage } from './users.js';
import { directoryBackstage } from './directory.js';

export const adminBackstage: Backstage = {
  async routes(app, deps) {
    usersBackstage(app, deps);
    await directoryBackstage.routes?.(app, deps);
  },
  // Drawn by its own script (../ui/users-panel.js): a button per user deactivates or activates it.
  panels: [{ id: 'users', title: 'Users', script: 'users-panel.js', topics: ['users'] }],
  views: directoryBackstage.views ?? [],
};
