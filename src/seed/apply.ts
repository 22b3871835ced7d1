// Writes a validated Seed into any Store: each service's seed codec applies its own keys, in the order of the
// service list. First definition wins: later duplicates are skipped with a warning naming their path.
import type { Store } from '../store/store.js';
import type { Clock } from '../clock.js';
import type { Seed } from './schema.js';
import type { AnySeedCodec, SummaryCount } from './codec.js';

export interface SeedSummary {
  /** What the store holds, as each service's codec counts it (SeedCodec.summary), in list order. */
  counts: SummaryCount[];
  warnings: string[];
}

/** `codecs`: the services' seed keys (src/services/index.ts), applied in list order. */
export async function applySeed(seed: Seed, store: Store, clock: Clock, codecs: readonly AnySeedCodec[]): Promise<SeedSummary> {
  const warnings: string[] = [];
  const context = { store, clock, seed, warn: (message: string) => void warnings.push(message) };
  for (const codec of codecs) await codec.apply(seed[codec.key] as never, context);
  return summarizeStore(seed, store, codecs, warnings);
}

/** What a store holds, as a start-up line reports it; for a shared store that kept its state, without seeding. */
export async function summarizeStore(seed: Seed, store: Store, codecs: readonly AnySeedCodec[], warnings: string[] = []): Promise<SeedSummary> {
  const counts: SummaryCount[] = [];
  for (const codec of codecs) if (codec.summary) counts.push(...(await codec.summary(store, seed[codec.key] as never)));
  return { counts, warnings };
}
