// The byte store's store part (docs/datasets.md, "The byte store"): a service that keeps file bytes lists BLOBS
// among its parts and reaches it with `store.part(BLOBS)`.
import type { StorePart } from '../store/parts.js';
import type { BlobStore } from './blob-store.js';
import { MemoryBlobs } from './memory-blobs.js';
import { PostgresBlobs } from './postgres-blobs.js';

export { BlobRemoved, BlobStoreFull, BlobTooLarge, CHUNK_BYTES, type BlobInfo, type BlobStore, type ByteRange, type PutOptions } from './blob-store.js';
export { MEMORY_BLOB_LIMIT_KEYS, byteStoreFull, maxMemoryBlobBytes, type UploadCaps } from './memory-cap.js';

export const BLOBS: StorePart<BlobStore> = {
  name: 'blobs',
  tables: ['blob_chunks', 'blobs'],
  migrations: [
    {
      version: 1,
      name: 'blobs',
      sql: `
        CREATE TABLE blobs (
          id text PRIMARY KEY,
          size bigint NOT NULL,
          sha256 text NOT NULL,
          content_type text NOT NULL,
          chunks integer NOT NULL,
          complete boolean NOT NULL
        );
        CREATE TABLE blob_chunks (
          blob_id text NOT NULL REFERENCES blobs (id) ON DELETE CASCADE,
          seq integer NOT NULL,
          data bytea NOT NULL,
          PRIMARY KEY (blob_id, seq)
        );
      `,
    },
    {
      version: 2,
      name: 'blob chunks vacuumed unthrottled',
      // A reset deletes every chunk (DELETE, not TRUNCATE: postgres-store.ts), and a failed write deletes its own.
      // Autovacuum's default throttling reclaims their space about as fast as a local upload loop writes: an
      // outside soak grew the chunks' storage from 2 to 10.8 GB with nothing live. Unthrottled, the space is
      // reused as fast as it is freed (the file never shrinks; VACUUM FULL would lock out every instance).
      sql: `
        ALTER TABLE blob_chunks SET (autovacuum_vacuum_cost_delay = 0, autovacuum_vacuum_scale_factor = 0.05,
          toast.autovacuum_vacuum_cost_delay = 0, toast.autovacuum_vacuum_scale_factor = 0.05);
      `,
    },
  ],
  memory: () => new MemoryBlobs(),
  postgres: (db) => new PostgresBlobs(db),
};
