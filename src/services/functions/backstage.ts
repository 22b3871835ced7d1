// The functions service's control side: the module environment route run-module asks (docs/functions.md,
// "Module environment").
import type { Backstage } from '../service-module.js';
import { moduleEnvironmentBackstage } from './environment/backstage.js';

export const functionsBackstage: Backstage = {
  routes: async (app, deps) => {
    moduleEnvironmentBackstage(app, deps);
  },
};
