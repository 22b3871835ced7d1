// The datasets service's cap under `platform.limits` (docs/datasets.md, "Uploads and the size cap"), declared in
// its seed codec so the loader validates it with the rest of the document.
import { Type } from '@sinclair/typebox';
import type { Seed } from '../../seed/schema.js';

export const DATASET_LIMIT_KEYS = {
  /** The largest dataset file an upload may store; default 1 GiB. */
  max_dataset_file_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
  /** The most bytes the memory store keeps for files in all (datasets, attachments, media); default 8 GiB. */
  max_memory_blob_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
};

/** What one upload may store: its own size, and the memory store's total after it. */
export interface UploadCaps {
  maxBytes: number;
  maxHeldBytes: number;
}

/** The memory byte store's total: big enough that a test suite never meets it, small enough to stop a runaway loop. */
export const maxMemoryBlobBytes = (seed: Pick<Seed, 'limits'>): number => seed.limits.max_memory_blob_bytes ?? 8 * 1024 * 1024 * 1024;

export const uploadCaps = (seed: Pick<Seed, 'limits'>): UploadCaps => ({ maxBytes: maxDatasetFileBytes(seed), maxHeldBytes: maxMemoryBlobBytes(seed) });

/** The largest file an upload may store. */
export const maxDatasetFileBytes = (seed: Pick<Seed, 'limits'>): number => seed.limits.max_dataset_file_bytes ?? 1024 * 1024 * 1024;
