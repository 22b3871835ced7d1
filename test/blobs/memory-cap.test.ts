// The memory byte store's total (docs/datasets.md, "The byte store"; CONTRACTS §8): a write that would take it
// past PutOptions.maxHeldBytes fails and keeps nothing, and deleting or clearing blobs gives the room back. Over
// HTTP, an upload past limits.max_memory_blob_bytes is a 413 ByteStoreFull with nothing stored.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BlobStoreFull } from '../../src/blobs/index.js';
import { MemoryBlobs } from '../../src/blobs/memory-blobs.js';
import { TEST_STORE } from '../helpers/store.js';
import { platformError } from '../helpers/app.js';
import { datasetsApp, json, uploadFile } from '../datasets/helpers.js';

const bytes = (n: number) => Readable.from([Buffer.alloc(n, 7)]);

describe('the memory byte store total', () => {
  it('refuses a write past it, keeps nothing of that write, and takes deletions and clears back', async () => {
    const blobs = new MemoryBlobs();
    const first = await blobs.put(bytes(600), { maxBytes: 1000, maxHeldBytes: 1000 });
    const refused = await blobs.put(bytes(600), { maxBytes: 1000, maxHeldBytes: 1000 }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(BlobStoreFull);
    expect((await blobs.put(bytes(400), { maxBytes: 1000, maxHeldBytes: 1000 })).size).toBe(400);
    await blobs.delete(first.blobId);
    expect((await blobs.put(bytes(600), { maxBytes: 1000, maxHeldBytes: 1000 })).size).toBe(600);
    blobs.clear();
    expect((await blobs.put(bytes(1000), { maxBytes: 1000, maxHeldBytes: 1000 })).size).toBe(1000);
  });

  it.skipIf(Boolean(TEST_STORE))(
    'answers an upload past limits.max_memory_blob_bytes with 413 ByteStoreFull (memory store only: PostgreSQL keeps bytes on disk)',
    async () => {
      const rid = 'ri.foundry.main.dataset.capped';
      const t = await datasetsApp({ limits: { max_memory_blob_bytes: 1000 }, datasets: [{ rid, name: 'capped' }] });
      try {
        expect((await uploadFile(t, rid, 'a.bin', Buffer.alloc(600), '?transactionType=SNAPSHOT')).status).toBe(200);
        const full = await uploadFile(t, rid, 'b.bin', Buffer.alloc(600), '?transactionType=UPDATE');
        expect([full.status, platformError(full.body).errorName, platformError(full.body).parameters]).toEqual([413, 'ByteStoreFull', { maxHeldBytes: 1000 }]);
        const files = await json(t, 'GET', `/api/v2/datasets/${rid}/files`);
        expect((files.body.data as Array<{ path: string }>).map((f) => f.path)).toEqual(['a.bin']);
      } finally {
        await t.app.close();
      }
    },
  );
});
