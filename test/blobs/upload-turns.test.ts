// A write gives other requests a turn of the event loop every 512 KiB (blob-store.ts, TURN_BYTES): a source
// with data always ready (a fast upload) is not taken whole in one turn (docs/datasets.md, "Event-loop stalls
// during uploads and reads").
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MemoryBlobs } from '../../src/blobs/memory-blobs.js';

describe('byte store writes', () => {
  it('let other work run while a source with data always ready is written', async () => {
    const pieces = Array.from({ length: 128 }, () => Buffer.alloc(64 * 1024, 1)); // 8 MiB
    let turns = 0;
    let writing = true;
    const count = () => {
      if (!writing) return;
      turns += 1;
      setImmediate(count);
    };
    setImmediate(count);
    const info = await new MemoryBlobs().put(Readable.from(pieces), { maxBytes: 1e9 });
    writing = false;
    expect(info.size).toBe(8 * 1024 * 1024);
    expect(turns).toBeGreaterThanOrEqual(8);
  });
});
