// The memory byte store's total (docs/datasets.md, "The byte store"; CONTRACTS §8): a write that would take it
// past PutOptions.maxHeldBytes fails and keeps nothing, and deleting or clearing blobs gives the room back. Over
// HTTP, an upload past limits.max_memory_blob_bytes is a 413 ByteStoreFull with nothing stored, whichever route
// it came by: dataset files, attachments and media all count against the one total.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BlobStoreFull } from '../../src/blobs/index.js';
import { MemoryBlobs } from '../../src/blobs/memory-blobs.js';
import { ONTOLOGY_FILES } from '../../src/services/ontologies/attachments/part.js';
import { TEST_STORE } from '../helpers/store.js';
import { bearer, buildTestApp, mintToken, platformError, type TestApp } from '../helpers/app.js';
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

// Attachments and media on the memory store: PostgreSQL keeps bytes on disk and has no such total.
describe.skipIf(Boolean(TEST_STORE))('attachments and media against the memory byte store total', () => {
  const SCOPES = ['api:datasets-read', 'api:datasets-write', 'api:ontologies-read', 'api:ontologies-write'];
  const RID = 'ri.foundry.main.dataset.shared';
  const capped = () =>
    buildTestApp({ seed: { platform: { users: [{ username: 'dev' }], limits: { max_memory_blob_bytes: 1000 }, datasets: [{ rid: RID, name: 'shared' }] } } });
  const tokenOf = (t: TestApp) => mintToken(t.app, 'dev', SCOPES);
  const upload = async (t: TestApp, token: string, kind: 'attachment' | 'media', size: number) => {
    const res = await t.app.inject({
      method: kind === 'attachment' ? 'POST' : 'PUT',
      url: kind === 'attachment' ? '/api/v2/ontologies/attachments/upload?filename=a.bin' : '/api/v2/mediasets/media/upload?filename=m.bin',
      headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(size, 7),
    });
    return { status: res.statusCode, body: res.json() as unknown };
  };

  it('refuses an attachment and a media upload past it with 413 ByteStoreFull, counting dataset files, and keeps nothing', async () => {
    const t = await capped();
    const token = await tokenOf(t);
    const file = await t.app.inject({
      method: 'POST',
      url: `/api/v2/datasets/${RID}/files/d.bin/upload?transactionType=SNAPSHOT`,
      headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(600, 7),
    });
    expect(file.statusCode).toBe(200);
    for (const kind of ['attachment', 'media'] as const) {
      const full = await upload(t, token, kind, 600);
      const error = platformError(full.body);
      expect([full.status, error.errorCode, error.errorName, error.parameters]).toEqual([
        413,
        'REQUEST_ENTITY_TOO_LARGE',
        'ByteStoreFull',
        { maxHeldBytes: 1000 },
      ]);
      expect(error.errorDescription).toContain('limits.max_memory_blob_bytes');
      expect(error.errorDescription).not.toContain(token);
    }
    expect(await t.store.part(ONTOLOGY_FILES).list()).toEqual([]);
    // Exactly the room left: nothing of the refused uploads is counted.
    expect((await upload(t, token, 'attachment', 400)).status).toBe(200);
    expect((await upload(t, token, 'media', 1)).status).toBe(413);
  });

  it('takes room back when unused uploads are swept and on a reset', async () => {
    const t = await capped();
    let token = await tokenOf(t);
    expect((await upload(t, token, 'attachment', 600)).status).toBe(200);
    expect((await upload(t, token, 'media', 600)).status).toBe(413);
    // An upload no object uses is dropped after an hour, and its bytes with it.
    await t.app.inject({ method: 'POST', url: '/_emulate/platform/clock', payload: { advanceMs: 60 * 60 * 1000 + 1 } });
    token = await tokenOf(t); // the hour took the token too
    expect((await upload(t, token, 'media', 600)).status).toBe(200);
    expect((await upload(t, token, 'attachment', 600)).status).toBe(413);
    expect((await t.app.inject({ method: 'POST', url: '/_emulate/platform/reset' })).statusCode).toBe(200);
    token = await tokenOf(t);
    expect((await upload(t, token, 'attachment', 1000)).status).toBe(200);
  });
});
