// `--import FILE`: a state export (or any seed document) laid over the `--config` seed. Entities of the import
// replace those of the config with the same key; settings (port, host, tokens, limits) stay the config's. The
// result is the seed a reset goes back to.
import type { Seed } from './schema.js';

function byKey<T>(base: T[], imported: T[], key: (item: T) => string): T[] {
  const replaced = new Set(imported.map(key));
  return [...imported, ...base.filter((item) => !replaced.has(key(item)))];
}

export function mergeSeeds(base: Seed, imported: Seed): Seed {
  return {
    ...base,
    users: byKey(base.users, imported.users, (u) => u.username),
    oauth_clients: byKey(base.oauth_clients, imported.oauth_clients, (c) => c.client_id),
    enrollment: imported.enrollment,
    connections: byKey(base.connections, imported.connections, (c) => c.rid ?? `name:${c.display_name}`),
    ontologies: byKey(base.ontologies, imported.ontologies, (o) => o.api_name),
    compute_modules: {
      ...base.compute_modules,
      runtimes: byKey(base.compute_modules.runtimes, imported.compute_modules.runtimes, (r) => r.runtime_id),
      deployed_apps: byKey(base.compute_modules.deployed_apps, imported.compute_modules.deployed_apps, (a) => `${a.deployed_app_rid}\u0000${a.branch}`),
    },
  };
}
