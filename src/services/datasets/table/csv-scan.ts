// A one-pass proof over the bytes that CSV records fit the schema, for a passthrough read (docs/datasets.md,
// "CSV: the byte scan and passthrough"): a quote state machine finds each cell, and each type's scanner walks
// the cell's bytes, building no string. A scanner accepts only a plain subset of what its column's check
// accepts (plain decimals, `true`/`false`, ISO dates and timestamps with in-range fields); any other cell is
// decoded and given to the column's own check. Whatever cannot be proven (a value that fails, a ragged line, a
// stray quote, a lone carriage return) stops the scan at that record; the caller reads the rest with the
// tokenizers, which name the line and column.

/**
 * Reads a value that starts at `at`: the index just past it when its bytes are a plain form its column's check
 * surely accepts, -1 when they are not. The value must end there (a delimiter, or a quoted cell's closing quote)
 * for the proof to hold: the caller checks that.
 */
export type CellScan = (bytes: Uint8Array, at: number) => number;

/** What scanning needs of a column (columns.ts builds them): its scanner, and its own check for the rest. */
export interface ScannedColumn {
  scan?: CellScan;
  check(text: string): void;
}

const COMMA = 44;
const LF = 10;
const CR = 13;
const QUOTE = 34;
const ZERO = 48;
const isDigit = (c: number | undefined): boolean => c !== undefined && c >= ZERO && c <= ZERO + 9;

/** An optional sign, then 1 to maxDigits digits. */
export function integerAt(b: Uint8Array, at: number, maxDigits: number): number {
  const c = b[at];
  const start = c === 43 || c === 45 ? at + 1 : at;
  let i = start;
  while (isDigit(b[i])) i++;
  return i === start || i - start > maxDigits ? -1 : i;
}

/** integerAt as a column's scanner; the digits it allows are kept on it for scanRecords (kindsOf below). */
export const integerScan = (maxDigits: number): CellScan & { maxDigits: number } =>
  Object.assign((b: Uint8Array, at: number) => integerAt(b, at, maxDigits), { maxDigits });

/** A plain decimal: an optional sign, digits with at most one point (a digit somewhere), an optional exponent. */
export const decimalScan: CellScan = (b, at) => {
  let i = at;
  let c = b[i];
  if (c === 43 || c === 45) c = b[++i];
  let digits = 0;
  let point = false;
  for (; ; c = b[++i]) {
    if (isDigit(c)) digits++;
    else if (c === 46 && !point) point = true;
    else break;
  }
  if (digits === 0) return -1;
  if (c !== 101 && c !== 69) return i; // e, E
  c = b[++i];
  if (c === 43 || c === 45) i++;
  const start = i;
  while (isDigit(b[i])) i++;
  return i === start ? -1 : i;
};

/**
 * A FLOAT cell: what decimalScan takes, without an exponent and in at most 38 characters, so always within
 * float32's range; anything else goes to the check, which refuses a value past that range.
 */
export const floatScan: CellScan = (b, at) => {
  const end = decimalScan(b, at);
  if (end < 0 || end - at > 38) return -1;
  for (let i = at; i < end; i++) if (b[i] === 101 || b[i] === 69) return -1;
  return end;
};

/** `true` or `false`, lower case (other spellings go to the check). */
export const booleanScan: CellScan = (b, at) => {
  if (b[at] === 116) return b[at + 1] === 114 && b[at + 2] === 117 && b[at + 3] === 101 ? at + 4 : -1;
  return b[at] === 102 && b[at + 1] === 97 && b[at + 2] === 108 && b[at + 3] === 115 && b[at + 4] === 101 ? at + 5 : -1;
};

/** Two digits at `at` as a number, -1 if either is not a digit (or lies past the end: NaN fails both tests). */
const twoDigits = (b: Uint8Array, at: number): number => {
  const high = b[at]! - ZERO;
  const low = b[at + 1]! - ZERO;
  return high >= 0 && high <= 9 && low >= 0 && low <= 9 ? high * 10 + low : -1;
};

/** The days of a month (1-12) of a proleptic Gregorian year. */
export const daysInMonth = (year: number, month: number): number =>
  month === 2 ? ((year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;

/** YYYY-MM-DD with a month 01-12 and a day 01-28 (any year has those). */
const dateAt = (b: Uint8Array, at: number): boolean => {
  if (b[at + 4] !== 45 || b[at + 7] !== 45 || twoDigits(b, at) < 0 || twoDigits(b, at + 2) < 0) return false;
  const month = twoDigits(b, at + 5);
  const day = twoDigits(b, at + 8);
  return month >= 1 && month <= 12 && day >= 1 && day <= 28;
};

export const dateScan: CellScan = (b, at) => (dateAt(b, at) ? at + 10 : -1);

/** YYYY-MM-DDTHH:MM[:SS[.fff]] then Z, ±HH:MM or nothing, every field in range. */
export const timestampScan: CellScan = (b, at) => {
  if (!dateAt(b, at) || b[at + 10] !== 84 || b[at + 13] !== 58) return -1;
  const hour = twoDigits(b, at + 11);
  const minute = twoDigits(b, at + 14);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return -1;
  let i = at + 16;
  if (b[i] === 58) {
    const second = twoDigits(b, i + 1);
    if (second < 0 || second > 59) return -1;
    i += 3;
    if (b[i] === 46) {
      const start = ++i;
      while (isDigit(b[i])) i++;
      if (i === start || i - start > 3) return -1;
    }
  }
  const c = b[i];
  if (c === 90) return i + 1; // Z
  if (c !== 43 && c !== 45) return i;
  if (b[i + 3] !== 58) return -1;
  const zoneHour = twoDigits(b, i + 1);
  const zoneMinute = twoDigits(b, i + 4);
  return zoneHour >= 0 && zoneHour <= 23 && zoneMinute >= 0 && zoneMinute <= 59 ? i + 6 : -1;
};

/** A STRING cell: any bytes up to a delimiter; it stops at a quote too, which an unquoted cell may not hold. */
export const anyScan: CellScan = (b, at) => {
  let i = at;
  for (let c = b[i]; c !== COMMA && c !== LF && c !== CR && c !== QUOTE && c !== undefined; c = b[++i]);
  return i;
};

export interface ScanResult {
  /** Records proven (empty lines, which the tokenizers skip, are not records). */
  records: number;
  /** Bytes proven: `bytes[from..end]` are whole lines, each record in them fitting. */
  end: number;
  /** Why the scan stopped at `end`: the data ran out (a quoted cell goes on past `limit`), or a record is not proven. */
  stop: 'more' | 'unproven';
  /** Where a record is not proven: the column whose cell (or delimiter after it) stopped it, and where that cell starts. */
  column?: number;
  cell?: number;
}

/** A cell that is not plain: decoded (quotes undoubled) and given to its column's check. */
function checked(column: ScannedColumn, b: Buffer, from: number, to: number, doubled: boolean): boolean {
  let text = b.toString('utf8', from, to);
  if (doubled) text = text.replaceAll('""', '"');
  try {
    column.check(text);
    return true;
  } catch {
    return false;
  }
}

// Each column's scanner by kind, so that scanRecords calls each one from a call site of its own, where V8 can
// inline it: one call site reaching five scanners was the slowest part of a first CSV read's proof.
const OTHER = 0;
const ANY = 1;
const INTEGER = 2;
const DECIMAL = 3;
const BOOLEAN = 4;
const DATE = 5;
const TIMESTAMP = 6;
const NONE = 7;
const FLOAT = 8;

interface Kinds {
  kind: Uint8Array;
  digits: Uint8Array;
}

/** The kinds of the scanners this file exports; an integer scanner is known by its `maxDigits`. */
const KIND_OF = new Map<CellScan, number>([
  [anyScan, ANY],
  [decimalScan, DECIMAL],
  [floatScan, FLOAT],
  [booleanScan, BOOLEAN],
  [dateScan, DATE],
  [timestampScan, TIMESTAMP],
]);

const kindsKept = new WeakMap<readonly ScannedColumn[], Kinds>();

function kindsOf(columns: readonly ScannedColumn[]): Kinds {
  let kinds = kindsKept.get(columns);
  if (kinds !== undefined) return kinds;
  kinds = { kind: new Uint8Array(columns.length), digits: new Uint8Array(columns.length) };
  for (let i = 0; i < columns.length; i++) {
    const scan = columns[i]!.scan as (CellScan & { maxDigits?: number }) | undefined;
    if (scan === undefined) kinds.kind[i] = NONE;
    else if (scan.maxDigits !== undefined) {
      kinds.kind[i] = INTEGER;
      kinds.digits[i] = scan.maxDigits;
    } else kinds.kind[i] = KIND_OF.get(scan) ?? OTHER;
  }
  kindsKept.set(columns, kinds);
  return kinds;
}

/**
 * Proves the records of `bytes[from..limit]`, where `bytes[limit - 1]` is a line feed (so an unquoted cell
 * always ends before it). A record is one cell per column in their order, cells separated by commas, ended by
 * LF or CRLF; a cell is plain bytes or a quoted run (quotes doubled inside) followed by its delimiter.
 */
export function scanRecords(bytes: Buffer, from: number, limit: number, columns: readonly ScannedColumn[]): ScanResult {
  const last = columns.length - 1;
  const { kind, digits } = kindsOf(columns);
  let records = 0;
  let start = from;
  const result = (stop: ScanResult['stop']): ScanResult => ({ records, end: start, stop });
  const unproven = (column: number, cell: number): ScanResult => ({ records, end: start, stop: 'unproven', column, cell });
  while (start < limit) {
    let at = start;
    const first = bytes[at];
    // An empty line (LF or CRLF) is no record: the tokenizers skip it too.
    if (first === LF) {
      start = at + 1;
      continue;
    }
    if (first === CR && bytes[at + 1] === LF) {
      start = at + 2;
      continue;
    }
    for (let i = 0; i <= last; i++) {
      const column = columns[i]!;
      let end: number;
      if (bytes[at] === QUOTE) {
        // A quoted cell: up to the quote that is not doubled; past the last line feed, the record is not whole yet.
        let close = at + 1;
        let doubled = false;
        for (;;) {
          close = bytes.indexOf(QUOTE, close);
          if (close < 0 || close >= limit) return result('more');
          if (bytes[close + 1] !== QUOTE) break;
          doubled = true;
          close += 2;
        }
        const inner = at + 1;
        if (close > inner && column.scan !== anyScan && !(!doubled && column.scan?.(bytes, inner) === close) && !checked(column, bytes, inner, close, doubled))
          return unproven(i, at);
        end = close + 1;
      } else {
        const c = bytes[at];
        if (c === COMMA || c === LF || c === CR) end = at;
        else {
          switch (kind[i]) {
            case ANY:
              end = anyScan(bytes, at);
              break;
            case INTEGER:
              end = integerAt(bytes, at, digits[i]!);
              break;
            case DECIMAL:
              end = decimalScan(bytes, at);
              break;
            case FLOAT:
              end = floatScan(bytes, at);
              break;
            case BOOLEAN:
              end = booleanScan(bytes, at);
              break;
            case DATE:
              end = dateScan(bytes, at);
              break;
            case TIMESTAMP:
              end = timestampScan(bytes, at);
              break;
            case NONE:
              end = -1;
              break;
            default:
              // A scanner this file does not export (none today): called as it is.
              end = column.scan!(bytes, at);
          }
          const stop = end < 0 ? -1 : bytes[end];
          if (stop !== COMMA && stop !== LF && stop !== CR) {
            end = anyScan(bytes, at);
            if (bytes[end] === QUOTE || !checked(column, bytes, at, end, false)) return unproven(i, at);
          }
        }
      }
      const delimiter = bytes[end];
      if (i < last) {
        if (delimiter !== COMMA) return unproven(i, at);
      } else if (delimiter === CR && bytes[end + 1] === LF) end += 1;
      else if (delimiter !== LF) return unproven(i, at);
      at = end + 1;
    }
    records++;
    start = at;
  }
  return result('more');
}
