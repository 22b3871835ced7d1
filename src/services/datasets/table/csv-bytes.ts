// A CSV file read over its bytes, never decoded to a string (docs/datasets.md, "CSV: the byte scan and
// passthrough"): the header row is given to a reader, then each piece's whole records. A first passthrough read
// proves them with csv-scan.ts and sends the file's own bytes; an ARROW read fills column vectors from them
// (csv-arrow.ts). A record the reader cannot take (a bad value, a ragged line, a stray quote) and everything
// after it go to the tokenizers (csv-source.ts), which name the file, line and column as before; so does a file
// whose header row the reader does not take.
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { isMainThread } from 'node:worker_threads';
import type { Column } from './columns.js';
import { PIECE_BYTES } from './csv-records.js';
import { scanRecords, type ScanResult } from './csv-scan.js';
import { giveAway } from './handover.js';
import { headerRow, namesFit } from './csv-header.js';

/** The tokenizers' read of the rest: a stream that starts with the header row, and the records already read. */
export type TokenizedRest<T> = (bytes: Readable, recordsBefore: number) => AsyncGenerator<T>;

const LF = 10;
/** A record (or header row) longer than this goes to the tokenizers, as a quoted one with no end would. */
const LONGEST_PIECE = 8 * PIECE_BYTES;
const EMPTY: Buffer = Buffer.alloc(0);

/** The file's chunks in pieces of at most `size` bytes (each scanned and handed on alone). */
async function* piecesOf(bytes: AsyncIterable<Buffer>, size = PIECE_BYTES): AsyncGenerator<Buffer> {
  for await (const chunk of bytes) for (let at = 0; at < chunk.length; at += size) yield chunk.subarray(at, at + size);
}

/**
 * The same bytes, cut at line ends: each piece's whole lines as a view of it, the unfinished line before them
 * joined to their first (a copy of that line alone). A stretch can then be one piece read in place, where
 * joining pieces into a stretch copied every byte of the file once more (~10% of a first CSV read's CPU).
 */
async function* lineAligned(pieces: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let carry: Buffer = EMPTY;
  for await (const piece of pieces) {
    const first = piece.indexOf(LF);
    if (first < 0) {
      // A line longer than a record may be goes on as it comes (the reader hands it to the tokenizers): joined
      // piece by piece, it would be copied again at every piece.
      if (carry.length + piece.length > LONGEST_PIECE) {
        if (carry.length > 0) yield carry;
        yield piece;
        carry = EMPTY;
      } else carry = Buffer.concat([carry, piece]);
      continue;
    }
    const last = piece.lastIndexOf(LF);
    if (carry.length === 0) yield piece.subarray(0, last + 1);
    else {
      yield Buffer.concat([carry, piece.subarray(0, first + 1)]);
      if (last > first) yield piece.subarray(first + 1, last + 1);
    }
    carry = last + 1 < piece.length ? Buffer.from(piece.subarray(last + 1)) : EMPTY;
  }
  if (carry.length > 0) yield carry;
}

const join = (a: Buffer, b: Buffer): Buffer => (a.length === 0 ? b : Buffer.concat([a, b]));

/**
 * `buf[0..end]`, proven, to be sent. A buffer that is all ours (a piece the worker was handed, or a join) is
 * given away with it (handover.ts), so that the worker transfers it instead of copying; the caller has copied
 * what it keeps of it.
 */
function proven(buf: Buffer, end: number): Buffer {
  const out = buf.subarray(0, end);
  // Only a worker transfers its answer's buffers (the main thread writes them to the socket as they are).
  return !isMainThread && buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength ? (giveAway(out) as Buffer) : out;
}

/**
 * Whether the file's first bytes hold a header row (ended by a line break) that a passthrough read can take: the
 * columns' names at their positions, nothing more (the tokenizers' rule), unquoted. A file's BOM is skipped.
 */
export function headerFits(start: Buffer, columns: readonly Pick<Column, 'name'>[]): boolean {
  const header = headerRow(start);
  return header !== undefined && namesFit(header.names, columns);
}

/** How a read over the bytes takes a file: whether its header row suits it, and what it makes of whole lines. */
export interface StretchReader<T> {
  /** The bytes it reads at once, at least (default PIECE_BYTES); a record longer than LONGEST_PIECE goes to the tokenizers. */
  stretchBytes?: number;
  /** Its `out` keeps nothing of the bytes it read, so that one buffer may hold every stretch in turn. */
  copiesOut?: boolean;
  /**
   * It reads pieces of `stretchBytes` cut at line ends (lineAligned above), each in place when nothing is left
   * over from the one before: its `out` may be a view of the file's stored bytes.
   */
  inPlace?: boolean;
  /** The file's first bytes, up to past its first line feed: false hands the whole file to the tokenizers. */
  header(start: Buffer): boolean;
  /**
   * Reads the records of `buf[0..limit]` (whole lines), up to the first it cannot take; `out`, when given, is
   * sent on. The caller copies what it keeps of `buf` before it sends `out`, which may take `buf` away.
   */
  read(buf: Buffer, limit: number): ScanResult & { out?: T };
}

/** A passthrough read's reader: records proven against `columns` (csv-scan.ts) and sent as their own bytes. */
export const provenBytes = (columns: readonly Column[]): StretchReader<Buffer> => ({
  // 256 KiB at a time: 1.3-2x the rate of 64 KiB per CPU second (fewer turns, sends and joins per byte), and
  // about 2 ms of the event loop per stretch.
  stretchBytes: 4 * PIECE_BYTES,
  inPlace: true,
  header: (start) => headerFits(start, columns),
  read(buf, limit) {
    const scan = scanRecords(buf, 0, limit, columns);
    return scan.end > 0 ? { ...scan, out: proven(buf, scan.end) } : scan;
  },
});

/**
 * The file's records (header row left out) through `reader`, a stretch of whole lines at a time: pieces of
 * PIECE_BYTES, as many as make the reader's stretch, joined (one copy) to the unfinished record before. `fitted` is called when the reader took the whole file.
 * A file whose header row the reader does not take, and the records from the first it cannot take, go to the
 * tokenizers (`rest`), the header row put back before them.
 */
export async function* readStretches<T, R>(
  bytes: AsyncIterable<Buffer>,
  reader: StretchReader<T>,
  fitted: () => void,
  rest: TokenizedRest<R>,
): AsyncGenerator<T | R> {
  const pieces = (reader.inPlace ? lineAligned(piecesOf(bytes, reader.stretchBytes)) : piecesOf(bytes))[Symbol.asyncIterator]();
  const remaining = async function* (...first: Buffer[]): AsyncGenerator<Buffer> {
    for (const buffer of first) if (buffer.length > 0) yield buffer;
    for (let next = await pieces.next(); !next.done; next = await pieces.next()) yield next.value;
  };
  const stretch = reader.stretchBytes ?? PIECE_BYTES;
  let room: Buffer = EMPTY;
  /** `kept` and the pieces after it, at least a stretch of bytes when the file has them; undefined at its end. */
  const grow = async (kept: Buffer): Promise<Buffer | undefined> => {
    if (reader.inPlace && kept.length === 0) {
      const next = await pieces.next();
      return next.done ? undefined : next.value;
    }
    const parts = [kept];
    let size = kept.length;
    while (parts.length === 1 || size < stretch) {
      const next = await pieces.next();
      if (next.done) break;
      parts.push(next.value);
      size += next.value.length;
    }
    if (parts.length === 1) return undefined;
    if (!reader.copiesOut) return parts.length === 2 && kept.length === 0 ? parts[1]! : Buffer.concat(parts, size);
    // One buffer for every stretch: a fresh 512 KiB per stretch was external memory that made V8 run full
    // collections every 100 ms or so.
    if (room.length < size) room = Buffer.allocUnsafeSlow(Math.max(size, 2 * room.length));
    let at = 0;
    for (const part of parts) at += part.copy(room, at);
    return room.subarray(0, size);
  };
  try {
    let buf: Buffer = EMPTY;
    let lineEnd = -1;
    for (;;) {
      lineEnd = buf.indexOf(LF);
      if (lineEnd >= 0 || buf.length > LONGEST_PIECE) break;
      const next = await pieces.next();
      if (next.done) break;
      buf = join(buf, next.value);
    }
    if (lineEnd < 0 || !reader.header(buf)) {
      yield* rest(Readable.from(remaining(buf), { objectMode: false }), 0);
      return;
    }
    const headerRow = Buffer.from(buf.subarray(0, lineEnd + 1));
    buf = buf.subarray(lineEnd + 1);
    let records = 0;
    // The header row and the first record handed on go as one buffer, so that the tokenizers' first batch holds
    // both (as it does when they read the file from its start): csv-parse takes the first line end it meets as
    // the file's, and a lone carriage return in that record is then a cell's, not a line end.
    const tokenized = (from: Buffer) => rest(Readable.from(remaining(Buffer.concat([headerRow, from])), { objectMode: false }), records);
    let ended = false;
    let added = false;
    // A file sent as U+FFFD where its bytes are not UTF-8 is not known to fit: a later read would send its own
    // bytes unchecked, so the same table would come out two ways.
    let recoded = false;
    while (!ended) {
      const next = await grow(buf);
      if (next === undefined) {
        ended = true;
        // A last line without its line break gets one, so that a passthrough read can put the next file after it.
        if (buf.length === 0 || buf.toString('utf8').trim().length === 0) break;
        added = buf[buf.length - 1] !== LF;
        if (added) buf = Buffer.concat([buf, Buffer.from('\n')]);
      } else buf = next;
      let cut = buf.lastIndexOf(LF);
      if (cut < 0) {
        if (buf.length > LONGEST_PIECE) return yield* tokenized(buf);
        continue;
      }
      // Bytes that are not UTF-8 are read as the tokenizers would (decoded, so U+FFFD, and encoded again);
      // every delimiter is ASCII, so the records stay where they were.
      if (!isUtf8(buf.subarray(0, cut + 1))) {
        recoded = true;
        const text = Buffer.from(buf.toString('utf8', 0, cut + 1));
        buf = Buffer.concat([text, buf.subarray(cut + 1)]);
        cut = text.length - 1;
      }
      const read = reader.read(buf, cut + 1);
      records += read.records;
      // What is kept is copied before the rest is handed on (it may be transferred away).
      const kept = read.end < buf.length ? Buffer.from(buf.subarray(read.end)) : EMPTY;
      if (read.out !== undefined) yield read.out;
      if (read.stop === 'unproven' || (ended && kept.length > 0) || kept.length > LONGEST_PIECE) {
        // At the end, a last line with no line break had one added: the tokenizers add their own.
        return yield* tokenized(added ? kept.subarray(0, -1) : kept);
      }
      buf = kept;
    }
    if (!recoded) fitted();
  } finally {
    await pieces.return?.(undefined);
  }
}
