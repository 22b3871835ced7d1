// Picks the store the settings name: the memory store (the default), or PostgreSQL for a postgres:// URL.
import type { Store } from './store.js';
import type { StorePart } from './parts.js';
import { createMemoryStore } from './memory-store.js';

/** `parts`: the services' store parts beyond the core ones (src/services/index.ts collects them). */
export async function openStore(spec: string, parts: readonly StorePart<unknown>[] = []): Promise<Store> {
  if (spec === 'memory') return createMemoryStore(parts);
  // Loaded only when asked for: the driver costs the memory store's start-up nothing.
  const { openPostgresStore } = await import('./postgres-store.js');
  return openPostgresStore({ url: spec, parts });
}

/** Applies the seed through `apply`: always on a fresh process's store, once per database on a shared one. */
export const seedStore = (store: Store, apply: () => Promise<void>): Promise<boolean> => store.seedOnce(apply);
