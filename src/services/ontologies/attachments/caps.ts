// The ontologies service's caps under `platform.limits` (docs/live-ontology.md), declared in its seed codec so
// the loader validates them with the rest of the document.
import { Type } from '@sinclair/typebox';
import type { Seed } from '../../../seed/schema.js';
import { MEMORY_BLOB_LIMIT_KEYS, maxMemoryBlobBytes, type UploadCaps } from '../../../blobs/index.js';

export const ONTOLOGY_LIMIT_KEYS = {
  /** The largest attachment or media upload; default 200 MiB. */
  max_ontology_file_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
  // The memory store's total, shared with dataset files (src/blobs/memory-cap.ts).
  ...MEMORY_BLOB_LIMIT_KEYS,
};

/** What one attachment or media upload may store: its own size, and the memory store's total after it. */
export const fileCaps = (seed: Pick<Seed, 'limits'>): UploadCaps => ({ maxBytes: maxOntologyFileBytes(seed), maxHeldBytes: maxMemoryBlobBytes(seed) });

/** The largest attachment or media upload. */
export const maxOntologyFileBytes = (seed: Pick<Seed, 'limits'>): number => seed.limits.max_ontology_file_bytes ?? 200 * 1024 * 1024;
