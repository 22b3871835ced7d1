// Rows of one CSV file of a view (header row first), read as they stream from the byte store and checked
// against the schema's column types, a batch per about 64 KiB of text (docs/datasets.md, "Table reads", "CSV").
// A passthrough read (CSV out, every schema column in order, the file's header row exactly those columns) sends
// the file's own bytes once each record in them has been proven by the byte scan (csv-bytes.ts); the records
// the scan cannot prove, and every other read, go through the tokenizers, whose values are converted and
// re-encoded (or, for a passthrough read's quote-free stretch, checked and sent as the file's text).
import type { Readable } from 'node:stream';
import type { ColumnBatch } from './arrow-vectors.js';
import type { Cell, Column } from './columns.js';
import { arrowColumns } from './csv-arrow.js';
import { provenBytes, readStretches, type StretchReader } from './csv-bytes.js';
import { csvRecords } from './csv-records.js';
import { TableReadError } from './table-error.js';

/** Converted rows, Arrow data (an ARROW read), or (passthrough) the file's own record text, already checked, ending in a line break. */
type CsvBatch = Cell[][] | ColumnBatch | Buffer;

export interface CsvReadOptions {
  /** The caller may take the file's own text. */
  passthrough: boolean;
  /** The caller writes Arrow: the records are read from the bytes into column data (csv-arrow.ts). */
  columnar?: boolean;
  /** Called when the whole file was read, checked and passed through (so a later read may skip the checks). */
  fitted?: () => void;
  /**
   * The caller takes at most this many rows of the file (a read's row limit, less the rows before the file): the
   * records after them are not read, so a value, a ragged line or a stray quote there fails nothing.
   */
  rowLimit?: number;
}

export async function* csvRows(path: string, bytes: Readable, columns: readonly Column[], options: CsvReadOptions): AsyncGenerator<CsvBatch> {
  if (!options.passthrough && !options.columnar) return yield* tokenizedRows(path, bytes, columns, options, 0);
  const reader: StretchReader<Buffer | ColumnBatch> = options.passthrough ? provenBytes(columns) : arrowColumns(columns);
  // The bytes' reader stops at the first record it cannot take and sends the records before it, whatever the
  // limit (the caller cuts them); each of them was a row, so the tokenizers are left the limit less those.
  try {
    yield* readStretches(
      bytes as AsyncIterable<Buffer>,
      reader,
      () => (options.passthrough ? options.fitted?.() : undefined),
      (rest, recordsBefore) => tokenizedRows(path, rest, columns, options, recordsBefore),
    );
  } finally {
    bytes.destroy();
  }
}

/**
 * The file (from its header row) through the tokenizers; `recordsBefore` records were read before the header's
 * next line, each sent as a row. Under a row limit only the rows left are tokenized and checked.
 */
async function* tokenizedRows(
  path: string,
  bytes: Readable,
  columns: readonly Column[],
  options: CsvReadOptions,
  recordsBefore: number,
): AsyncGenerator<CsvBatch> {
  let positions: number[] | undefined;
  let width = 0;
  let passthrough = options.passthrough;
  let line = 0;
  let wholeFileRaw = true;
  // Rows still wanted; the records asked of the tokenizers are those and the header row.
  let left = options.rowLimit === undefined ? Infinity : Math.max(0, options.rowLimit - recordsBefore);
  const limited = left !== Infinity;
  try {
    for await (const { records, text } of csvRecords(path, bytes, recordsBefore, left + 1)) {
      let start = 0;
      let skipText = 0;
      if (!positions) {
        const header = records[0];
        if (!header) continue;
        positions = columns.map((c) => {
          const at = header.indexOf(c.name);
          if (at < 0) throw new TableReadError(`${path}: the schema's column "${c.name}" is not in the header row (${header.slice(0, 20).join(', ')})`);
          return at;
        });
        width = header.length;
        passthrough &&= header.length === columns.length && positions.every((p, i) => p === i);
        start = 1;
        line = 1 + recordsBefore;
        skipText = text === undefined ? 0 : text.indexOf('\n') + 1;
      }
      const raw = passthrough && text !== undefined;
      // Text holding U+FFFD may stand for bytes that were not UTF-8: such a file is not remembered as fitting
      // (its later reads would send those bytes as they are).
      wholeFileRaw &&= raw && !text.includes('\uFFFD');
      const end = Math.min(records.length, start + left);
      left -= end - start;
      const rows: Cell[][] = raw ? [] : new Array<Cell[]>(end - start);
      for (let r = start; r < end; r++) {
        line += 1;
        const record = records[r]!;
        if (record.length !== width) throw new TableReadError(`${path} line ${line}: the record has ${record.length} fields, the header row ${width}`);
        const row = raw ? undefined : new Array<Cell>(columns.length);
        for (let i = 0; i < columns.length; i++) {
          const column = columns[i]!;
          try {
            const cell = record[positions[i]!]!;
            if (row) row[i] = column.fromText(cell);
            else column.check(cell);
          } catch (err) {
            throw new TableReadError(`${path} line ${line}, column "${column.name}": ${(err as Error).message}`);
          }
        }
        if (row) rows[r - start] = row;
      }
      if (raw) {
        if (text!.length > skipText) yield Buffer.from(skipText > 0 ? text!.slice(skipText) : text!);
      } else if (rows.length > 0) yield rows;
    }
  } finally {
    bytes.destroy();
  }
  // A file cut by a row limit was not read whole (a passthrough read has none: read-table.ts isPassthrough).
  if (positions && passthrough && wholeFileRaw && !limited) options.fitted?.();
}

/**
 * A file already known to fit (options.fitted was called for it and this schema): its bytes less the header
 * row, as they are, in pieces of about 64 KiB, ending in a line break.
 */
export async function* fittedText(bytes: Readable, pieceBytes: number): AsyncGenerator<Buffer> {
  let inHeader = true;
  let last = 10;
  try {
    for await (const chunk of bytes as AsyncIterable<Buffer>) {
      for (let at = 0; at < chunk.length; at += pieceBytes) {
        let piece = chunk.subarray(at, at + pieceBytes);
        if (inHeader) {
          const end = piece.indexOf(10);
          if (end < 0) continue;
          piece = piece.subarray(end + 1);
          inHeader = false;
        }
        if (piece.length === 0) continue;
        last = piece[piece.length - 1]!;
        yield piece;
      }
    }
  } finally {
    bytes.destroy();
  }
  if (last !== 10) yield Buffer.from('\n');
}
