// A fast proof that quote-free CSV lines fit the schema, for the first passthrough read of a file
// (docs/datasets.md, "CSV: two tokenizers, and passthrough"): one pass over the text with charCodeAt and
// indexOf, no string per cell. Each type's scanner accepts only a plain subset of what its check accepts (plain
// decimals, `true`/`false`, ISO dates and timestamps with in-range fields); any other cell is checked by the
// column's own check. Whatever cannot be proven here (an error, a ragged or empty line, a carriage return)
// answers undefined, and the batch is read again by the tokenizers, which name the line and column as before.
/** True only if the column's check would accept text.slice(from, to) (a non-empty cell). */
export type CellScan = (text: string, from: number, to: number) => boolean;

/** What scanning needs of a column (columns.ts builds them): its scanner, and its own check for the rest. */
export interface ScannedColumn {
  scan?: CellScan;
  check(text: string): void;
}

const ZERO = 48;
const isDigit = (c: number) => c >= ZERO && c <= ZERO + 9;
const digitsAt = (text: string, at: number, count: number): number => {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i);
    if (!isDigit(c)) return -1;
    value = value * 10 + c - ZERO;
  }
  return value;
};

/** An optional sign, then 1 to maxDigits digits. */
export const integerScan =
  (maxDigits: number): CellScan =>
  (text, from, to) => {
    const c = text.charCodeAt(from);
    const start = c === 43 || c === 45 ? from + 1 : from;
    if (to <= start || to - start > maxDigits) return false;
    for (let i = start; i < to; i++) if (!isDigit(text.charCodeAt(i))) return false;
    return true;
  };

/** A plain decimal: an optional sign, digits with at most one point (a digit somewhere), an optional exponent. */
export const decimalScan: CellScan = (text, from, to) => {
  let i = from;
  let c = text.charCodeAt(i);
  if (c === 43 || c === 45) c = text.charCodeAt(++i);
  let digits = 0;
  let point = false;
  for (; i < to; c = text.charCodeAt(++i)) {
    if (isDigit(c)) digits++;
    else if (c === 46 && !point) point = true;
    else break;
  }
  if (digits === 0) return false;
  if (i === to) return true;
  if (c !== 101 && c !== 69) return false; // e, E
  c = text.charCodeAt(++i);
  if (c === 43 || c === 45) i++;
  if (i >= to) return false;
  for (; i < to; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
};

export const booleanScan: CellScan = (text, from, to) =>
  (to - from === 4 && text.startsWith('true', from)) || (to - from === 5 && text.startsWith('false', from));

/** YYYY-MM-DD with a month 01-12 and a day 01-28 (any year has those). */
const dateAt = (text: string, at: number): boolean => {
  if (text.charCodeAt(at + 4) !== 45 || text.charCodeAt(at + 7) !== 45 || digitsAt(text, at, 4) < 0) return false;
  const month = digitsAt(text, at + 5, 2);
  const day = digitsAt(text, at + 8, 2);
  return month >= 1 && month <= 12 && day >= 1 && day <= 28;
};

export const dateScan: CellScan = (text, from, to) => to - from === 10 && dateAt(text, from);

/** YYYY-MM-DDTHH:MM[:SS[.fff]] then Z, ±HH:MM or nothing, every field in range. */
export const timestampScan: CellScan = (text, from, to) => {
  if (to - from < 16 || !dateAt(text, from) || text.charCodeAt(from + 10) !== 84 || text.charCodeAt(from + 13) !== 58) return false;
  const hour = digitsAt(text, from + 11, 2);
  const minute = digitsAt(text, from + 14, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return false;
  let i = from + 16;
  if (text.charCodeAt(i) === 58) {
    const second = digitsAt(text, i + 1, 2);
    if (second < 0 || second > 59) return false;
    i += 3;
    if (text.charCodeAt(i) === 46) {
      let digits = 0;
      for (i++; i < to && isDigit(text.charCodeAt(i)); i++) digits++;
      if (digits < 1 || digits > 3) return false;
    }
  }
  if (i === to) return true;
  const c = text.charCodeAt(i);
  if (c === 90) return i + 1 === to; // Z
  if ((c !== 43 && c !== 45) || to - i !== 6 || text.charCodeAt(i + 3) !== 58) return false;
  const zoneHour = digitsAt(text, i + 1, 2);
  const zoneMinute = digitsAt(text, i + 4, 2);
  return zoneHour >= 0 && zoneHour <= 23 && zoneMinute >= 0 && zoneMinute <= 59;
};

/** Every cell is a STRING's. */
export const anyScan: CellScan = () => true;

/**
 * The number of records in `body` (quote-free whole lines, each ending in "\n") when each has exactly one cell
 * per column, in the columns' order, and every cell fits its column; undefined when that is not proven.
 */
export function scanRecords(body: string, columns: readonly ScannedColumn[]): number | undefined {
  if (body.indexOf('\r') >= 0) return undefined;
  const last = columns.length - 1;
  let records = 0;
  for (let at = 0; at < body.length;) {
    const eol = body.indexOf('\n', at);
    if (eol <= at) return undefined; // an empty line (skipped by the tokenizers) or no line break
    let from = at;
    for (let i = 0; i <= last; i++) {
      const comma = body.indexOf(',', from);
      const to = i === last ? eol : comma;
      if (i === last ? comma >= 0 && comma < eol : comma < 0 || comma > eol) return undefined;
      if (to > from) {
        const column = columns[i]!;
        if (!column.scan?.(body, from, to)) {
          try {
            column.check(body.slice(from, to));
          } catch {
            return undefined;
          }
        }
      }
      from = to + 1;
    }
    records++;
    at = eol + 1;
  }
  return records;
}
