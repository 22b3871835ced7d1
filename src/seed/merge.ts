// `--import FILE`: a state export (or any seed document) laid over the `--config` seed. Entities of the import
// replace those of the config with the same key; settings (port, host, tokens, limits) stay the config's. The
// result is the seed a reset goes back to.
// An ontology is replaced whole (object types, objects, links, queries, action types), never merged piece by
// piece: its objects, links and actions name its own types, so mixing two versions could leave a reference
// that resolves to neither. It replaces the config's ontology with the same api_name and the one with the
// same rid (two ontologies may share neither).
import type { Seed } from './schema.js';
import type { AnySeedCodec } from './codec.js';
import { ontologyRid } from './ontology-apply.js';

function byKey<T>(base: T[], imported: T[], key: (item: T) => string): T[] {
  const replaced = new Set(imported.map(key));
  return [...imported, ...base.filter((item) => !replaced.has(key(item)))];
}

/** `codecs`: the services' own keys; each merges by its own rule, or the imported part replaces the config's. */
export function mergeSeeds(base: Seed, imported: Seed, codecs: readonly AnySeedCodec[] = []): Seed {
  const services: Record<string, unknown> = {};
  for (const codec of codecs) {
    const mine = base[codec.key] as never;
    const theirs = imported[codec.key] as never;
    services[codec.key] = codec.merge ? codec.merge(mine, theirs) : theirs;
  }
  return {
    ...base,
    ...services,
    users: byKey(base.users, imported.users, (u) => u.username),
    oauth_clients: byKey(base.oauth_clients, imported.oauth_clients, (c) => c.client_id),
    enrollment: imported.enrollment,
    connections: byKey(base.connections, imported.connections, (c) => c.rid ?? `name:${c.display_name}`),
    ontologies: [
      ...imported.ontologies,
      ...base.ontologies.filter((o) => !imported.ontologies.some((i) => i.api_name === o.api_name || (i.rid !== undefined && i.rid === ontologyRid(o)))),
    ],
    compute_modules: {
      ...base.compute_modules,
      runtimes: byKey(base.compute_modules.runtimes, imported.compute_modules.runtimes, (r) => r.runtime_id),
      deployed_apps: byKey(base.compute_modules.deployed_apps, imported.compute_modules.deployed_apps, (a) => `${a.deployed_app_rid}\u0000${a.branch}`),
    },
  };
}
