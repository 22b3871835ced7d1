// The rules one cell's text is read by where a type needs more than a pattern (docs/datasets.md, "Table reads"):
// numbers as CSV writers and pandas write them, float32's range and shortest text, a decimal's fit to its
// precision and scale; and the plain-words refusal every column's rule throws.

/** A value as a refusal quotes it: at most 40 characters. */
const short = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
/** Throws `"text" is not <what>`: the message a read's error names the file, line and column before. */
export const fail = (text: string, what: string): never => {
  throw new Error(`${short(text)} is not ${what}`);
};

// A number as CSV writers put it: decimal digits with an optional point and exponent, or NaN and the
// infinities in the spellings pandas, Python and JavaScript write (`nan`, `inf`, `-Infinity`), any case.
// Number() alone would also take hex (`0x10`), binary and octal, and read a blank cell as 0.
/** Decimal text: digits with an optional point and exponent (a DOUBLE's, FLOAT's and DECIMAL's plain form). */
export const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SPECIAL_NUMBER = /^(nan|([+-]?)inf(inity)?)$/i;

export function numberOf(t: string): number {
  const trimmed = t.trim();
  if (DECIMAL_TEXT.test(trimmed)) return Number(trimmed);
  const special = SPECIAL_NUMBER.exec(trimmed);
  if (!special) return fail(t, 'a number');
  return special[2] === undefined ? Number.NaN : special[2] === '-' ? -Infinity : Infinity;
}

/** The largest float32 (the CSV readers' plain range for FLOAT: a cell past it goes to the check). */
export const FLOAT_MAX = 3.4028234663852886e38;
/** A FLOAT as its Arrow Float32 keeps it; a finite number past float32's range is refused, not made infinite. */
export function float32(n: number, shown: string): number {
  const f = Math.fround(n);
  return Number.isFinite(n) && !Number.isFinite(f) ? fail(shown, 'a 32-bit float (out of range)') : f;
}

/**
 * A float32's shortest text that reads back as the same float32 (`0.1`, not the double `0.10000000149011612`):
 * the fewest significant digits, at most nine, that do.
 */
export function float32Text(x: number): string {
  // Whole numbers below 2^24 are exact in a float32: their digits are the shortest text.
  if (!Number.isFinite(x) || (Number.isInteger(x) && Math.abs(x) < 2 ** 24)) return String(x);
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(x.toPrecision(digits));
    if (Math.fround(shorter) === x) return String(shorter);
  }
  return String(Number(x.toPrecision(9)));
}

/**
 * Whether a decimal's text fits DECIMAL(precision, scale): at most precision - scale digits before the point and
 * scale after it, once its exponent is applied and the zeros that say nothing (leading, trailing) are dropped.
 */
export function fitsDecimal(text: string, precision: number, scale: number): boolean {
  // Decimal text first (the pattern below alone would take "." or ""), then its parts.
  const m = DECIMAL_TEXT.test(text) ? /^[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text) : null;
  if (!m) return false;
  let whole = m[1] ?? '';
  let fraction = m[2] ?? '';
  const exponent = Number(m[3] ?? 0);
  if (!/[1-9]/.test(whole + fraction)) return true;
  if (Math.abs(exponent) > precision + whole.length + fraction.length) return false;
  if (exponent > 0) {
    whole += fraction.slice(0, exponent).padEnd(exponent, '0');
    fraction = fraction.slice(exponent);
  } else if (exponent < 0) {
    const padded = whole.padStart(-exponent, '0');
    fraction = padded.slice(padded.length + exponent) + fraction;
    whole = padded.slice(0, padded.length + exponent);
  }
  return whole.replace(/^0+/, '').length <= precision - scale && fraction.replace(/0+$/, '').length <= scale;
}
