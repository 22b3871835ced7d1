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

/** Where writeDouble puts a value's digits before laying them out: at most 17. */
const digitsOf = new Uint8Array(20);

/**
 * `value` as String writes it, at `at`, when its shortest round-trip digits are proven here; otherwise -1 (a
 * sign may have been written: the caller writes String's text over it). Proven: zero, integers up to 2^53, and non-integers from 1e-6 up to 1e15 whose shortest
 * digits number 15 or fewer, or 16 or 17 (the closest of them to the value, as ECMAScript asks). Others (an exact
 * tie, a product past 2^53 where 16 digits are tried, NaN, the infinities, exponent notation) answer -1.
 */
export function writeDouble(out: Uint8Array, at: number, value: number): number {
  if (value === 0) {
    out[at] = 0x30;
    return at + 1;
  }
  let a = value;
  if (a < 0) {
    out[at++] = 0x2d;
    a = -a;
  }
  if (Number.isInteger(a)) return a <= TWO_53 ? writeDigits(out, at, a, digitCount(a)) : -1;
  if (!(a >= 1e-6 && a < 1e15)) return -1;
  // k makes a * 10^k a 15-digit integer part: 10^14 <= a * 10^k < 10^15.
  let k = 14 - decimalExponent(a);
  let scaled = a * POW10[k]!;
  if (scaled >= 1e15) scaled = a * POW10[--k]!;
  else if (scaled < 1e14) scaled = a * POW10[++k]!;
  if (k < 0 || k > 21 || !(scaled >= 1e14 && scaled < 1e15)) return -1;
  // At most one 15-digit decimal rounds to a double (DBL_DIG): if one does, it is within 0.12 of a * 10^k, and
  // the product's rounding (at most 0.07 below 10^15) leaves Math.round on it; if Math.round's does not, none
  // does. Division by an exact power of ten rounds as parsing the decimal does, so `s / 10^k === a` proves it.
  const s15 = Math.round(scaled);
  if (s15 / POW10[k]! === a) return layOut(out, at, writeDigits(digitsOf, 0, s15, digitCount(s15)), k);
  // Just above 10^14 a decimal of the decade below (one more place) could round to the value: left to String.
  if (scaled < 1e14 + 1) return -1;
  // No 15 digits: 16 if a 16-digit decimal rounds to `a`; below 2^53 those lie within 1 of a * 10^(k+1), so one
  // of the three integers nearest to it. The closest to the value is kept: the product is taken exactly (hi + lo).
  k += 1;
  const p = POW10[k]!;
  const hi = a * p;
  if (hi >= TWO_53 - 2) return -1;
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
  if (Number.isNaN(nearest)) return -1;
  let s16: number;
  if (nearest / p === a) s16 = nearest;
  else if ((nearest + 1) / p === a) s16 = nearest + 1;
  else if ((nearest - 1) / p === a) s16 = nearest - 1;
  else return seventeen(out, at, a, aHigh, aLow, k + 1);
  return layOut(out, at, writeDigits(digitsOf, 0, s16, digitCount(s16)), k);
}

/**
 * No decimal of 16 digits or fewer rounds to `a`: then the 17-digit one nearest to it does (their spacing is
 * under the value's half ulp), and is the one String writes. a * 10^k, taken exactly as hi + lo, lies between
 * 10^16 and 10^17, where hi is an even integer and |lo| at most 8: the nearest is hi + round(lo).
 */
function seventeen(out: Uint8Array, at: number, a: number, aHigh: number, aLow: number, k: number): number {
  if (k > 22) return -1;
  const p = POW10[k]!;
  const hi = a * p;
  const pBig = SPLITTER * p;
  const pHigh = pBig - (pBig - p);
  const pLow = p - pHigh;
  const lo = aHigh * pHigh - hi + aHigh * pLow + aLow * pHigh + aLow * pLow;
  const below = Math.floor(lo);
  // An exact tie is left to String.
  if (lo - below === 0.5 || !(hi >= 1e16 && hi < 1e17)) return -1;
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
  if (!(high >= 1e8 && high < 1e9)) return -1;
  eightDigitsBefore(digitsOf, 17, low);
  digitsBefore(digitsOf, 9, high);
  return layOut(out, at, 17, k);
}

/**
 * The `count` digits in digitsOf times 10^-k (not an integer) in the fixed notation String uses from 1e-6 to
 * 1e21, trailing zeros dropped, at `at`; else -1.
 */
function layOut(out: Uint8Array, at: number, count: number, k: number): number {
  let last = count;
  while (last > 1 && digitsOf[last - 1] === 0x30) {
    last--;
    k--;
  }
  // The decimal point sits after `point` digits (before them when 0 or less).
  const point = last - k;
  if (k <= 0 || point <= -6 || point > 21) return -1;
  if (point > 0) {
    for (let i = 0; i < point; i++) out[at++] = digitsOf[i]!;
    out[at++] = 0x2e;
    for (let i = point; i < last; i++) out[at++] = digitsOf[i]!;
    return at;
  }
  out[at++] = 0x30;
  out[at++] = 0x2e;
  for (let i = point; i < 0; i++) out[at++] = 0x30;
  for (let i = 0; i < last; i++) out[at++] = digitsOf[i]!;
  return at;
}
