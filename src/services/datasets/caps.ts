// The datasets service's cap under `platform.limits` (docs/datasets.md, "Uploads and the size cap"), declared in
// its seed codec so the loader validates it with the rest of the document.
import { Type } from '@sinclair/typebox';
import type { Seed } from '../../seed/schema.js';
import { MEMORY_BLOB_LIMIT_KEYS, maxMemoryBlobBytes, type UploadCaps } from '../../blobs/index.js';

export const DATASET_LIMIT_KEYS = {
  /** The largest dataset file an upload may store; default 1 GiB. */
  max_dataset_file_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
  // The memory store's total, shared with attachments and media (src/blobs/memory-cap.ts).
  ...MEMORY_BLOB_LIMIT_KEYS,
};

/** What one dataset file upload may store: its own size, and the memory store's total after it. */
export const uploadCaps = (seed: Pick<Seed, 'limits'>): UploadCaps => ({ maxBytes: maxDatasetFileBytes(seed), maxHeldBytes: maxMemoryBlobBytes(seed) });

/** The largest file an upload may store. */
export const maxDatasetFileBytes = (seed: Pick<Seed, 'limits'>): number => seed.limits.max_dataset_file_bytes ?? 1024 * 1024 * 1024;
