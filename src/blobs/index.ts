// The byte store's store part (docs/datasets.md, "The byte store"): a service that keeps file bytes lists BLOBS
// among its parts and reaches it with `store.part(BLOBS)`.
import type { StorePart } from '../store/parts.js';
import type { BlobStore } from './blob-store.js';
import { MemoryBlobs } from './memory-blobs.js';
import { PostgresBlobs } from './postgres-blobs.js';

export { BlobRemoved, BlobStoreFull, BlobTooLarge, CHUNK_BYTES, type BlobInfo, type BlobStore, type ByteRange, type PutOptions } from './blob-store.js';

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
  ],
  memory: () => new MemoryBlobs(),
  postgres: (db) => new PostgresBlobs(db),
};
