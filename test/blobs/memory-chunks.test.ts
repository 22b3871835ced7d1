// The memory store's reads hand over its own chunks (or views of them), never copies: a byte-mode stream read by
// an async iterator joined two buffered chunks into a new buffer per read (docs/datasets.md, "Event-loop stalls
// during uploads and reads").
import { Readable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES } from '../../src/blobs/index.js';
import { MemoryBlobs } from '../../src/blobs/memory-blobs.js';

/** Reads as the table readers do: `for await`, with a turn of the event loop between pieces. */
async function piecesOf(stream: Readable | undefined): Promise<Buffer[]> {
  if (!stream) throw new Error('no such blob');
  const pieces: Buffer[] = [];
  for await (const piece of stream) {
    pieces.push(piece as Buffer);
    await tick();
  }
  return pieces;
}

describe('memory byte store reads', () => {
  it('hands over views of the stored chunks, one at a time, whole and ranged', async () => {
    const blobs = new MemoryBlobs();
    const content = Buffer.alloc(6 * CHUNK_BYTES + 100, 7);
    const info = await blobs.put(Readable.from([content]), { maxBytes: 1e9 });
    const whole = await piecesOf(await blobs.open(info.blobId));
    expect(whole.map((p) => p.length)).toEqual([...Array(6).fill(CHUNK_BYTES), 100]);
    const ranged = await piecesOf(await blobs.open(info.blobId, { start: 10, end: 5 * CHUNK_BYTES }));
    expect(ranged.map((p) => p.length)).toEqual([CHUNK_BYTES - 10, ...Array(4).fill(CHUNK_BYTES)]);
    // The same memory as the stored chunks: a piece that is a copy would be garbage made by the read.
    const stored = new Set((await piecesOf(await blobs.open(info.blobId))).map((p) => p.buffer));
    for (const piece of [...whole, ...ranged]) expect(stored.has(piece.buffer)).toBe(true);
  });
});
