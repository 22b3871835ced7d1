// What a CSV file's cells plainly are, learned from its bytes as an upload arrives (docs/datasets.md, "CSV files
// learned at upload"): for each column, the family of plain forms every non-empty cell has (integers with their
// most digits, decimals, booleans, dates, timestamps, or text). The records are walked by the byte scan itself
// (csv-scan.ts scanRecords) with a column per family: a cell its column's family does not take stops the scan,
// that column's family is widened to take it (or to text), and the scan goes on from that record. So whatever the
// learning claims, the scan has proven; a file it cannot walk (a stray quote, a ragged line) is learned nothing of.
import {
  anyScan,
  booleanScan,
  dateScan,
  decimalScan,
  integerAt,
  integerScan,
  scanRecords,
  timestampScan,
  type ScanResult,
  type ScannedColumn,
} from './csv-scan.js';
import { namesFit } from './csv-header.js';

const COMMA = 44;
const LF = 10;
const CR = 13;
const QUOTE = 34;

/** Families: no non-empty cell yet, one plain form, or text (any cell). */
const UNSEEN = 0;
const INTEGER = 1;
const DECIMAL = 2;
const BOOLEAN = 3;
const DATE = 4;
const TIMESTAMP = 5;
const TEXT = 6;

/** The digit counts the integer types always hold (BYTE, SHORT, INTEGER, LONG): an integer column's levels. */
const LEVELS = [2, 4, 9, 18] as const;
const INTEGER_SCANS = new Map(LEVELS.map((digits) => [digits, integerScan(digits)]));

/** What was learned of one file: its header's names, and per column its family and (integers) the digits it allows. */
export interface CsvProfile {
  names: string[];
  family: Uint8Array;
  digits: Uint8Array;
}

export function newProfile(names: string[]): CsvProfile {
  return { names, family: new Uint8Array(names.length), digits: new Uint8Array(names.length) };
}

/** A cell its family's scanner does not take is not learned: the column is widened instead. */
const notLearned = (): never => {
  throw new Error('not a plain form of the column');
};

/** The scan's column for a family: its scanner, and a check that takes nothing more (text takes anything). */
function scannedColumn(family: number, digits: number): ScannedColumn {
  switch (family) {
    case UNSEEN:
      // No scanner: the first non-empty cell stops the scan and picks the family.
      return { check: notLearned };
    case INTEGER:
      return { scan: INTEGER_SCANS.get(digits as (typeof LEVELS)[number])!, check: notLearned };
    case DECIMAL:
      return { scan: decimalScan, check: notLearned };
    case BOOLEAN:
      return { scan: booleanScan, check: notLearned };
    case DATE:
      return { scan: dateScan, check: notLearned };
    case TIMESTAMP:
      return { scan: timestampScan, check: notLearned };
    default:
      return { scan: anyScan, check: () => undefined };
  }
}

/** The scan's columns for a profile as it stands, made again only when a family widens. */
const columnsKept = new WeakMap<CsvProfile, ScannedColumn[]>();
function columnsOf(profile: CsvProfile): ScannedColumn[] {
  let columns = columnsKept.get(profile);
  if (!columns) {
    columns = Array.from(profile.family, (family, i) => scannedColumn(family, profile.digits[i]!));
    columnsKept.set(profile, columns);
  }
  return columns;
}

const endsCell = (b: Uint8Array, end: number) => end >= 0 && (b[end] === COMMA || b[end] === LF || b[end] === CR);

/** The family of one unquoted cell (and, for an integer, the level its digits need). */
function familyOf(b: Uint8Array, at: number): { family: number; digits: number } {
  const end = integerAt(b, at, 18);
  if (endsCell(b, end)) {
    const count = end - at - (b[at] === 43 || b[at] === 45 ? 1 : 0);
    return { family: INTEGER, digits: LEVELS.find((level) => count <= level)! };
  }
  if (endsCell(b, decimalScan(b, at))) return { family: DECIMAL, digits: 0 };
  if (endsCell(b, booleanScan(b, at))) return { family: BOOLEAN, digits: 0 };
  if (endsCell(b, timestampScan(b, at))) return { family: TIMESTAMP, digits: 0 };
  if (endsCell(b, dateScan(b, at))) return { family: DATE, digits: 0 };
  return { family: TEXT, digits: 0 };
}

/**
 * Widens column `i` to take the cell at `cell` that stopped the scan; false when nothing wider helps (the column
 * is text already, or the cell is of its family: what stopped the scan is the record's shape).
 */
function widen(profile: CsvProfile, i: number, bytes: Uint8Array, cell: number): boolean {
  const { family, digits } = profile;
  const was = family[i]!;
  if (was === TEXT) return false;
  const found = bytes[cell] === QUOTE ? { family: TEXT, digits: 0 } : familyOf(bytes, cell);
  let next = { family: TEXT, digits: 0 };
  if (was === UNSEEN) next = found;
  else if (was === INTEGER && found.family === INTEGER) next = { family: INTEGER, digits: Math.max(digits[i]!, found.digits) };
  else if ((was === INTEGER && found.family === DECIMAL) || (was === DECIMAL && found.family === INTEGER)) next = { family: DECIMAL, digits: 0 };
  else if (was === found.family) next = found;
  if (next.family === was && next.digits === digits[i]) return false;
  family[i] = next.family;
  digits[i] = next.digits;
  columnsKept.delete(profile);
  return true;
}

/**
 * Learns the records of `bytes[from..limit]` (whole lines: `bytes[limit - 1]` is a line feed) into `profile`.
 * Stops with 'more' where a quoted cell runs past `limit`, and with 'unproven' where a record cannot be walked.
 */
export function learnRecords(bytes: Buffer, from: number, limit: number, profile: CsvProfile): ScanResult {
  let records = 0;
  let start = from;
  for (;;) {
    const scan = scanRecords(bytes, start, limit, columnsOf(profile));
    records += scan.records;
    if (scan.stop === 'more' || !widen(profile, scan.column!, bytes, scan.cell!)) return { records, end: scan.end, stop: scan.stop };
    start = scan.end;
  }
}

/** Whether every cell of a column learned as `family` (integers: within `digits`) passes the byte scan of `schemaType`. */
export function familyFits(family: number, digits: number, schemaType: string): boolean {
  if (schemaType === 'STRING') return true;
  const seen = family !== UNSEEN;
  switch (schemaType) {
    case 'BYTE':
      return !seen || (family === INTEGER && digits <= 2);
    case 'SHORT':
      return !seen || (family === INTEGER && digits <= 4);
    case 'INTEGER':
      return !seen || (family === INTEGER && digits <= 9);
    case 'LONG':
      return !seen || family === INTEGER;
    case 'DOUBLE':
      return !seen || family === INTEGER || family === DECIMAL;
    case 'FLOAT':
      // A decimal may have an exponent past float32's range, which FLOAT refuses: only its check proves it.
      return !seen || family === INTEGER;
    case 'BOOLEAN':
      return !seen || family === BOOLEAN;
    case 'DATE':
      return !seen || family === DATE;
    case 'TIMESTAMP':
      return !seen || family === TIMESTAMP;
    default:
      // DECIMAL and ARRAY cells are proven only by their checks: the learning claims nothing of them.
      return false;
  }
}

/** Whether a passthrough read of `columns` (names in order, schema types) may send this file unchecked. */
export function profileFits(profile: CsvProfile, columns: readonly { name: string; schemaType: string }[]): boolean {
  const { names, family, digits } = profile;
  // The header-row rule of a passthrough read (csv-header.ts).
  if (!namesFit(names, columns)) return false;
  return columns.every((c, i) => familyFits(family[i]!, digits[i]!, c.schemaType));
}
