// The byte store's ranged read (docs/datasets.md, "The byte store"): open(blobId, {start, end}) gives exactly
// bytes start..end-1 of the blob, across chunk boundaries, clamped at its end; the same on every store.
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { BLOBS, CHUNK_BYTES, type BlobStore } from '../../src/blobs/index.js';
import type { Store } from '../../src/store/store.js';
import { TEST_STORE, openTestStore } from '../helpers/store.js';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

async function blobs(): Promise<BlobStore> {
  store = await openTestStore([BLOBS]);
  return store.part(BLOBS);
}

async function bytesOf(stream: Readable | undefined): Promise<Buffer> {
  if (!stream) throw new Error('no such blob');
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** Bytes whose every position differs from its neighbours' (a wrong offset shows). */
const pattern = (size: number) => {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = (i * 7 + (i >> 8)) & 0xff;
  return out;
};

describe(`byte store ranged reads (${TEST_STORE ? 'postgres' : 'memory'} store)`, () => {
  it('reads any range of a blob of several chunks, crossing chunk boundaries, and clamps at its end', async () => {
    const store = await blobs();
    const size = 2 * CHUNK_BYTES + 12_345;
    const content = pattern(size);
    // Written in uneven pieces: the stored chunks do not follow the writer's.
    const info = await store.put(Readable.from([content.subarray(0, 1000), content.subarray(1000, CHUNK_BYTES + 77), content.subarray(CHUNK_BYTES + 77)]), {
      maxBytes: 1e9,
    });
    const ranges: Array<[number, number]> = [
      [0, size],
      [0, 10],
      [5, 6],
      [CHUNK_BYTES - 3, CHUNK_BYTES + 3],
      [CHUNK_BYTES, 2 * CHUNK_BYTES],
      [CHUNK_BYTES - 1, 2 * CHUNK_BYTES + 1],
      [size - 8, size],
      [size - 8, size + 1000],
      [10, 2 * CHUNK_BYTES + 100],
    ];
    for (const [start, end] of ranges) {
      const got = await bytesOf(await store.open(info.blobId, { start, end }));
      expect(got.equals(content.subarray(start, Math.min(end, size))), `range ${start}..${end}`).toBe(true);
    }
    expect((await bytesOf(await store.open(info.blobId))).equals(content)).toBe(true);
  });

  it('answers an empty read for an empty or past-the-end range, undefined for an unknown blob, and refuses bad bounds', async () => {
    const store = await blobs();
    const info = await store.put(Readable.from([Buffer.from('0123456789')]), { maxBytes: 100 });
    expect((await bytesOf(await store.open(info.blobId, { start: 4, end: 4 }))).length).toBe(0);
    expect((await bytesOf(await store.open(info.blobId, { start: 7, end: 3 }))).length).toBe(0);
    expect((await bytesOf(await store.open(info.blobId, { start: 50, end: 60 }))).length).toBe(0);
    expect((await bytesOf(await store.open(info.blobId, { start: 8, end: 60 }))).toString()).toBe('89');
    expect(await store.open('no-such-blob', { start: 0, end: 1 })).toBeUndefined();
    await expect(store.open(info.blobId, { start: -1, end: 3 })).rejects.toThrow(RangeError);
    await expect(store.open(info.blobId, { start: 0.5, end: 3 })).rejects.toThrow(RangeError);
    const empty = await store.put(Readable.from([]), { maxBytes: 100 });
    expect((await bytesOf(await store.open(empty.blobId, { start: 0, end: 10 }))).length).toBe(0);
  });
});
