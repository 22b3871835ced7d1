// Rows of one Parquet file of a view, decoded by parquet-wasm (chosen by bench: docs/datasets.md, "Parquet")
// straight into Arrow record batches, read by apache-arrow and handed on as column batches: no object per row.
// A column whose Arrow type already is the schema column's goes on as it is; others are cast a value at a time.
// The file is read by ranges from the byte store (docs/datasets.md, "The byte store"): parquet-wasm asks for the
// footer, then each row group's column chunks, one row group at a time; nothing holds the whole file.
import {
  DataType,
  RecordBatchReader,
  TimeUnit,
  makeData,
  makeVector,
  type Data,
  type Decimal,
  type RecordBatch,
  type Schema,
  type Timestamp,
} from 'apache-arrow';
import type { Cell, Column } from './columns.js';
import type { ColumnBatch } from './arrow-vectors.js';
import type { ParquetFile, RecordBatch as WasmRecordBatch } from 'parquet-wasm/esm';
import { parquetWasm } from './parquet-wasm.js';
import { passthroughBatch, type IpcBatch } from './arrow-ipc.js';
import { TableReadError } from './table-error.js';
import { bitmapOf, TWO_32, validAt } from './instant-text.js';

/** Rows per batch handed on (an Arrow record batch, a piece of CSV text), and per batch parquet-wasm decodes. */
const OUT_ROWS = 16_384;
/**
 * Rows per batch when the batches may go out as parquet-wasm wrote them (an ARROW read of every row): each batch
 * costs a copy out of WebAssembly memory, a parse of its messages and a message to the main thread, so fewer,
 * larger ones (about 2 MB for the bench's five columns) make the read faster (docs/datasets.md, "Parquet").
 */
const IPC_ROWS = 65_536;

/** What parquet-wasm reads a file through: a Blob's size and slice(from, to).arrayBuffer(), no more. */
interface BlobLike {
  size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** Reads `range` of a stored file whole, into one buffer parquet-wasm copies into its memory. */
export type RangeReader = (start: number, end: number) => Promise<ArrayBuffer>;

/**
 * The file as parquet-wasm sees it: its size, and slices fetched from the byte store when asked (the footer
 * first, then each row group's column chunks), so that no more than the part being decoded is held.
 */
const rangedFile = (size: number, read: RangeReader): BlobLike => ({
  size,
  slice: (start, end = size) => ({ arrayBuffer: () => read(Math.max(0, start), Math.min(size, end)) }),
});

/** Plain, unnested types whose Arrow data is the same whatever wrote it (a timestamp's zone is in its type name). */
const sameType = (from: DataType, to: DataType) => !to.children?.length && !from.children?.length && String(from) === String(to);
const isTime = (type: DataType) => DataType.isTimestamp(type) || DataType.isDate(type);

/**
 * How a value of an Arrow type becomes what columns.ts takes from a decoder: lists as arrays (nested ones too),
 * a date or timestamp list item as a Date (apache-arrow hands its milliseconds, which a DATE would take for
 * days; a top-level one is handled by columnOf), a decimal as its text.
 */
function plainOf(type: DataType, item = false): (value: unknown) => unknown {
  // pyarrow's large_list and polars' lists are LargeList: 64-bit offsets, the same items.
  if (DataType.isList(type) || DataType.isLargeList(type) || DataType.isFixedSizeList(type)) {
    const each = plainOf(type.children[0]!.type as DataType, true);
    return (value) =>
      value !== null && typeof value === 'object' && typeof (value as { toArray?: unknown }).toArray === 'function'
        ? Array.from(value as Iterable<unknown>, each)
        : value;
  }
  if (isTime(type) && item) return (value) => (typeof value === 'number' ? new Date(value) : value);
  if (DataType.isDecimal(type)) {
    const scale = (type as Decimal).scale;
    return (value) => (value === null || value === undefined ? value : decimalText(String(value), scale));
  }
  return (value) => value;
}

/**
 * A timestamp column of any unit as Arrow's microseconds (what a TIMESTAMP column is), exactly: each 64-bit value
 * is read and written as two 32-bit words, and scaled by integer steps (a double of nanoseconds loses
 * microseconds after the year 2248). Nanoseconds are cut toward the past, as a CSV read cuts to milliseconds.
 * `tooLarge(row)` names a value past the range of 64-bit microseconds (seconds or milliseconds near 2^63).
 */
function timestampMicros(data: Data, target: DataType, tooLarge: (row: number) => never): Data {
  const values = data.values as BigInt64Array;
  // apache-arrow slices a value buffer with its data (the offset is left for the validity bitmap).
  const words = new Int32Array(values.buffer, values.byteOffset, data.length * 2);
  const out = new Int32Array(data.length * 2);
  const bitmap = data.offset === 0 ? bitmapOf(data) : undefined;
  const unit = (data.type as DataType as Timestamp).unit;
  const scale = unit === TimeUnit.SECOND ? 1_000_000 : 1000;
  for (let i = 0, w = 0; i < data.length; i++, w += 2) {
    if (!(bitmap ? validAt(bitmap, i) : data.getValid(i))) continue;
    const high = words[w + 1]!;
    const low = words[w]! >>> 0;
    if (unit === TimeUnit.MICROSECOND) {
      out[w] = low;
      out[w + 1] = high;
    } else if (unit === TimeUnit.NANOSECOND) {
      // (high * 2^32 + low) / 1000 with high = 1000q + r: q is the high word, the rest fits the low one.
      const q = Math.floor(high / 1000);
      out[w] = Math.floor(((high - q * 1000) * TWO_32 + low) / 1000);
      out[w + 1] = q;
    } else {
      const scaled = low * scale;
      const carry = Math.floor(scaled / TWO_32);
      const outHigh = high * scale + carry;
      if (outHigh >= 2 ** 31 || outHigh < -(2 ** 31)) tooLarge(i);
      out[w] = scaled - carry * TWO_32;
      out[w + 1] = outHigh;
    }
  }
  const nullBitmap = data.nullCount > 0 ? Uint8Array.from({ length: (data.length + 7) >> 3 }, (_v, byte) => validityByte(data, bitmap, byte)) : undefined;
  return makeData({
    type: target as Timestamp,
    length: data.length,
    nullCount: data.nullCount,
    ...(nullBitmap ? { nullBitmap } : {}),
    data: new BigInt64Array(out.buffer),
  });
}

/** Eight rows' validity bits, from the bitmap of an unsliced batch, or row by row. */
function validityByte(data: Data, bitmap: Uint8Array | undefined, byte: number): number {
  if (bitmap && data.offset === 0) return bitmap[byte]!;
  let bits = 0;
  for (let k = 0; k < 8 && byte * 8 + k < data.length; k++) if (data.getValid(byte * 8 + k)) bits |= 1 << k;
  return bits;
}

/**
 * A decimal column's values as exact text, read from the value buffer's 32-bit words (little-endian two's
 * complement, 128 or 256 bits each): apache-arrow's own values are wrong for a 256-bit decimal.
 */
function decimalTexts(data: Data): Array<string | null> {
  const type = data.type as DataType as Decimal;
  const stride = type.bitWidth / 32;
  const values = data.values as Uint32Array;
  const words = new Uint32Array(values.buffer, values.byteOffset, data.length * stride);
  const sign = 1n << BigInt(type.bitWidth - 1);
  const out = new Array<string | null>(data.length);
  for (let i = 0; i < data.length; i++) {
    if (!data.getValid(i)) {
      out[i] = null;
      continue;
    }
    let n = 0n;
    for (let k = stride - 1; k >= 0; k--) n = (n << 32n) | BigInt(words[i * stride + k]!);
    if (n >= sign) n -= sign << 1n;
    out[i] = decimalText(n.toString(), type.scale);
  }
  return out;
}

/**
 * How a file column of another type becomes a STRING column's text, or undefined when it cannot (times of
 * day, lists, structs, maps, intervals: refused by name rather than written as apache-arrow's internals).
 * Dates and timestamps are written as a DATE or TIMESTAMP column writes them; bytes are read as UTF-8, as
 * writers that store text without its annotation mean them.
 */
function textOf(type: DataType): ((value: unknown) => string) | undefined {
  if (DataType.isDictionary(type)) return textOf(type.dictionary);
  if (DataType.isDate(type)) return (v) => new Date(v as number).toISOString().slice(0, 10);
  if (DataType.isTimestamp(type)) return (v) => new Date(Math.floor(v as number)).toISOString();
  if (DataType.isBinary(type) || DataType.isLargeBinary(type) || DataType.isFixedSizeBinary(type)) return (v) => Buffer.from(v as Uint8Array).toString('utf8');
  const notText = [
    DataType.isTime,
    DataType.isList,
    DataType.isLargeList,
    DataType.isFixedSizeList,
    DataType.isStruct,
    DataType.isMap,
    DataType.isInterval,
    DataType.isDuration,
    DataType.isUnion,
  ];
  return notText.some((is) => is(type)) ? undefined : (v) => String(v);
}

/**
 * A Parquet decimal's text: apache-arrow gives its unscaled integer ("-700"); the scale puts the point back
 * ("-7.00" at scale 2), as the file's writer meant it.
 */
function decimalText(unscaled: string, scale: number): string {
  if (scale <= 0) return unscaled === '0' || unscaled === '-0' ? '0' : unscaled + '0'.repeat(-scale);
  const negative = unscaled.startsWith('-');
  const digits = (negative ? unscaled.slice(1) : unscaled).padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** One file column's Arrow data as the schema column's: as it is when the types agree, else cast per value. */
function columnOf(path: string, column: Column, data: Data, firstRow: number): ColumnBatch['columns'][number] {
  const target = column.type;
  const at = (row: number, message: string) => new TableReadError(`${path} row ${firstRow + row + 1}, column "${column.name}": ${message}`);
  if (sameType(data.type, target)) return data;
  if (DataType.isTimestamp(data.type) && DataType.isTimestamp(target))
    return timestampMicros(data, target, (row) => {
      throw at(row, 'the timestamp is past the range of 64-bit microseconds');
    });
  const asText = column.schemaType === 'STRING' && !DataType.isDecimal(data.type);
  const text = asText ? textOf(data.type) : undefined;
  if (asText && !text) throw new TableReadError(`${path}: column "${column.name}" is ${String(data.type)} in the file, which a STRING column cannot read`);
  const decimals = DataType.isDecimal(data.type) ? decimalTexts(data) : undefined;
  const vector = decimals ? undefined : makeVector(data);
  const out = new Array<Cell>(data.length);
  // Dates and timestamps arrive from apache-arrow as milliseconds, what columns.ts keeps for DATE and TIMESTAMP;
  // for another type a date is its days (as a Parquet DATE is stored).
  const toTime = isTime(data.type) && (DataType.isTimestamp(target) || DataType.isDate(target));
  const days = DataType.isDate(data.type) && !toTime;
  const plain = plainOf(data.type);
  for (let i = 0; i < out.length; i++) {
    const value = decimals ? decimals[i] : (vector!.get(i) as unknown);
    try {
      out[i] =
        value === null || value === undefined
          ? null
          : text
            ? text(value)
            : toTime
              ? (value as number)
              : column.fromValue(decimals ? value : days ? (value as number) / 86_400_000 : plain(value));
    } catch (err) {
      throw at(i, (err as Error).message);
    }
  }
  return out;
}

/** The file's Arrow schema, as parquet-wasm reads it from the footer (with the embedded Arrow schema if any). */
function arrowSchema(parquet: ParquetFile): Schema {
  const reader = RecordBatchReader.from(parquet.schema().intoIPCStream());
  reader.open();
  return reader.schema;
}

/**
 * The file's rows as column batches; with `ipc` (an ARROW answer taking every row), a batch whose columns already
 * have the answer's layout comes as parquet-wasm's own record batch bytes instead (arrow-ipc.ts).
 */
export async function* parquetColumns(
  path: string,
  size: number,
  read: RangeReader,
  columns: readonly Column[],
  ipc = false,
): AsyncGenerator<ColumnBatch | IpcBatch> {
  for await (const { batch, seen } of wasmBatches(path, size, read, columns, ipc ? IPC_ROWS : OUT_ROWS)) {
    const stream = batch.intoIPCStream();
    const passed = ipc ? passthroughBatch(stream, columns) : undefined;
    if (passed) yield passed;
    else yield* ipcColumns(path, stream, columns, seen);
  }
}

/** A record batch as parquet-wasm wrote it (an Arrow IPC stream in a buffer of its own), for ipcColumns later. */
export interface RawBatch {
  ipc: Uint8Array;
  /** The file's rows before this batch's (error messages count rows from the file's start). */
  seen: number;
}

/** The file's rows as parquet-wasm's record batches, not yet read (a CSV read hands some to another worker). */
export async function* parquetRawBatches(path: string, size: number, read: RangeReader, columns: readonly Column[]): AsyncGenerator<RawBatch> {
  for await (const { batch, seen } of wasmBatches(path, size, read, columns, OUT_ROWS)) yield { ipc: batch.intoIPCStream(), seen };
}

/** One record batch's IPC stream (parquet-wasm's) as column batches of the schema's columns. */
export function ipcColumns(path: string, stream: Uint8Array, columns: readonly Column[], seen: number): ColumnBatch[] {
  const out: ColumnBatch[] = [];
  for (const batch of RecordBatchReader.from(stream) as Iterable<RecordBatch>) {
    const children = new Map(batch.schema.fields.map((f, i) => [f.name, batch.data.children[i]!]));
    out.push({ length: batch.numRows, columns: columns.map((c) => columnOf(path, c, children.get(c.name)!, seen)) });
    seen += batch.numRows;
  }
  return out;
}

/** The file's record batches of `batchSize` rows, as parquet-wasm decodes them, each with the rows before it. */
async function* wasmBatches(
  path: string,
  size: number,
  read: RangeReader,
  columns: readonly Column[],
  batchSize: number,
): AsyncGenerator<{ batch: WasmRecordBatch; seen: number }> {
  const file = rangedFile(size, read);
  const wasm = await parquetWasm();
  let parquet;
  try {
    parquet = await wasm.ParquetFile.fromFile(file as unknown as Blob);
  } catch (err) {
    throw new TableReadError(`${path}: not a readable Parquet file (${messageOf(err)})`);
  }
  let reader: ReadableStreamDefaultReader<WasmRecordBatch> | undefined;
  try {
    const names = new Set(arrowSchema(parquet).fields.map((f) => f.name));
    for (const c of columns) if (!names.has(c.name)) throw new TableReadError(`${path}: the schema's column "${c.name}" is not in the Parquet file`);
    const wanted = [...new Set(columns.map((c) => c.name))];
    // One request at a time: a row group's column chunks are fetched (copied into WebAssembly memory) as it is read.
    const batches = (await parquet.stream({ columns: wanted, batchSize, concurrency: 1 })) as ReadableStream<WasmRecordBatch>;
    reader = batches.getReader();
    let seen = 0;
    for (;;) {
      let next;
      try {
        next = await reader.read();
      } catch (err) {
        throw new TableReadError(`${path} after row ${seen}: not a readable Parquet file (${messageOf(err)})`);
      }
      if (next.done) break;
      const rows = next.value.numRows;
      yield { batch: next.value, seen };
      seen += rows;
    }
  } catch (err) {
    if (err instanceof TableReadError) throw err;
    throw new TableReadError(`${path}: not a readable Parquet file (${messageOf(err)})`);
  } finally {
    // A read ended early (a row limit, a client gone) stops the stream before the file's memory is freed.
    await reader?.cancel().catch(() => undefined);
    parquet.free();
  }
}

/** parquet-wasm rejects with strings as well as Errors. */
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
