// The memory byte store's cap on the bytes it holds in all, `limits.max_memory_blob_bytes` (docs/datasets.md, "The
// byte store"; CONTRACTS §8: no store grows without end). It lives beside the store, not in a service, because
// every service that uploads file bytes (datasets, attachments, media) counts against the same total: each lists
// MEMORY_BLOB_LIMIT_KEYS among its seed codec's limits (so the key is valid whichever of them run) and passes
// maxMemoryBlobBytes(seed) as PutOptions.maxHeldBytes. PostgreSQL keeps bytes on disk and ignores it.
import { Type } from '@sinclair/typebox';
import { PlatformError } from '../errors.js';
import type { Seed } from '../seed/schema.js';

export const MEMORY_BLOB_LIMIT_KEYS = {
  /** The most bytes the memory store keeps for files in all (datasets, attachments, media); default 8 GiB. */
  max_memory_blob_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
};

/** What one upload may store: its own size (the route's file cap), and the memory store's total after it. */
export interface UploadCaps {
  maxBytes: number;
  maxHeldBytes: number;
}

/** Big enough that a test suite never meets it, small enough to stop a runaway upload loop. */
export const maxMemoryBlobBytes = (seed: Pick<Seed, 'limits'>): number => seed.limits.max_memory_blob_bytes ?? 8 * 1024 * 1024 * 1024;

/**
 * An upload refused with BlobStoreFull: 413 as an oversize file is, nothing stored. One name and one parameter for
 * every route that uploads, so a client checks a single answer; `makeRoom` says what frees bytes on that route.
 */
export const byteStoreFull = (maxHeldBytes: number, makeRoom: string) =>
  new PlatformError(
    'REQUEST_ENTITY_TOO_LARGE',
    'ByteStoreFull',
    { maxHeldBytes },
    `The emulator's memory store holds its most file bytes (${maxHeldBytes}, limits.max_memory_blob_bytes): ${makeRoom}.`,
  ).because(`the upload would take the memory byte store past limits.max_memory_blob_bytes (${maxHeldBytes})`);
