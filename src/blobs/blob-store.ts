// The byte store: files of any size kept as a sequence of chunks, written from a stream and read back as one
// (docs/datasets.md, "The byte store"). Datasets use it first; attachments, media and streams are meant to
// reuse it, so it knows nothing of any of them. A blob is visible only once its whole stream has been written:
// a write whose source fails, is cut or passes its cap leaves nothing behind.
import type { Readable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';

/** What a finished write stored. */
export interface BlobInfo {
  blobId: string;
  size: number;
  /** Hex SHA-256 of the bytes, for callers that compare or export contents. */
  sha256: string;
  contentType: string;
}

export interface PutOptions {
  /** The write fails with BlobTooLarge as soon as the source passes this many bytes. */
  maxBytes: number;
  contentType?: string;
  /**
   * Told each chunk as it is stored, in order (never to be changed): `kept` says the store holds that very
   * buffer for as long as the blob lives (the memory store), so that a watcher may keep a reference for free.
   */
  onChunk?(chunk: Buffer, kept: boolean): void;
  /**
   * The memory store only: the most bytes it may hold in all, this write's included; past it the write fails with
   * BlobStoreFull and nothing of it is kept (docs/datasets.md, "The byte store"). Every upload route passes
   * maxMemoryBlobBytes(seed) (memory-cap.ts); a seed's own files pass none. PostgreSQL keeps bytes on disk.
   */
  maxHeldBytes?: number;
}

/**
 * Part of a blob: bytes from `start` up to (not including) `end`, as Blob.slice counts. An `end` past the blob's
 * size stops at its end; `start >= end` is an empty read.
 */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobStore {
  /** Reads `source` to its end into a new blob; nothing is visible unless this resolves. */
  put(source: AsyncIterable<Uint8Array>, options: PutOptions): Promise<BlobInfo>;
  stat(blobId: string): Promise<BlobInfo | undefined>;
  /**
   * The blob's bytes (or only `range` of them) as a stream read chunk by chunk; undefined when there is no such
   * blob. A ranged read fetches only the chunks the range touches (a Parquet reader asks for its footer, then one
   * row group at a time). A range with a negative or fractional bound throws a RangeError.
   */
  open(blobId: string, range?: ByteRange): Promise<Readable | undefined>;
  delete(blobId: string): Promise<void>;
}

/** The source passed PutOptions.maxBytes; what was written so far has been dropped. */
export class BlobTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the content is larger than ${maxBytes} bytes`);
  }
}

/** A write would take the memory store past PutOptions.maxHeldBytes; nothing of it was kept. */
export class BlobStoreFull extends Error {
  constructor(readonly maxHeldBytes: number) {
    super(`the memory byte store would hold more than ${maxHeldBytes} bytes`);
  }
}

/**
 * The blob was deleted while it was being written (a reset of the store under way): nothing of it is kept. The
 * caller answers as it would for the record the bytes were meant for, which the reset took too.
 */
export class BlobRemoved extends Error {
  constructor() {
    super('the content was removed while it was written (the store was reset)');
  }
}

/** A range checked and clamped to a blob of `size` bytes (end at most size, never before start). */
export function clampRange(range: ByteRange, size: number): ByteRange {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < 0) {
    throw new RangeError(`a byte range needs whole, non-negative bounds (got ${start} to ${end})`);
  }
  const stop = Math.min(end, size);
  return { start: Math.min(start, stop), end: stop };
}

/**
 * Stored chunk size: big enough that a 1 GiB file is 1024 rows, small enough that a read holds little. Every
 * chunk of a blob but its last holds exactly this many bytes (chunked() below), which ranged reads rely on.
 */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * Bytes taken before other requests get a turn. A fast sender's socket has data at every read, and libuv reads
 * up to 32 times (2 MiB) per turn of the event loop while each piece is taken at once; waiting a turn here leaves
 * the piece after it unread, which stops the socket, so a turn holds about this many bytes' work, not 2 MiB's.
 * 256 KiB cost a 30 MB upload about 9% of its time, 512 KiB none measurable, for the same latency of the others.
 */
const TURN_BYTES = 512 * 1024;

/**
 * Cuts a byte stream into CHUNK_BYTES pieces (the last one shorter), counting and hashing as it goes, and
 * failing with BlobTooLarge once past the cap: what a store writes, row by row. Each piece is copied once, into
 * a chunk of its own that the caller may keep as it is (a fresh buffer, never a view of a shared one; the last
 * chunk is cut to its length). Gathering the pieces and copying the gathered bytes again made three buffers per
 * byte of upload, and that garbage started a full collection every ~12 MB of a memory-store upload, each
 * pausing the event loop (docs/datasets.md, "Bench").
 */
export async function* chunked(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number,
  hash: { update(b: Uint8Array): unknown },
  counted: { size: number },
): AsyncGenerator<Buffer> {
  let chunk: Buffer | undefined;
  let filled = 0;
  let sinceTurn = 0;
  for await (const piece of source) {
    counted.size += piece.byteLength;
    if (counted.size > maxBytes) throw new BlobTooLarge(maxBytes);
    hash.update(piece);
    sinceTurn += piece.byteLength;
    if (sinceTurn >= TURN_BYTES) {
      sinceTurn = 0;
      await tick();
    }
    for (let at = 0; at < piece.byteLength;) {
      chunk ??= Buffer.allocUnsafeSlow(CHUNK_BYTES);
      const taken = Math.min(CHUNK_BYTES - filled, piece.byteLength - at);
      chunk.set(piece.subarray(at, at + taken), filled);
      filled += taken;
      at += taken;
      if (filled === CHUNK_BYTES) {
        yield chunk;
        chunk = undefined;
        filled = 0;
      }
    }
  }
  if (filled > 0) yield Buffer.from(chunk!.subarray(0, filled));
  else if (counted.size === 0) yield Buffer.alloc(0);
}
