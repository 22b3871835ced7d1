// The Map-backed store: the default, and the reference behaviour for every other backend. Each service's
// store part builds its repository here on first use; a reset clears every repository built.
import type { Store } from './store.js';
import { PartRegistry, type StorePart } from './parts.js';
import { coreRepositories, withCoreParts } from './core-parts.js';

export function createMemoryStore(extraParts: readonly StorePart<unknown>[] = []): Store {
  const parts = withCoreParts(extraParts);
  const registry = new PartRegistry(parts, (part, lookup) => part.memory(lookup));
  return {
    ...coreRepositories(registry),
    parts,
    part: (part) => registry.get(part),
    shared: false,
    // Nothing else shares this store: no hint ever arrives.
    notifications: { publish: () => undefined, subscribe: () => () => undefined },
    // Nor does another instance: nothing it holds outlives this process, so no lease is kept.
    instances: { renew: async () => undefined },
    async seedOnce(apply) {
      await apply();
      return true;
    },
    async clear() {
      for (const repo of registry.values()) (repo as { clear(): void }).clear();
    },
    // One process, one store: clearing and then seeding is all a reset needs here.
    async resetWith(apply) {
      for (const repo of registry.values()) (repo as { clear(): void }).clear();
      return apply();
    },
    async close() {},
  };
}
