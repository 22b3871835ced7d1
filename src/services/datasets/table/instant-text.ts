// Instants and days as CSV bytes, as `toISOString` writes them (docs/datasets.md, "Parquet to CSV"), from integer
// arithmetic: no Date per value. The writers column-text.ts puts a batch's rows together with; only four-digit
// years (0000-9999) are written here, a column with a value beyond is left to the per-value way.
import type { Data } from 'apache-arrow';

/** Writes one column's field of a row into a batch's bytes; answers where the field ends. */
export interface ColumnWriter {
  /** The bytes all of the column's fields take. */
  size: number;
  write(out: Buffer, at: number, row: number): number;
}

/** Whether row `i` is valid (the bitmap of a batch not sliced: its offset is 0). */
export const validAt = (bitmap: Uint8Array | undefined, i: number) => !bitmap || (bitmap[i >> 3]! & (1 << (i & 7))) !== 0;
export const bitmapOf = (data: Data) => (data.nullCount > 0 ? data.nullBitmap : undefined);

const DAY_MS = 86_400_000;
export const TWO_32 = 4294967296;
/** High words of the 64-bit integers a double holds exactly (|v| < 2^53). */
export const SAFE_HIGH = 2 ** 21;

/** Instants Date formats with a four-digit year (0000-01-01 to 9999-12-31): the fast way's range. */
const FIRST_MS = -62_167_219_200_000;
const LAST_MS = 253_402_300_799_999;

/** `YYYY-MM-DD` of a day counted from 1970-01-01 (a year from 0 to 9999), as bytes into `out` at `at`. */
function writeCivilDate(day: number, out: Uint8Array, at: number): void {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const dayOfMonth = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  out[at] = 0x30 + Math.floor(year / 1000);
  out[at + 1] = 0x30 + (Math.floor(year / 100) % 10);
  out[at + 2] = 0x30 + (Math.floor(year / 10) % 10);
  out[at + 3] = 0x30 + (year % 10);
  out[at + 4] = 0x2d;
  writeTwoDigits(out, at + 5, month);
  out[at + 7] = 0x2d;
  writeTwoDigits(out, at + 8, dayOfMonth);
}

/** 0-99 as two ASCII digits at `at`. */
function writeTwoDigits(out: Uint8Array, at: number, value: number): void {
  out[at] = 0x30 + Math.floor(value / 10);
  out[at + 1] = 0x30 + (value % 10);
}

/**
 * Instants as toISOString writes them (`YYYY-MM-DDTHH:MM:SS.mmmZ`, 24 bytes), from whole milliseconds; the
 * date's bytes kept from the row before when the day is the same. Undefined when one is out of the fast range.
 */
export function instantWriter(millis: Float64Array, bitmap: Uint8Array | undefined): ColumnWriter | undefined {
  let size = 0;
  for (let i = 0; i < millis.length; i++) {
    if (!validAt(bitmap, i)) continue;
    if (!(millis[i]! >= FIRST_MS && millis[i]! <= LAST_MS)) return undefined;
    size += 24;
  }
  const date = new Uint8Array(10);
  let lastDay = NaN;
  return {
    size,
    write(out, at, row) {
      if (!validAt(bitmap, row)) return at;
      const ms = millis[row]!;
      let day = Math.floor(ms / DAY_MS);
      let time = ms - day * DAY_MS;
      // A quotient rounded up at a day's last millisecond.
      if (time < 0) {
        day -= 1;
        time += DAY_MS;
      }
      if (day !== lastDay) writeCivilDate((lastDay = day), date, 0);
      for (let k = 0; k < 10; k++) out[at + k] = date[k]!;
      const hours = Math.floor(time / 3_600_000);
      const minutes = Math.floor(time / 60_000) % 60;
      const seconds = Math.floor(time / 1000) % 60;
      const milli = time % 1000;
      out[at + 10] = 0x54; // T
      writeTwoDigits(out, at + 11, hours);
      out[at + 13] = 0x3a;
      writeTwoDigits(out, at + 14, minutes);
      out[at + 16] = 0x3a;
      writeTwoDigits(out, at + 17, seconds);
      out[at + 19] = 0x2e;
      out[at + 20] = 0x30 + Math.floor(milli / 100);
      out[at + 21] = 0x30 + (Math.floor(milli / 10) % 10);
      out[at + 22] = 0x30 + (milli % 10);
      out[at + 23] = 0x5a; // Z
      return at + 24;
    },
  };
}

/** Days as `new Date(days * 86400000).toISOString().slice(0, 10)` writes them; undefined out of the fast range. */
export function dayWriter(days: Int32Array, bitmap: Uint8Array | undefined, length: number): ColumnWriter | undefined {
  let size = 0;
  for (let i = 0; i < length; i++) {
    if (!validAt(bitmap, i)) continue;
    const ms = days[i]! * DAY_MS;
    if (!(ms >= FIRST_MS && ms <= LAST_MS)) return undefined;
    size += 10;
  }
  return {
    size,
    write(out, at, row) {
      if (!validAt(bitmap, row)) return at;
      writeCivilDate(days[row]!, out, at);
      return at + 10;
    },
  };
}

/** Whole milliseconds of each valid value, as Date keeps them (cut toward zero, -0 as 0); NaN stays NaN. */
export function wholeMillis(values: ArrayLike<number>, length: number): Float64Array {
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) out[i] = Math.trunc(values[i]!) + 0;
  return out;
}

/**
 * Microseconds (64-bit, two 32-bit words each) as Date reads them from apache-arrow: whole milliseconds cut toward
 * zero. Undefined past 2^53 (apache-arrow refuses those: the slow way fails as it did).
 */
export function microsToMillis(data: Data): Float64Array | undefined {
  const values = data.values as BigInt64Array;
  const words = new Int32Array(values.buffer, values.byteOffset, data.length * 2);
  const bitmap = bitmapOf(data);
  const out = new Float64Array(data.length);
  for (let i = 0; i < data.length; i++) {
    if (!validAt(bitmap, i)) continue;
    const high = words[2 * i + 1]!;
    if (high >= SAFE_HIGH || high < -SAFE_HIGH) return undefined;
    const micros = high * TWO_32 + (words[2 * i]! >>> 0);
    out[i] = (micros - (micros % 1000)) / 1000 + 0;
  }
  return out;
}
