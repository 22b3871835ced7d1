// The datasets service's cap under `platform.limits` (docs/datasets.md, "Uploads and the size cap"), declared in
// its seed codec so the loader validates it with the rest of the document.
import { Type } from '@sinclair/typebox';
import type { Seed } from '../../seed/schema.js';

export const DATASET_LIMIT_KEYS = {
  /** The largest dataset file an upload may store; default 1 GiB. */
  max_dataset_file_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
};

/** The largest file an upload may store. */
export const maxDatasetFileBytes = (seed: Pick<Seed, 'limits'>): number => seed.limits.max_dataset_file_bytes ?? 1024 * 1024 * 1024;
