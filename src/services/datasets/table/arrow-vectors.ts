// One column's cells as Arrow data, written straight into typed arrays (docs/datasets.md, "Table reads"): the
// apache-arrow builders cost several times more per value. Types without a fast path here use a builder.
import {
  Bool,
  DateDay,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  TimestampMicrosecond,
  Utf8,
  Data,
  makeBuilder,
  makeData,
  makeVector,
  DataType,
  TimeUnit,
  type Timestamp,
} from 'apache-arrow';
import type { Cell } from './columns.js';
import { microsToMillis, putMicros } from './instant-text.js';

/**
 * Rows as columns: per read column, its cells, a typed array a decoder gave that already is the Arrow type's
 * (no nulls), or Arrow data of the column's own Arrow type (a Parquet column read by parquet-wasm), taken as is.
 */
export interface ColumnBatch {
  length: number;
  columns: Array<ArrayLike<Cell> | Float64Array | BigInt64Array | Data>;
}

/** The first `count` rows of one column of a batch. */
export function firstOf(column: ColumnBatch['columns'][number], count: number): ColumnBatch['columns'][number] {
  if (column instanceof Data) return column.slice(0, count);
  return 'subarray' in column ? column.subarray(0, count) : Array.prototype.slice.call(column, 0, count);
}

/**
 * A column as cells (what CSV text is written from): Arrow data gives its values, nulls as null; microsecond
 * timestamps their whole milliseconds, read exactly (apache-arrow's own would round past 2^53 microseconds).
 */
export function cellsOf(column: ColumnBatch['columns'][number]): ArrayLike<Cell> {
  if (!(column instanceof Data)) return column as ArrayLike<Cell>;
  if (DataType.isTimestamp(column.type) && (column.type as Timestamp).unit === TimeUnit.MICROSECOND) {
    const millis = microsToMillis(column);
    return Array.from({ length: column.length }, (_v, i) => (column.getValid(i) ? millis[i]! : null));
  }
  return Array.from(makeVector(column)) as Cell[];
}

export const isColumnBatch = (batch: unknown): batch is ColumnBatch => typeof batch === 'object' && batch !== null && 'columns' in batch;

const isNull = (cell: unknown) => cell === null || cell === undefined;

function validity(cells: ArrayLike<unknown>, length: number): { nullCount: number; nullBitmap?: Uint8Array } {
  let nullCount = 0;
  for (let i = 0; i < length; i++) if (isNull(cells[i])) nullCount++;
  if (nullCount === 0) return { nullCount };
  const nullBitmap = new Uint8Array((length + 7) >> 3);
  for (let i = 0; i < length; i++) if (!isNull(cells[i])) nullBitmap[i >> 3]! |= 1 << (i & 7);
  return { nullCount, nullBitmap };
}

function numbers<A extends Float64Array | Float32Array | Int32Array | Int16Array | Int8Array>(
  make: new (n: number) => A,
  cells: ArrayLike<unknown>,
  length: number,
): A {
  const out = new make(length);
  for (let i = 0; i < length; i++) {
    const cell = cells[i];
    if (!isNull(cell)) out[i] = cell as number;
  }
  return out;
}

function strings(cells: ArrayLike<unknown>, length: number): { valueOffsets: Int32Array; data: Uint8Array } {
  const texts = new Array<string>(length);
  for (let i = 0; i < length; i++) texts[i] = isNull(cells[i]) ? '' : String(cells[i]);
  const joined = texts.join('');
  const data = Buffer.from(joined, 'utf8');
  const valueOffsets = new Int32Array(length + 1);
  // All ASCII (bytes as many as characters): each string's length is its byte length.
  const ascii = data.length === joined.length;
  let at = 0;
  for (let i = 0; i < length; i++) {
    valueOffsets[i] = at;
    at += ascii ? texts[i]!.length : Buffer.byteLength(texts[i]!);
  }
  valueOffsets[length] = at;
  return { valueOffsets, data };
}

/** Milliseconds as Int64 microseconds, written as two 32-bit words (no BigInt per value). */
function micros(cells: ArrayLike<unknown>, length: number): BigInt64Array {
  const out = new BigInt64Array(length);
  const words = new Uint32Array(out.buffer);
  for (let i = 0; i < length; i++) {
    const cell = cells[i];
    if (!isNull(cell)) putMicros(words, i, cell as number);
  }
  return out;
}

export function columnData(type: DataType, cells: ArrayLike<unknown> | Data, length: number): Data {
  if (cells instanceof Data) return cells;
  const { nullCount, nullBitmap } = validity(cells, length);
  const base = { length, nullCount, ...(nullBitmap ? { nullBitmap } : {}) };
  if (type instanceof Utf8) return makeData({ type, ...base, ...strings(cells, length) });
  if (type instanceof Float64) return makeData({ type, ...base, data: cells instanceof Float64Array ? cells : numbers(Float64Array, cells, length) });
  if (type instanceof Float32) return makeData({ type, ...base, data: numbers(Float32Array, cells, length) });
  if (type instanceof Int32) return makeData({ type, ...base, data: numbers(Int32Array, cells, length) });
  if (type instanceof Int16) return makeData({ type, ...base, data: numbers(Int16Array, cells, length) });
  if (type instanceof Int8) return makeData({ type, ...base, data: numbers(Int8Array, cells, length) });
  if (type instanceof Int64) {
    if (cells instanceof BigInt64Array) return makeData({ type, ...base, data: cells });
    const data = new BigInt64Array(length);
    for (let i = 0; i < length; i++) if (!isNull(cells[i])) data[i] = cells[i] as bigint;
    return makeData({ type, ...base, data });
  }
  if (type instanceof Bool) {
    const data = new Uint8Array((length + 7) >> 3);
    for (let i = 0; i < length; i++) if (cells[i] === true) data[i >> 3]! |= 1 << (i & 7);
    return makeData({ type, ...base, data });
  }
  if (type instanceof DateDay) {
    const data = new Int32Array(length);
    for (let i = 0; i < length; i++) if (!isNull(cells[i])) data[i] = Math.floor((cells[i] as number) / 86_400_000);
    return makeData({ type, ...base, data });
  }
  if (type instanceof TimestampMicrosecond) return makeData({ type, ...base, data: micros(cells, length) });
  const builder = makeBuilder({ type, nullValues: [null, undefined] });
  for (let i = 0; i < length; i++) builder.append(cells[i]);
  return builder.finish().flush();
}
