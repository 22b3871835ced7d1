// Instants and days as CSV bytes, as `toISOString` writes them (docs/datasets.md, "Parquet to CSV"), from integer
// arithmetic: no Date per value. The writers column-text.ts puts a batch's rows together with; only four-digit
// years (0000-9999) are written here, a column with a value beyond is left to the per-value way.
import type { Data } from 'apache-arrow';

/**
 * One column's fields of a batch, written a column at a time (each writer's loop sees one kind of value): first
 * each row's field length is added to `lengths[row]`, then each field is written at `at[row]`, which moves past it.
 */
export interface ColumnWriter {
  measure(lengths: Int32Array): void;
  write(out: Uint8Array, at: Int32Array): void;
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
  const year = (yearOfEra + era * 400 + (month <= 2 ? 1 : 0)) | 0;
  const century = (year / 100) | 0;
  writeTwoDigits(out, at, century);
  writeTwoDigits(out, at + 2, year - century * 100);
  out[at + 4] = 0x2d;
  writeTwoDigits(out, at + 5, month);
  out[at + 7] = 0x2d;
  writeTwoDigits(out, at + 8, dayOfMonth);
}

/** "00" to "99" as 16-bit little-endian numbers: a pair written in one store. */
const PAIRS_LE = Uint16Array.from({ length: 100 }, (_v, i) => (0x30 + Math.floor(i / 10)) | ((0x30 + (i % 10)) << 8));

/** 0-99 as two ASCII digits at `at` (int32 arithmetic: a double's % is a call). */
function writeTwoDigits(out: Uint8Array, at: number, value: number): void {
  const tens = ((value | 0) / 10) | 0;
  out[at] = 0x30 + tens;
  out[at + 1] = 0x30 + (value | 0) - tens * 10;
}

/**
 * Instants as toISOString writes them (`YYYY-MM-DDTHH:MM:SS.mmmZ`, 24 bytes), from whole milliseconds; the
 * date's bytes kept from the row before when the day is the same. Undefined when one is out of the fast range.
 */
export function instantWriter(millis: Float64Array, bitmap: Uint8Array | undefined): ColumnWriter | undefined {
  const length = millis.length;
  for (let i = 0; i < length; i++) if (validAt(bitmap, i) && !(millis[i]! >= FIRST_MS && millis[i]! <= LAST_MS)) return undefined;
  return {
    measure(lengths) {
      for (let i = 0; i < length; i++) if (validAt(bitmap, i)) lengths[i]! += 24;
    },
    write(out, at) {
      // Two and four bytes at a time (little-endian, as the pairs are made): the date kept as three numbers.
      const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
      const date = new Uint8Array(10);
      const dateView = new DataView(date.buffer);
      let lastDay = NaN;
      let date0 = 0;
      let date4 = 0;
      let date8 = 0;
      for (let row = 0; row < length; row++) {
        if (!validAt(bitmap, row)) continue;
        const ms = millis[row]!;
        let day = Math.floor(ms / DAY_MS);
        // Below a day: an int32. A quotient rounded up at a day's last millisecond leaves it negative.
        let time = (ms - day * DAY_MS) | 0;
        if (time < 0) {
          day -= 1;
          time += DAY_MS;
        }
        if (day !== lastDay) {
          writeCivilDate((lastDay = day), date, 0);
          date0 = dateView.getUint32(0, true);
          date4 = dateView.getUint32(4, true);
          date8 = dateView.getUint16(8, true);
        }
        const to = at[row]!;
        view.setUint32(to, date0, true);
        view.setUint32(to + 4, date4, true);
        view.setUint16(to + 8, date8, true);
        const hours = (time / 3_600_000) | 0;
        const inHour = time - hours * 3_600_000;
        const minutes = (inHour / 60_000) | 0;
        const inMinute = inHour - minutes * 60_000;
        const seconds = (inMinute / 1000) | 0;
        const milli = inMinute - seconds * 1000;
        const hundreds = (milli / 100) | 0;
        out[to + 10] = 0x54; // T
        view.setUint16(to + 11, PAIRS_LE[hours]!, true);
        out[to + 13] = 0x3a;
        view.setUint16(to + 14, PAIRS_LE[minutes]!, true);
        out[to + 16] = 0x3a;
        view.setUint16(to + 17, PAIRS_LE[seconds]!, true);
        out[to + 19] = 0x2e;
        out[to + 20] = 0x30 + hundreds;
        view.setUint16(to + 21, PAIRS_LE[milli - hundreds * 100]!, true);
        out[to + 23] = 0x5a; // Z
        at[row] = to + 24;
      }
    },
  };
}

/** Days as `new Date(days * 86400000).toISOString().slice(0, 10)` writes them; undefined out of the fast range. */
export function dayWriter(days: Int32Array, bitmap: Uint8Array | undefined, length: number): ColumnWriter | undefined {
  for (let i = 0; i < length; i++) {
    if (!validAt(bitmap, i)) continue;
    const ms = days[i]! * DAY_MS;
    if (!(ms >= FIRST_MS && ms <= LAST_MS)) return undefined;
  }
  return {
    measure(lengths) {
      for (let i = 0; i < length; i++) if (validAt(bitmap, i)) lengths[i]! += 10;
    },
    write(out, at) {
      for (let row = 0; row < length; row++) {
        if (!validAt(bitmap, row)) continue;
        writeCivilDate(days[row]!, out, at[row]!);
        at[row]! += 10;
      }
    },
  };
}

/**
 * Milliseconds (a fraction is microseconds, rounded to the nearest) as 64-bit microseconds at `words[2i]` (low)
 * and `words[2i + 1]` (high), by exact 32-bit halves: `ms * 1000` as a double loses microseconds past 2^53
 * (after the year 2255).
 */
export function putMicros(words: Int32Array | Uint32Array, i: number, ms: number): void {
  const whole = Math.floor(ms);
  const high = Math.floor(whole / TWO_32);
  const low = (whole - high * TWO_32) * 1000 + Math.round((ms - whole) * 1000);
  const carry = Math.floor(low / TWO_32);
  words[2 * i] = low - carry * TWO_32;
  words[2 * i + 1] = high * 1000 + carry;
}

/**
 * Whole milliseconds of each valid value, cut toward the past (so a microsecond before 1970 stays in 1969, as
 * the calendar reads it), -0 as 0; NaN stays NaN. The per-value way (columns.ts) cuts the same way.
 */
export function wholeMillis(values: ArrayLike<number>, length: number): Float64Array {
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) out[i] = Math.floor(values[i]!) + 0;
  return out;
}

/**
 * Whole milliseconds of 64-bit microseconds given as their high (signed) and low 32-bit words, cut toward the
 * past, exactly: as one double, microseconds past 2^53 (after the year 2255) would round to the next millisecond.
 */
export function millisOfMicros(high: number, low: number): number {
  const q = Math.floor(high / 1000);
  return q * TWO_32 + Math.floor(((high - q * 1000) * TWO_32 + (low >>> 0)) / 1000) + 0;
}

/** A microsecond timestamp column's whole milliseconds (cut toward the past, as wholeMillis cuts); 0 for nulls. */
export function microsToMillis(data: Data): Float64Array {
  const values = data.values as BigInt64Array;
  // apache-arrow slices a value buffer with its data (the offset is left for the validity bitmap).
  const words = new Int32Array(values.buffer, values.byteOffset, data.length * 2);
  const out = new Float64Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = millisOfMicros(words[2 * i + 1]!, words[2 * i]!);
  return out;
}
