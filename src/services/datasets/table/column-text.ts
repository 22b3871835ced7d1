// A batch's rows as CSV bytes written a column at a time (docs/datasets.md, "Parquet to CSV"): ASCII strings
// copied from the column's one UTF-8 buffer, numbers from its typed array, timestamps and dates from integer
// arithmetic (no Date per value), quotes only where the column's bytes hold a quote, comma or line break; all
// into one buffer per batch. The bytes are those of each cell's `Column.toText` then csvField (a test compares
// them); a column with no fast way here (a list, a sliced batch, a value out of Date's four-digit years) is
// written a value at a time as before, errors included.
import { isAscii } from 'node:buffer';
import { Data, DataType, DateUnit, Precision, TimeUnit, type DateDay, type Float, type Int, type Timestamp } from 'apache-arrow';
import type { Cell, Column } from './columns.js';
import { float32Text } from './cell-rules.js';
import { cellsOf, type ColumnBatch } from './arrow-vectors.js';
import { bitmapOf, dayWriter, instantWriter, microsToMillis, SAFE_HIGH, TWO_32, validAt, wholeMillis, type ColumnWriter } from './instant-text.js';
import { decompose, digitCount, parts, partsLength, writeParts, writeSafeInteger } from './number-text.js';

/** A CSV field as csv-stringify writes it: quoted (quotes doubled) only when it holds a comma, quote or line break. */
const NEEDS_QUOTES = /[",\r\n]/;
export const csvField = (text: string) => (NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** Fields as strings: ASCII ones written a byte per character, others as UTF-8. */
function stringWriter(fields: string[], ascii: boolean): ColumnWriter {
  return {
    measure(lengths) {
      for (let r = 0; r < fields.length; r++) lengths[r]! += ascii ? fields[r]!.length : Buffer.byteLength(fields[r]!);
    },
    write(out, at) {
      const bytes = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
      for (let r = 0; r < fields.length; r++) {
        const field = fields[r]!;
        let to = at[r]!;
        if (!ascii) to += bytes.write(field, to, 'utf8');
        else for (let k = 0; k < field.length; k++) out[to++] = field.charCodeAt(k);
        at[r] = to;
      }
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
  const length = data.length;
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const used = bytes.subarray(offsets[0]!, offsets[length]!);
  const quoting = used.includes(0x22) || used.includes(0x2c) || used.includes(0x0a) || used.includes(0x0d);
  const bitmap = bitmapOf(data);
  if (!quoting && isAscii(used)) {
    return {
      measure(lengths) {
        for (let i = 0; i < length; i++) if (validAt(bitmap, i)) lengths[i]! += offsets[i + 1]! - offsets[i]!;
      },
      write(out, at) {
        for (let row = 0; row < length; row++) {
          if (!validAt(bitmap, row)) continue;
          let to = at[row]!;
          const end = offsets[row + 1]!;
          for (let k = offsets[row]!; k < end; k++) out[to++] = values[k]!;
          at[row] = to;
        }
      },
    };
  }
  const fields = new Array<string>(length);
  for (let i = 0; i < length; i++) fields[i] = validAt(bitmap, i) ? csvField(decoder.decode(values.subarray(offsets[i]!, offsets[i + 1]!))) : '';
  return stringWriter(fields, false);
}

/** Booleans as `true` and `false`, from their bits. */
function boolWriter(data: Data): ColumnWriter {
  const bits = data.values as Uint8Array;
  const bitmap = bitmapOf(data);
  const length = data.length;
  return {
    measure(lengths) {
      for (let i = 0; i < length; i++) if (validAt(bitmap, i)) lengths[i]! += (bits[i >> 3]! & (1 << (i & 7))) !== 0 ? 4 : 5;
    },
    write(out, at) {
      for (let row = 0; row < length; row++) {
        if (!validAt(bitmap, row)) continue;
        const to = at[row]!;
        if ((bits[row >> 3]! & (1 << (row & 7))) !== 0) {
          out[to] = 0x74; // true
          out[to + 1] = 0x72;
          out[to + 2] = 0x75;
          out[to + 3] = 0x65;
          at[row] = to + 4;
        } else {
          out[to] = 0x66; // false
          out[to + 1] = 0x61;
          out[to + 2] = 0x6c;
          out[to + 3] = 0x73;
          out[to + 4] = 0x65;
          at[row] = to + 5;
        }
      }
    },
  };
}

/**
 * 64-bit integers written as their decimal digits, read as two 32-bit words each (no BigInt per value); a column
 * with a value past 2^53 is written from its bigints' own text.
 */
function longWriter(data: Data): ColumnWriter {
  const values = data.values as BigInt64Array;
  const length = data.length;
  const words = new Int32Array(values.buffer, values.byteOffset, length * 2);
  const bitmap = bitmapOf(data);
  const numbers = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    if (!validAt(bitmap, i)) continue;
    const high = words[2 * i + 1]!;
    if (high >= SAFE_HIGH || high < -SAFE_HIGH)
      return stringWriter(
        Array.from({ length }, (_v, r) => (validAt(bitmap, r) ? String(values[r]) : '')),
        true,
      );
    numbers[i] = high * TWO_32 + (words[2 * i]! >>> 0);
  }
  return {
    measure(lengths) {
      for (let i = 0; i < length; i++) if (validAt(bitmap, i)) lengths[i]! += numbers[i]! < 0 ? 1 + digitCount(-numbers[i]!) : digitCount(numbers[i]!);
    },
    write(out, at) {
      for (let row = 0; row < length; row++) if (validAt(bitmap, row)) at[row] = writeSafeInteger(out, at[row]!, numbers[row]!);
    },
  };
}

/**
 * Doubles as String writes them: the digits proven by decompose, else String's own text (number-text.ts). Each
 * value's digits are found once while measuring, kept as numbers, and written into place.
 */
function doubleWriter(values: Float64Array, bitmap: Uint8Array | undefined, length: number): ColumnWriter {
  const high = new Int32Array(length);
  const low = new Int32Array(length);
  // Per row: the digits' count (0: a null; -1: String's text, in `texts`), the point's place, the sign.
  const counts = new Int8Array(length);
  const points = new Int8Array(length);
  const negative = new Uint8Array(length);
  let texts: Map<number, string> | undefined;
  return {
    measure(lengths) {
      for (let i = 0; i < length; i++) {
        if (!validAt(bitmap, i)) continue;
        const value = values[i]!;
        if (decompose(value)) {
          high[i] = parts.high;
          low[i] = parts.low;
          counts[i] = parts.count;
          points[i] = parts.point;
          negative[i] = parts.negative ? 1 : 0;
          lengths[i]! += partsLength(parts.count, parts.point, parts.negative);
        } else {
          const text = String(value);
          (texts ??= new Map()).set(i, text);
          counts[i] = -1;
          lengths[i]! += text.length;
        }
      }
    },
    write(out, at) {
      for (let row = 0; row < length; row++) {
        const count = counts[row]!;
        if (count > 0) at[row] = writeParts(out, at[row]!, high[row]!, low[row]!, count, points[row]!, negative[row] === 1);
        else if (count < 0) at[row] = writeAscii(out, at[row]!, texts!.get(row)!);
      }
    },
  };
}

/** An ASCII string's characters at `at` (a double's text from String); answers where it ends. */
function writeAscii(out: Uint8Array, at: number, text: string): number {
  for (let k = 0; k < text.length; k++) out[at++] = text.charCodeAt(k);
  return at;
}

/** Arrow data of the column's own type (a Parquet column taken as it is), or undefined for the slow way. */
function dataWriter(type: DataType, data: Data): ColumnWriter | undefined {
  // A sliced batch (a row limit) keeps a bitmap offset and buffers cut differently per type: the slow way.
  if (data.offset !== 0 || data.children?.length) return undefined;
  if (DataType.isUtf8(type)) return utf8Writer(data);
  if (DataType.isBool(type)) return boolWriter(data);
  if (DataType.isFloat(type) && (type as Float).precision === Precision.DOUBLE && data.stride === 1) {
    return doubleWriter(data.values as Float64Array, bitmapOf(data), data.length);
  }
  if (DataType.isFloat(type) && (type as Float).precision === Precision.SINGLE && data.stride === 1) {
    const values = data.values as Float32Array;
    return eachValue(data, (i) => float32Text(values[i]!));
  }
  if (DataType.isInt(type) && (type as Int).bitWidth <= 32 && data.stride === 1) {
    const values = data.values as Int32Array;
    return eachValue(data, (i) => String(values[i]));
  }
  if (DataType.isInt(type) && (type as Int).bitWidth === 64 && (type as Int).isSigned) {
    return longWriter(data);
  }
  if (DataType.isDate(type) && (type as DateDay).unit === DateUnit.DAY) return dayWriter(data.values as Int32Array, bitmapOf(data), data.length);
  if (DataType.isTimestamp(type) && (type as Timestamp).unit === TimeUnit.MICROSECOND) {
    return instantWriter(microsToMillis(data), bitmapOf(data));
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
    if (DataType.isFloat(type) && (type as Float).precision === Precision.DOUBLE) return doubleWriter(cells, undefined, length);
  }
  return undefined;
}

/**
 * A batch's rows as CSV bytes, one line each ending in a line break, in one buffer of its exact size (which a
 * worker hands over without a copy). Byte for byte what each cell's `toText`, quoted where needed, gives. Each
 * column is measured and then written in a loop of its own, rows placed by their starts, counted first.
 */
export function csvBatch(columns: readonly Column[], cells: ColumnBatch['columns'], length: number): Buffer {
  const writers = columns.map((c, i) => columnWriter(c, cells[i]!, length) ?? stringWriter(cellFields(c, cells[i]!, length), false));
  // Each row's length (a comma or line break after each field), then where it starts.
  const at = new Int32Array(length).fill(columns.length);
  for (const writer of writers) writer.measure(at);
  let size = 0;
  for (let r = 0; r < length; r++) {
    const row = at[r]!;
    at[r] = size;
    size += row;
  }
  const out = Buffer.allocUnsafeSlow(size);
  const starts = at.slice();
  const last = writers.length - 1;
  for (let i = 0; i <= last; i++) {
    writers[i]!.write(out, at);
    const separator = i === last ? 0x0a : 0x2c;
    for (let r = 0; r < length; r++) out[at[r]!++] = separator;
  }
  // The lengths were counted before writing; a difference would send bytes never written, or overwritten.
  for (let r = 0; r < length; r++) {
    const end = r + 1 < length ? starts[r + 1]! : size;
    if (at[r] !== end) throw new Error(`CSV batch row ${r} of ${end - starts[r]!} bytes written as ${at[r]! - starts[r]!}`);
  }
  return out;
}
