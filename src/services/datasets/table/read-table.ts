// readTable (docs/datasets.md, "Table reads"): the view's CSV and Parquet files read with the dataset's schema,
// in path order, cut to `columns` and `rowLimit`, encoded as ARROW or CSV. Everything is a generator pulled by
// the response, so a table larger than memory is never built whole.
import type { Readable } from 'node:stream';
import type { ByteRange } from '../../../blobs/index.js';
import { setImmediate as tick } from 'node:timers/promises';
import type { DatasetSchema, FileRecord } from '../model.js';
import { columnOf, unsupportedType, type Cell, type Column } from './columns.js';
import { csvRows, fittedText } from './csv-source.js';
import { PIECE_BYTES } from './csv-records.js';
import { ipcColumns, parquetColumns, parquetRawBatches, type RangeReader } from './parquet-source.js';
import { firstOf, type ColumnBatch } from './arrow-vectors.js';
import { RecordBatchReader, Table, tableToIPC, type RecordBatch } from 'apache-arrow';
import { arrowStream, csvStream } from './encode.js';
import { isIpcBatch, type IpcBatch } from './arrow-ipc.js';
import { TableReadError } from './table-error.js';

export { TableReadError };
/** What a file gives: rows, columns (Parquet), or (passthrough) a CSV file's own checked text. */
export type TableBatch = Cell[][] | ColumnBatch | Buffer | IpcBatch;

/** The first `count` rows of a batch. */
function firstRows(batch: Cell[][] | ColumnBatch | IpcBatch, count: number): Cell[][] | ColumnBatch {
  if (Array.isArray(batch)) return batch.slice(0, count);
  // Record batch bytes are asked for only when every row is taken (rowsOf's `ipc`).
  if (isIpcBatch(batch)) throw new Error('a passed-through Arrow batch cannot be cut');
  return { length: count, columns: batch.columns.map((c) => firstOf(c, count)) };
}

/**
 * A Parquet file's first `wanted` rows as column batches. A batch is converted to the schema's types whole (a
 * value that does not fit fails it), so the batch the limit falls in is cut first, as parquet-wasm wrote it: the
 * rows past the limit are never converted, nor refused.
 */
async function* firstParquetRows(path: string, size: number, read: RangeReader, columns: readonly Column[], wanted: number): AsyncGenerator<ColumnBatch> {
  let left = wanted;
  for await (const raw of parquetRawBatches(path, size, read, columns)) {
    const batches = [...(RecordBatchReader.from(raw.ipc) as Iterable<RecordBatch>)];
    const rows = batches.reduce((sum, b) => sum + b.numRows, 0);
    let ipc = raw.ipc;
    if (rows > left) {
      const kept: RecordBatch[] = [];
      for (let need = left, i = 0; need > 0; i++) {
        const batch = batches[i]!;
        kept.push(batch.numRows > need ? batch.slice(0, need) : batch);
        need -= Math.min(need, batch.numRows);
      }
      ipc = tableToIPC(new Table(kept), 'stream');
    }
    yield* ipcColumns(path, ipc, columns, raw.seen);
    left -= Math.min(rows, left);
    if (left <= 0) return;
  }
}

export type TableFormat = 'ARROW' | 'CSV';

/** The view's files a table read takes: CSV and Parquet by name; others (`_SUCCESS`, logs) are skipped. */
export const tabularFormat = (path: string): 'csv' | 'parquet' | undefined => (/\.csv$/i.test(path) ? 'csv' : /\.parquet$/i.test(path) ? 'parquet' : undefined);

/** The columns to read, checked before any byte is sent; a message for the caller when one cannot be served. */
export function planColumns(schema: DatasetSchema, wanted: readonly string[]): Column[] | { problem: string; column?: string } {
  const fields = schema.fieldSchemaList;
  const names = wanted.length > 0 ? wanted : fields.map((f, i) => f.name ?? `column_${i}`);
  const columns: Column[] = [];
  for (const name of names) {
    const field = fields.find((f, i) => (f.name ?? `column_${i}`) === name);
    if (!field) return { problem: `column ${JSON.stringify(name)} is not in the schema`, column: name };
    const unsupported = unsupportedType(field);
    if (unsupported) return { problem: `column ${JSON.stringify(name)} has type ${unsupported}, which table reads do not serve` };
    columns.push(columnOf(field, name));
  }
  return columns;
}

/** Where a read gets a file's bytes: the byte store, or (in the table worker) the main thread's byte store. */
export interface ByteSource {
  open(blobId: string, range?: ByteRange): Promise<Readable | undefined>;
  /** `start..end` of a file in one buffer (undefined: the blob is gone); the worker's way, one message per range. */
  range?(blobId: string, start: number, end: number): Promise<ArrayBuffer | undefined>;
}

/** `start..end` of a stored file copied once into one buffer of its own; undefined when the blob is gone. */
export async function storedRange(blobs: ByteSource, blobId: string, start: number, end: number): Promise<ArrayBuffer | undefined> {
  const out = new Uint8Array(Math.max(0, end - start));
  const bytes = await blobs.open(blobId, { start, end });
  if (!bytes) return undefined;
  let at = 0;
  try {
    for await (const part of bytes as AsyncIterable<Buffer>) {
      if (at + part.length > out.length) throw new Error('the store answered more bytes than asked for');
      out.set(part, at);
      at += part.length;
    }
  } finally {
    bytes.destroy();
  }
  if (at !== out.length) throw new Error(`the store answered ${at} bytes of ${out.length} asked for`);
  return out.buffer;
}

/** `start..end` of a stored file in one buffer (what the Parquet reader asks for). */
export async function readRange(path: string, blobs: ByteSource, blobId: string, start: number, end: number): Promise<ArrayBuffer> {
  let bytes: ArrayBuffer | undefined;
  try {
    bytes = await (blobs.range ? blobs.range(blobId, start, end) : storedRange(blobs, blobId, start, end));
  } catch (err) {
    throw new TableReadError(`${path}: ${(err as Error).message}`);
  }
  if (!bytes) throw new TableReadError(`${path}: its bytes are gone from the store`);
  return bytes;
}

/** Which files are known to fit the columns (a passthrough read of one sends its bytes unchecked). */
export interface FitMemory {
  has(key: string): boolean;
  remember(key: string): void;
}

/**
 * Files known to fit a schema, by blob and columns (blobs never change): a passthrough read of one sends its
 * bytes without checking them again. Per instance, bounded; losing it only costs a check.
 */
const fitted = new Map<string, true>();
const FITTED_MAX = 10_000;
// The schema's type word and the Arrow type both: STRING and DECIMAL are both Utf8, and a file proven as text is
// not proven as decimals.
export const fitKey = (blobId: string, columns: readonly Column[]) =>
  `${blobId}\u0000${columns.map((c) => `${c.name}:${c.rule}:${String(c.type)}`).join('\u0000')}`;
export const knownFits: FitMemory = {
  has: (key) => fitted.has(key),
  remember(key) {
    if (fitted.size >= FITTED_MAX) fitted.delete(fitted.keys().next().value!);
    fitted.set(key, true);
  },
};

async function* rowsOf(
  files: readonly Pick<FileRecord, 'path' | 'blobId' | 'size'>[],
  blobs: ByteSource,
  columns: readonly Column[],
  rowLimit: number | undefined,
  passthrough: boolean,
  fits: FitMemory,
  ipc: boolean,
  arrow: boolean,
): AsyncGenerator<TableBatch> {
  let left = rowLimit ?? Infinity;
  for (const file of files) {
    const format = tabularFormat(file.path);
    if (!format || !file.blobId || left <= 0) continue;
    const blobId = file.blobId;
    const bytes: Readable | undefined = format === 'parquet' ? undefined : await blobs.open(blobId);
    if (format === 'csv' && !bytes) throw new TableReadError(`${file.path}: its bytes are gone from the store`);
    const key = fitKey(blobId, columns);
    const read: RangeReader = (start, end) => readRange(file.path, blobs, blobId, start, end);
    // Under a row limit each file is told the rows left: what it reads past them is never checked (a row that is
    // not sent is not refused either), whatever the format.
    const limited = left !== Infinity;
    const source: AsyncIterable<TableBatch> = !bytes
      ? limited
        ? firstParquetRows(file.path, file.size, read, columns, left)
        : parquetColumns(file.path, file.size, read, columns, ipc)
      : passthrough && fits.has(key)
        ? fittedText(bytes, PIECE_BYTES)
        : csvRows(file.path, bytes, columns, { passthrough, columnar: arrow, fitted: () => fits.remember(key), ...(limited ? { rowLimit: left } : {}) });
    try {
      for await (const batch of source) {
        if (Buffer.isBuffer(batch)) yield batch;
        else {
          const rows = batch.length > left ? firstRows(batch, left) : batch;
          left -= rows.length;
          yield rows;
        }
        // A file already in memory parses without waiting on I/O: give other requests their turn per batch.
        await tick();
        if (left <= 0) break;
      }
    } finally {
      bytes?.destroy();
    }
  }
}

/** Passthrough needs the whole table as the schema has it: CSV out, every column in schema order, no row limit. */
export function isPassthrough(format: TableFormat, columns: readonly Column[], schema: DatasetSchema, rowLimit: number | undefined): boolean {
  const whole = schema.fieldSchemaList.length === columns.length && schema.fieldSchemaList.every((f, i) => (f.name ?? `column_${i}`) === columns[i]!.name);
  return format === 'CSV' && rowLimit === undefined && whole;
}

export function tableBytes(
  format: TableFormat,
  files: readonly Pick<FileRecord, 'path' | 'blobId' | 'size'>[],
  blobs: ByteSource,
  columns: readonly Column[],
  schema: DatasetSchema,
  rowLimit?: number,
  fits: FitMemory = knownFits,
): AsyncGenerator<Buffer> {
  const passthrough = isPassthrough(format, columns, schema, rowLimit);
  // An ARROW answer of every row may take a Parquet file's record batches as parquet-wasm wrote them.
  const rows = rowsOf(files, blobs, columns, rowLimit, passthrough, fits, format === 'ARROW' && rowLimit === undefined, format === 'ARROW');
  // Only a CSV read is given the files' own text (passthrough is false for ARROW).
  return format === 'ARROW'
    ? arrowStream(columns, rows as AsyncIterable<Cell[][] | ColumnBatch | IpcBatch>)
    : csvStream(columns, rows as AsyncIterable<Cell[][] | ColumnBatch | Buffer>);
}
