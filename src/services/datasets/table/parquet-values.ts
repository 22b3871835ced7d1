// How one column of a Parquet file's record batch becomes the schema column's values (docs/datasets.md,
// "Parquet"): as it is when the Arrow types agree, timestamps and decimals read exactly from their words, a STRING
// column's text from other scalar types, anything else cast a value at a time through the column's own rule.
import { DataType, TimeUnit, makeData, makeVector, type Data, type Decimal, type Timestamp } from 'apache-arrow';
import type { Cell, Column } from './columns.js';
import type { ColumnBatch } from './arrow-vectors.js';
import { TableReadError } from './table-error.js';
import { bitmapOf, TWO_32, validAt } from './instant-text.js';

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
export function columnOf(path: string, column: Column, data: Data, firstRow: number): ColumnBatch['columns'][number] {
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
