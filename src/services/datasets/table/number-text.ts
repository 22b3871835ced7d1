// Numbers written as the bytes of their JavaScript text (`String(value)`) without a string per value
// (docs/datasets.md, "Parquet to CSV"): safe integers from int32 digit pairs, and doubles whose shortest
// round-trip digits can be proven with plain double arithmetic. A double this cannot prove is left to the caller,
// which writes `String(value)`: the bytes are always String's (a test compares many millions of values).

/** "00" to "99" as ASCII pairs: two digits per division. */
const PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  PAIRS[2 * i] = 0x30 + Math.floor(i / 10);
  PAIRS[2 * i + 1] = 0x30 + (i % 10);
}

/** Powers of ten a double holds exactly (10^0 to 10^22). */
const POW10 = Array.from({ length: 23 }, (_v, i) => Number(`1e${i}`));
const TWO_53 = 2 ** 53;
/** Veltkamp's splitter for doubles: 2^27 + 1. */
const SPLITTER = 134_217_729;

/** Decimal digits of 0 <= x < 2^53. */
export function digitCount(x: number): number {
  if (x < 1e8) return x < 1e4 ? (x < 100 ? (x < 10 ? 1 : 2) : x < 1000 ? 3 : 4) : x < 1e6 ? (x < 1e5 ? 5 : 6) : x < 1e7 ? 7 : 8;
  let digits = 9;
  for (let bound = 1e9; digits < 16 && x >= bound; bound *= 10) digits++;
  return digits;
}

/** 0 <= x < 2^31 as digits ending just before `end`; answers where they start. */
function digitsBefore(out: Uint8Array, end: number, x: number): number {
  while (x >= 100) {
    const q = (x / 100) | 0;
    const pair = (x - q * 100) << 1;
    out[--end] = PAIRS[pair + 1]!;
    out[--end] = PAIRS[pair]!;
    x = q;
  }
  if (x >= 10) {
    out[--end] = PAIRS[2 * x + 1]!;
    out[--end] = PAIRS[2 * x]!;
  } else out[--end] = 0x30 + x;
  return end;
}

/** 0 <= x < 10^8 as exactly eight digits (zeros in front) ending just before `end`. */
function eightDigitsBefore(out: Uint8Array, end: number, x: number): void {
  for (let k = 0; k < 4; k++) {
    const q = (x / 100) | 0;
    const pair = (x - q * 100) << 1;
    out[--end] = PAIRS[pair + 1]!;
    out[--end] = PAIRS[pair]!;
    x = q;
  }
}

/** An integer 0 <= value <= 2^53 as `digits` digits (its digitCount) at `at`; answers where they end. */
export function writeDigits(out: Uint8Array, at: number, value: number, digits: number): number {
  const end = at + digits;
  if (value < 1e8) digitsBefore(out, end, value);
  else {
    const high = Math.floor(value / 1e8);
    eightDigitsBefore(out, end, value - high * 1e8);
    digitsBefore(out, end - 8, high);
  }
  return end;
}

/** A safe integer (|value| <= 2^53) as String writes it, at `at`; answers where it ends. */
export function writeSafeInteger(out: Uint8Array, at: number, value: number): number {
  if (value < 0) {
    out[at++] = 0x2d;
    value = -value;
  }
  return writeDigits(out, at, value, digitCount(value));
}

const bitsOf = new Float64Array(1);
const highWord = new Uint32Array(bitsOf.buffer);
/** log10(2), a little more, so that the estimate below is floor(log10(a)) or one less. */
const LOG10_2 = 0.30103;

/**
 * floor(log10(a)) for 1e-6 <= a < 1e15, give or take one (the caller corrects it): from the binary exponent, which
 * costs less than Math.log10.
 */
function decimalExponent(a: number): number {
  bitsOf[0] = a;
  return Math.floor(((highWord[1]! >>> 20) - 1023) * LOG10_2);
}

/**
 * A double's text as decompose leaves it: its digits D = high * 10^8 + low (`count` of them, no trailing zero but
 * an integer's), the decimal point after `point` digits (before them when 0 or less; none when `point` is
 * `count`: an integer), and its sign.
 */
export const parts = { high: 0, low: 0, count: 0, point: 0, negative: false };

function setParts(digits: number, count: number, point: number): void {
  parts.high = Math.floor(digits / 1e8);
  parts.low = digits - parts.high * 1e8;
  parts.count = count;
  parts.point = point;
}

/**
 * `value` as String writes it, at `at`, when its shortest round-trip digits are proven here; otherwise -1 and
 * nothing written (the caller writes String's text). What is proven: see decompose.
 */
export function writeDouble(out: Uint8Array, at: number, value: number): number {
  return decompose(value) ? writeParts(out, at, parts.high, parts.low, parts.count, parts.point, parts.negative) : -1;
}

/**
 * Fills `parts` with `value`'s text as String writes it, when its shortest round-trip digits are proven here; else
 * false. Proven: zero, integers up to 2^53, and non-integers from 1e-6 up to 1e15 whose shortest digits number 15
 * or fewer, or 16 or 17 (the closest of them to the value, as ECMAScript asks). Others (an exact tie, a product
 * past 2^53 where 16 digits are tried, NaN, the infinities, exponent notation) answer false.
 */
export function decompose(value: number): boolean {
  if (value === 0) {
    parts.negative = false;
    setParts(0, 1, 1);
    return true;
  }
  parts.negative = value < 0;
  const a = Math.abs(value);
  if (Number.isInteger(a)) {
    if (a > TWO_53) return false;
    const count = digitCount(a);
    setParts(a, count, count);
    return true;
  }
  if (!(a >= 1e-6 && a < 1e15)) return false;
  // k makes a * 10^k a 15-digit integer part: 10^14 <= a * 10^k < 10^15.
  let k = 14 - decimalExponent(a);
  let scaled = a * POW10[k]!;
  if (scaled >= 1e15) scaled = a * POW10[--k]!;
  else if (scaled < 1e14) scaled = a * POW10[++k]!;
  if (k < 0 || k > 21 || !(scaled >= 1e14 && scaled < 1e15)) return false;
  // At most one 15-digit decimal rounds to a double (DBL_DIG): if one does, it is within 0.12 of a * 10^k, and
  // the product's rounding (at most 0.07 below 10^15) leaves Math.round on it; if Math.round's does not, none
  // does. Division by an exact power of ten rounds as parsing the decimal does, so `s / 10^k === a` proves it.
  const s15 = Math.round(scaled);
  if (s15 / POW10[k]! === a) return fixed(s15, k);
  // Just above 10^14 a decimal of the decade below (one more place) could round to the value: left to String.
  if (scaled < 1e14 + 1) return false;
  // No 15 digits: 16 if a 16-digit decimal rounds to `a`; below 2^53 those lie within 1 of a * 10^(k+1), so one
  // of the three integers nearest to it. The closest to the value is kept: the product is taken exactly (hi + lo).
  k += 1;
  const p = POW10[k]!;
  const hi = a * p;
  if (hi >= TWO_53 - 2) return false;
  const aBig = SPLITTER * a;
  const aHigh = aBig - (aBig - a);
  const aLow = a - aHigh;
  const pBig = SPLITTER * p;
  const pHigh = pBig - (pBig - p);
  const pLow = p - pHigh;
  const lo = aHigh * pHigh - hi + aHigh * pLow + aLow * pHigh + aLow * pLow;
  // The integer nearest to hi + lo: |lo| is at most half of hi's last place, and hi's fraction is a multiple of it.
  const floor = Math.floor(hi);
  const fraction = hi - floor;
  let nearest: number;
  if (fraction === 0) nearest = Math.abs(lo) === 0.5 ? NaN : floor;
  else if (fraction < 0.5) nearest = floor;
  else if (fraction > 0.5) nearest = floor + 1;
  else nearest = lo > 0 ? floor + 1 : lo < 0 ? floor : NaN;
  // An exact tie between two 16-digit decimals is left to String.
  if (Number.isNaN(nearest)) return false;
  if (nearest / p === a) return fixed(nearest, k);
  if ((nearest + 1) / p === a) return fixed(nearest + 1, k);
  if ((nearest - 1) / p === a) return fixed(nearest - 1, k);
  return seventeen(a, aHigh, aLow, k + 1);
}

/**
 * No decimal of 16 digits or fewer rounds to `a`: then the 17-digit one nearest to it does (their spacing is
 * under the value's half ulp), and is the one String writes. a * 10^k, taken exactly as hi + lo, lies between
 * 10^16 and 10^17, where hi is an even integer and |lo| at most 8: the nearest is hi + round(lo).
 */
function seventeen(a: number, aHigh: number, aLow: number, k: number): boolean {
  if (k > 22) return false;
  const p = POW10[k]!;
  const hi = a * p;
  const pBig = SPLITTER * p;
  const pHigh = pBig - (pBig - p);
  const pLow = p - pHigh;
  const lo = aHigh * pHigh - hi + aHigh * pLow + aLow * pHigh + aLow * pLow;
  const below = Math.floor(lo);
  // An exact tie is left to String.
  if (lo - below === 0.5 || !(hi >= 1e16 && hi < 1e17)) return false;
  const step = lo - below > 0.5 ? below + 1 : below;
  // hi's upper nine digits and lower eight, the division's rounding corrected, then the step added.
  let high = Math.floor(hi / 1e8);
  let low = hi - high * 1e8 + step;
  while (low < 0) {
    high -= 1;
    low += 1e8;
  }
  while (low >= 1e8) {
    high += 1;
    low -= 1e8;
  }
  // A last digit 0 would mean 16 digits did it: never, but then String decides.
  const point = 17 - k;
  if (!(high >= 1e8 && high < 1e9) || (low | 0) % 10 === 0 || k <= 0 || point <= -6 || point > 21) return false;
  parts.high = high;
  parts.low = low;
  parts.count = 17;
  parts.point = point;
  return true;
}

/** s * 10^-k (s <= 2^53, not an integer) into parts, trailing zeros dropped; false where String uses exponents. */
function fixed(s: number, k: number): boolean {
  for (let q = Math.floor(s / 10); s > 0 && q * 10 === s; q = Math.floor(s / 10)) {
    s = q;
    k--;
  }
  const count = digitCount(s);
  const point = count - k;
  if (k <= 0 || point <= -6 || point > 21) return false;
  setParts(s, count, point);
  return true;
}

/** The bytes writeParts writes for these parts. */
export function partsLength(count: number, point: number, negative: boolean): number {
  return (negative ? 1 : 0) + (point >= count ? count : point > 0 ? count + 1 : 2 - point + count);
}

/** A double's parts (decompose) as its text at `at`; answers where it ends. */
export function writeParts(out: Uint8Array, at: number, high: number, low: number, count: number, point: number, negative: boolean): number {
  if (negative) out[at++] = 0x2d;
  if (point <= 0) {
    out[at++] = 0x30;
    out[at++] = 0x2e;
    for (let i = point; i < 0; i++) out[at++] = 0x30;
    return digitsOf(out, at, high, low, count);
  }
  if (point >= count) return digitsOf(out, at, high, low, count);
  // The digits one place on, then the first `point` of them moved back before the decimal point.
  const end = digitsOf(out, at + 1, high, low, count);
  for (let i = 0; i < point; i++) out[at + i] = out[at + i + 1]!;
  out[at + point] = 0x2e;
  return end;
}

/** The `count` digits of high * 10^8 + low at `at`; answers where they end. */
function digitsOf(out: Uint8Array, at: number, high: number, low: number, count: number): number {
  const end = at + count;
  if (high === 0) digitsBefore(out, end, low);
  else {
    eightDigitsBefore(out, end, low);
    digitsBefore(out, end - 8, high);
  }
  return end;
}
