// A batch's rows as CSV bytes written a column at a time (docs/datasets.md, "Parquet to CSV"): ASCII strings
// copied from the column's one UTF-8 buffer, numbers from its typed array, timestamps and dates from integer
// arithmetic (no Date per value), quotes only where the column's bytes hold a quote, comma or line break; all
// into one buffer per batch. The bytes are those of each cell's `Column.toText` then csvField (a test compares
// them); a column with no fast way here (a list, a sliced batch, a value out of Date's four-digit years) is
// written a value at a time as before, errors included.
import { isAscii } from 'node:buffer';
import { Data, DataType, DateUnit, Precision, TimeUnit, type DateDay, type Float, type Int, type Timestamp } from 'apache-arrow';
import type { Cell, Column } from './columns.js';
import { cellsOf, type ColumnBatch } from './arrow-vectors.js';
import { bitmapOf, dayWriter, instantWriter, microsToMillis, SAFE_HIGH, TWO_32, validAt, wholeMillis, type ColumnWriter } from './instant-text.js';

/** A CSV field as csv-stringify writes it: quoted (quotes doubled) only when it holds a comma, quote or line break. */
const NEEDS_QUOTES = /[",\r\n]/;
export const csvField = (text: string) => (NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** Fields as strings: ASCII ones written a byte per character, others as UTF-8. */
function stringWriter(fields: string[], ascii: boolean): ColumnWriter {
  let size = 0;
  for (const field of fields) size += ascii ? field.length : Buffer.byteLength(field);
  return {
    size,
    write(out, at, row) {
      const field = fields[row]!;
      if (!ascii) return at + out.write(field, at, 'utf8');
      for (let k = 0; k < field.length; k++) out[at++] = field.charCodeAt(k);
      return at;
    },
  };
}

/** Each valid value's text (`text(i)`), nulls as empty fields: ASCII. */
function eachValue(data: Data, text: (i: number) => string | undefined): ColumnWriter | undefined {
  const bitmap = bitmapOf(data);
  const out = new Array<string>(data.length);
  for (let i = 0; i < data.length; i++) {
    if (!validAt(bitmap, i)) out[i] = '';
    else {
      const field = text(i);
      if (field === undefined) return undefined;
      out[i] = field;
    }
  }
  return stringWriter(out, true);
}

const decoder = new TextDecoder();

/**
 * A Utf8 column: ASCII bytes with no quote, comma or line break are copied as they are; otherwise each value is
 * decoded as apache-arrow decodes it and quoted where needed.
 */
function utf8Writer(data: Data): ColumnWriter {
  const offsets = data.valueOffsets as Int32Array;
  const values = data.values as Uint8Array;
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const used = bytes.subarray(offsets[0]!, offsets[data.length]!);
  const quoting = used.includes(0x22) || used.includes(0x2c) || used.includes(0x0a) || used.includes(0x0d);
  const bitmap = bitmapOf(data);
  if (!quoting && isAscii(used)) {
    let size = 0;
    for (let i = 0; i < data.length; i++) if (validAt(bitmap, i)) size += offsets[i + 1]! - offsets[i]!;
    return {
      size,
      write(out, at, row) {
        if (!validAt(bitmap, row)) return at;
        const end = offsets[row + 1]!;
        for (let k = offsets[row]!; k < end; k++) out[at++] = values[k]!;
        return at;
      },
    };
  }
  const fields = new Array<string>(data.length);
  for (let i = 0; i < data.length; i++) fields[i] = validAt(bitmap, i) ? csvField(decoder.decode(values.subarray(offsets[i]!, offsets[i + 1]!))) : '';
  return stringWriter(fields, false);
}

/** Booleans as `true` and `false`, from their bits. */
function boolWriter(data: Data): ColumnWriter {
  const bits = data.values as Uint8Array;
  const bitmap = bitmapOf(data);
  let size = 0;
  for (let i = 0; i < data.length; i++) if (validAt(bitmap, i)) size += (bits[i >> 3]! & (1 << (i & 7))) !== 0 ? 4 : 5;
  return {
    size,
    write(out, at, row) {
      if (!validAt(bitmap, row)) return at;
      if ((bits[row >> 3]! & (1 << (row & 7))) !== 0) {
        out[at] = 0x74; // true
        out[at + 1] = 0x72;
        out[at + 2] = 0x75;
        out[at + 3] = 0x65;
        return at + 4;
      }
      out[at] = 0x66; // false
      out[at + 1] = 0x61;
      out[at + 2] = 0x6c;
      out[at + 3] = 0x73;
      out[at + 4] = 0x65;
      return at + 5;
    },
  };
}

/** Decimal digits of a safe integer's magnitude (at most 16). */
function digitCount(value: number): number {
  let digits = 1;
  for (let bound = 10; digits < 16 && value >= bound; bound *= 10) digits++;
  return digits;
}

/**
 * 64-bit integers written as their decimal digits, read as two 32-bit words each (no BigInt per value); a column
 * with a value past 2^53 is written from its bigints' own text.
 */
function longWriter(data: Data): ColumnWriter {
  const values = data.values as BigInt64Array;
  const words = new Int32Array(values.buffer, values.byteOffset, data.length * 2);
  const bitmap = bitmapOf(data);
  const numbers = new Float64Array(data.length);
  let size = 0;
  for (let i = 0; i < data.length; i++) {
    if (!validAt(bitmap, i)) continue;
    const high = words[2 * i + 1]!;
    if (high >= SAFE_HIGH || high < -SAFE_HIGH)
      return stringWriter(
        Array.from({ length: data.length }, (_v, r) => (validAt(bitmap, r) ? String(values[r]) : '')),
        true,
      );
    const value = high * TWO_32 + (words[2 * i]! >>> 0);
    numbers[i] = value;
    size += digitCount(Math.abs(value)) + (value < 0 ? 1 : 0);
  }
  return {
    size,
    write(out, at, row) {
      if (!validAt(bitmap, row)) return at;
      let value = numbers[row]!;
      if (value < 0) {
        out[at++] = 0x2d;
        value = -value;
      }
      const end = at + digitCount(value);
      for (let k = end - 1; k >= at; k--) {
        const next = Math.floor(value / 10);
        out[k] = 0x30 + (value - next * 10);
        value = next;
      }
      return end;
    },
  };
}

/** Arrow data of the column's own type (a Parquet column taken as it is), or undefined for the slow way. */
function dataWriter(type: DataType, data: Data): ColumnWriter | undefined {
  // A sliced batch (a row limit) keeps a bitmap offset and buffers cut differently per type: the slow way.
  if (data.offset !== 0 || data.children?.length) return undefined;
  if (DataType.isUtf8(type)) return utf8Writer(data);
  if (DataType.isBool(type)) return boolWriter(data);
  const numeric = (DataType.isFloat(type) && (type as Float).precision !== Precision.HALF) || (DataType.isInt(type) && (type as Int).bitWidth <= 32);
  if (numeric && data.stride === 1) {
    const values = data.values as Float64Array;
    return eachValue(data, (i) => String(values[i]));
  }
  if (DataType.isInt(type) && (type as Int).bitWidth === 64 && (type as Int).isSigned) {
    return longWriter(data);
  }
  if (DataType.isDate(type) && (type as DateDay).unit === DateUnit.DAY) return dayWriter(data.values as Int32Array, bitmapOf(data), data.length);
  if (DataType.isTimestamp(type) && (type as Timestamp).unit === TimeUnit.MICROSECOND) {
    const millis = microsToMillis(data);
    return millis && instantWriter(millis, bitmapOf(data));
  }
  return undefined;
}

/** The per-value way: each cell as its column writes it (`toText`), then quoted where needed. */
export function cellFields(column: Column, cells: ColumnBatch['columns'][number], length: number): string[] {
  const values = cellsOf(cells);
  const out = new Array<string>(length);
  for (let r = 0; r < length; r++) out[r] = csvField(column.toText((values[r] ?? null) as Cell));
  return out;
}

/** One column of a batch written a column at a time, or undefined where only the per-value way is known. */
function columnWriter(column: Column, cells: ColumnBatch['columns'][number], length: number): ColumnWriter | undefined {
  const type = column.type;
  if (cells instanceof Data) return cells.length === length && String(cells.type) === String(type) ? dataWriter(type, cells) : undefined;
  // Milliseconds a timestamp column was read into (parquet-source.ts), or a DOUBLE column's own values.
  if (cells instanceof Float64Array && cells.length >= length) {
    if (DataType.isTimestamp(type)) return instantWriter(wholeMillis(cells, length), undefined);
    if (DataType.isFloat(type) && (type as Float).precision === Precision.DOUBLE) return stringWriter(Array.from(cells.subarray(0, length), String), true);
  }
  return undefined;
}

/**
 * A batch's rows as CSV bytes, one line each ending in a line break, in one buffer of its exact size (which a
 * worker hands over without a copy). Byte for byte what each cell's `toText`, quoted where needed, gives.
 */
export function csvBatch(columns: readonly Column[], cells: ColumnBatch['columns'], length: number): Buffer {
  const writers = columns.map((c, i) => columnWriter(c, cells[i]!, length) ?? stringWriter(cellFields(c, cells[i]!, length), false));
  let size = length * columns.length;
  for (const writer of writers) size += writer.size;
  const out = Buffer.allocUnsafeSlow(size);
  const last = writers.length - 1;
  let at = 0;
  for (let r = 0; r < length; r++) {
    for (let i = 0; i < last; i++) {
      at = writers[i]!.write(out, at, r);
      out[at++] = 0x2c;
    }
    at = writers[last]!.write(out, at, r);
    out[at++] = 0x0a;
  }
  // The sizes were counted before writing; a difference would send bytes never written.
  if (at !== size) throw new Error(`CSV batch of ${size} bytes written as ${at}`);
  return out;
}
