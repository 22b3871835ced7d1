// The seed functions as the app calls them: with every listed service's seed codec. Tests read the defaulted
// parts by key (seed.users, seed.ontologies), so the type is loose.
import { validateSeed, parseSeed, loadSeedFile } from '../../src/seed/load.js';
import { applySeed, summarizeStore, type SeedSummary } from '../../src/seed/apply.js';
import { mergeSeeds } from '../../src/seed/merge.js';
import { SERVICES, seedCodecsOf } from '../../src/services/index.js';
import type { Seed } from '../../src/seed/schema.js';
import type { Store } from '../../src/store/store.js';
import type { Clock } from '../../src/clock.js';

export const CODECS = seedCodecsOf(SERVICES);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TestSeed = Seed & Record<string, any>;

export const validateTestSeed = (doc: unknown, source?: string): TestSeed => validateSeed(doc, source, CODECS) as TestSeed;
export const parseTestSeed = (text: string, source?: string): TestSeed => parseSeed(text, source, CODECS) as TestSeed;
export const loadTestSeedFile = async (path: string): Promise<TestSeed> => (await loadSeedFile(path, CODECS)) as TestSeed;
export const applyTestSeed = (seed: Seed, store: Store, clock: Clock) => applySeed(seed, store, clock, CODECS);
export const summarizeTestStore = (seed: Seed, store: Store) => summarizeStore(seed, store, CODECS);

/** The start summary's count of one kind (`users`, `runtimes`). */
export const countOf = (summary: SeedSummary, key: string): number | undefined => summary.counts.find((c) => c.many === key)?.count;

/** Whether the start summary says the default admin was made. */
export const madeDefaultAdmin = (summary: SeedSummary): boolean => summary.counts.some((c) => c.many === 'users' && c.note === 'incl. default admin');
export const mergeTestSeeds = (base: Seed, imported: Seed): TestSeed => mergeSeeds(base, imported, CODECS) as TestSeed;
