// The byte store in memory: each blob a list of chunks (never one buffer the size of the file).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { randomUuid } from '../ids.js';
import { BlobStoreFull, chunked, clampRange, type BlobInfo, type BlobStore, type ByteRange, type PutOptions } from './blob-store.js';

export class MemoryBlobs implements BlobStore {
  private readonly blobs = new Map<string, { info: BlobInfo; chunks: Buffer[] }>();
  /** Bytes of every blob kept: a write past PutOptions.maxHeldBytes fails (CONTRACTS §8: no store grows without end). */
  private held = 0;

  async put(source: AsyncIterable<Uint8Array>, options: PutOptions): Promise<BlobInfo> {
    const hash = createHash('sha256');
    const counted = { size: 0 };
    const chunks: Buffer[] = [];
    // Each chunk is a buffer of its own (chunked() copies the stream into it): kept as it is, not copied again.
    for await (const chunk of chunked(source, options.maxBytes, hash, counted)) {
      if (chunk.length === 0) continue;
      if (options.maxHeldBytes !== undefined && this.held + counted.size > options.maxHeldBytes) throw new BlobStoreFull(options.maxHeldBytes);
      chunks.push(chunk);
      options.onChunk?.(chunk, true);
    }
    const info: BlobInfo = {
      blobId: randomUuid(),
      size: counted.size,
      sha256: hash.digest('hex'),
      contentType: options.contentType ?? 'application/octet-stream',
    };
    this.blobs.set(info.blobId, { info, chunks });
    this.held += info.size;
    return info;
  }

  async stat(blobId: string): Promise<BlobInfo | undefined> {
    return this.blobs.get(blobId)?.info;
  }

  async open(blobId: string, range?: ByteRange): Promise<Readable | undefined> {
    const blob = this.blobs.get(blobId);
    if (!blob) return undefined;
    // No read-ahead (highWaterMark 0): each chunk (or view) is handed over as it is. With one chunk held, a read
    // by `for await` took the next one too and joined both into a new 2 MiB buffer, garbage that started a full
    // collection every 30-60 ms of a table read. Object mode also kept them apart, but its read-ahead of 16 chunks
    // raised a CSV -> ARROW read's RSS by 15-20 MB (docs/datasets.md, "Event-loop stalls during uploads and reads").
    return Readable.from(range ? slices(blob.chunks, clampRange(range, blob.info.size)) : blob.chunks, { objectMode: false, highWaterMark: 0 });
  }

  async delete(blobId: string): Promise<void> {
    const blob = this.blobs.get(blobId);
    if (!blob) return;
    this.blobs.delete(blobId);
    this.held -= blob.info.size;
  }

  clear(): void {
    this.blobs.clear();
    this.held = 0;
  }
}

/** The parts of `chunks` inside `range`, as views (no copy). */
function* slices(chunks: readonly Buffer[], range: ByteRange): Generator<Buffer> {
  let at = 0;
  for (const chunk of chunks) {
    const next = at + chunk.length;
    if (next > range.start && at < range.end) yield chunk.subarray(Math.max(0, range.start - at), Math.min(chunk.length, range.end - at));
    if (next >= range.end) return;
    at = next;
  }
}
