// Values read straight from a CSV cell's bytes for an ARROW read (docs/datasets.md, "CSV -> ARROW from the
// bytes"): only the common plain shapes, each giving exactly what the column's fromText (columns.ts) gives for
// that text. Each reader starts at a cell's first byte and answers the index just past the plain form it read,
// leaving the value in VALUE[0] (a typed array, so that no number is boxed on the way), or -1 when the bytes
// are not of its form. The caller checks that the cell ends there; any other cell it decodes and gives to
// fromText, which also decides whether the value is refused. No string is built on these paths.
import { daysInMonth } from './csv-scan.js';

/** The value the last reader read (a number; days for a date, milliseconds for a timestamp, 1/0 for a boolean). */
export const VALUE = new Float64Array(1);

const ZERO = 48;
const MINUS = 45;
const PLUS = 43;
/** Integers of up to 15 digits are exact doubles, and so are the powers of ten up to 1e22 (the rule below). */
const MAX_DIGITS = 15;
const POW10 = new Float64Array(23).map((_v, i) => 10 ** i);

const digit = (c: number | undefined): number => (c === undefined ? -1 : c - ZERO);

/**
 * `[+-]digits[.digits][(e|E)[+-]digits]` with at most 15 digits in all, as Number() reads it: the digits form
 * an exact integer and 10^k (k <= 22) is exact, so one multiplication or division rounds once, correctly, as
 * Number() does (Clinger's fast path).
 */
export function plainDouble(b: Uint8Array, at: number): number {
  let i = at;
  let c = b[i];
  const negative = c === MINUS;
  if (negative || c === PLUS) c = b[++i];
  let mantissa = 0;
  let digits = 0;
  let scale = 0;
  for (let d = digit(c); d >= 0 && d <= 9; d = digit((c = b[++i]))) {
    mantissa = mantissa * 10 + d;
    digits++;
  }
  if (c === 46) {
    for (let d = digit((c = b[++i])); d >= 0 && d <= 9; d = digit((c = b[++i]))) {
      mantissa = mantissa * 10 + d;
      digits++;
      scale--;
    }
  }
  if (digits === 0 || digits > MAX_DIGITS) return -1;
  if (c === 101 || c === 69) {
    c = b[++i];
    const down = c === MINUS;
    if (down || c === PLUS) c = b[++i];
    const start = i;
    let exponent = 0;
    for (let d = digit(c); d >= 0 && d <= 9 && i - start < 4; d = digit(b[++i])) exponent = exponent * 10 + d;
    const d = digit(b[i]);
    if (i === start || (d >= 0 && d <= 9)) return -1;
    scale += down ? -exponent : exponent;
  }
  let value: number;
  if (scale === 0) value = mantissa;
  else if (scale < 0 && scale >= -22) value = mantissa / POW10[-scale]!;
  else if (scale > 0 && scale <= 22) value = mantissa * POW10[scale]!;
  else return -1;
  VALUE[0] = negative ? -value : value;
  return i;
}

/** `[+-]digits`, at most 15 digits (an exact number). */
export function plainInteger(b: Uint8Array, at: number): number {
  let i = at;
  const c = b[i];
  const negative = c === MINUS;
  if (negative || c === PLUS) i++;
  const start = i;
  let value = 0;
  for (let d = digit(b[i]); d >= 0 && d <= 9; d = digit(b[++i])) value = value * 10 + d;
  if (i === start || i - start > MAX_DIGITS) return -1;
  VALUE[0] = negative ? -value : value;
  return i;
}

/** Two digits at `at` as a number, -1 if one is not a digit (a byte past the buffer's end is none). */
function twoDigits(b: Uint8Array, at: number): number {
  const high = (b[at]! | 0) - ZERO;
  const low = (b[at + 1]! | 0) - ZERO;
  return high >= 0 && high <= 9 && low >= 0 && low <= 9 ? high * 10 + low : -1;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (month 1-12, a day of that month). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The last date read and its days: the cells of a column often share their date (timestamps of one day). */
let lastDate = -1;
let lastDays = 0;

/** YYYY-MM-DD at `at` (month 01-12, day 01-31) as days since the epoch, or NaN. */
function dateAt(b: Uint8Array, at: number): number {
  if (b[at + 4] !== MINUS || b[at + 7] !== MINUS) return Number.NaN;
  const century = twoDigits(b, at);
  const year = twoDigits(b, at + 2);
  const month = twoDigits(b, at + 5);
  const day = twoDigits(b, at + 8);
  if (century < 0 || year < 0 || month < 1 || month > 12 || day < 1 || day > 31) return Number.NaN;
  const date = ((century * 100 + year) * 100 + month) * 100 + day;
  if (date !== lastDate) {
    // A day past its month's end is no date (a Date.parse would roll it on): the cell goes to fromText, which refuses it.
    if (day > 28 && day > daysInMonth(century * 100 + year, month)) return Number.NaN;
    lastDays = daysFromCivil(century * 100 + year, month, day);
    lastDate = date;
  }
  return lastDays;
}

/** A DATE cell `YYYY-MM-DD`, as days since the epoch (what Date32 holds). */
export function plainDate(b: Uint8Array, at: number): number {
  const days = dateAt(b, at);
  if (days !== days) return -1;
  VALUE[0] = days;
  return at + 10;
}

/**
 * A TIMESTAMP cell `YYYY-MM-DDTHH:MM[:SS[.f{1,3}]]` then `Z` or `±HH:MM`, as the milliseconds Date.parse
 * gives. A timestamp with no zone (UTC) and any other form are left to the column's fromText.
 */
export function plainTimestamp(b: Uint8Array, at: number): number {
  if (b[at + 10] !== 84 || b[at + 13] !== 58) return -1;
  const days = dateAt(b, at);
  const hour = twoDigits(b, at + 11);
  const minute = twoDigits(b, at + 14);
  if (days !== days || hour < 0 || hour > 23 || minute < 0 || minute > 59) return -1;
  let ms = days * 86_400_000 + hour * 3_600_000 + minute * 60_000;
  let i = at + 16;
  if (b[i] === 58) {
    const second = twoDigits(b, i + 1);
    if (second < 0 || second > 59) return -1;
    ms += second * 1000;
    i += 3;
    if (b[i] === 46) {
      const start = ++i;
      let fraction = 0;
      for (let d = digit(b[i]); d >= 0 && d <= 9; d = digit(b[++i])) fraction = fraction * 10 + d;
      const n = i - start;
      if (n === 0 || n > 3) return -1;
      ms += n === 1 ? fraction * 100 : n === 2 ? fraction * 10 : fraction;
    }
  }
  const c = b[i];
  if (c === 90) {
    VALUE[0] = ms;
    return i + 1; // Z
  }
  if ((c !== PLUS && c !== MINUS) || b[i + 3] !== 58) return -1;
  const zoneHour = twoDigits(b, i + 1);
  const zoneMinute = twoDigits(b, i + 4);
  if (zoneHour < 0 || zoneHour > 23 || zoneMinute < 0 || zoneMinute > 59) return -1;
  const offset = (zoneHour * 60 + zoneMinute) * 60_000;
  VALUE[0] = c === PLUS ? ms - offset : ms + offset;
  return i + 6;
}

/** `true` → 1, `false` → 0, lower case. */
export function plainBoolean(b: Uint8Array, at: number): number {
  if (b[at] === 116 && b[at + 1] === 114 && b[at + 2] === 117 && b[at + 3] === 101) {
    VALUE[0] = 1;
    return at + 4;
  }
  if (b[at] === 102 && b[at + 1] === 97 && b[at + 2] === 108 && b[at + 3] === 115 && b[at + 4] === 101) {
    VALUE[0] = 0;
    return at + 5;
  }
  return -1;
}
