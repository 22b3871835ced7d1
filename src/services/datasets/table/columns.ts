// A schema column as readTable serves it (docs/datasets.md, "Table reads"): its Arrow type, how a CSV cell or a
// Parquet value becomes its value, and how that value is written back as CSV text. One place per type.
import { Bool, DateDay, Field, Float32, Float64, Int16, Int32, Int64, Int8, List, TimestampMicrosecond, Utf8, type DataType } from 'apache-arrow';
import type { FieldSchema } from '../model.js';
import { DECIMAL_TEXT, fail, fitsDecimal, float32, float32Text, numberOf } from './cell-rules.js';
import { anyScan, booleanScan, dateScan, daysInMonth, decimalScan, floatScan, integerScan, timestampScan, type CellScan } from './csv-scan.js';

/** A value as the Arrow builders take it: ms numbers for dates and timestamps, bigint for longs. */
export type Cell = string | number | bigint | boolean | null | Cell[];

export interface Column {
  name: string;
  /** The schema's type name (STRING, LONG, ARRAY, ...): a DECIMAL is Utf8 too, but read otherwise. */
  schemaType: string;
  /** The rule its cells are read by: the type, with a DECIMAL's precision and scale and an ARRAY's item rule. */
  rule: string;
  type: DataType;
  /** From a CSV cell; throws a plain-words message when the text is not of the type. */
  fromText(text: string): Cell;
  /** Throws as fromText would, without building the value (a passthrough read only checks). */
  check(text: string): void;
  /** A faster proof that check accepts a non-empty cell of a larger text; false only means "ask check". */
  scan?: CellScan;
  /** From a decoded Parquet value (number, bigint, Date, string, boolean, array). */
  fromValue(value: unknown): Cell;
  /** As a CSV cell. */
  toText(cell: Cell): string;
}

interface Kind {
  arrow(field: FieldSchema): DataType;
  parse(text: string): Cell;
  /** Cheaper than parse where the value itself costs (a bigint); parse when absent. */
  check?(text: string): void;
  /** A proof that a plain-looking cell passes check (csv-scan.ts); absent: check asks. */
  scan?: CellScan;
  value(v: unknown): Cell;
  text(cell: Cell): string;
  /** An item of an ARRAY cell's JSON, numbers as their text; absent: text is parsed, anything else is a value. */
  fromJson?(v: unknown): Cell;
}

function integer(bits: 8 | 16 | 32, make: () => DataType): Kind {
  const max = 2 ** (bits - 1);
  const check = (n: number, shown: string) => (Number.isInteger(n) && n >= -max && n < max ? n : fail(shown, `a ${bits}-bit integer`));
  return {
    arrow: make,
    // The most digits that are always in range: 99, 9999, 999,999,999.
    scan: integerScan(bits === 8 ? 2 : bits === 16 ? 4 : 9),
    parse: (t) => (/^[+-]?\d+$/.test(t.trim()) ? check(Number(t), t) : fail(t, 'an integer')),
    value: (v) => check(Number(v), String(v)),
    text: (c) => String(c),
  };
}

function floating(bits: 32 | 64, make: () => DataType): Kind {
  const kept = bits === 32 ? float32 : (n: number) => n;
  return {
    arrow: make,
    scan: bits === 32 ? floatScan : decimalScan,
    parse: (t) => kept(numberOf(t), t),
    value: (v) => kept(Number(v), String(v)),
    text: bits === 32 ? (c) => float32Text(Math.fround(Number(c))) : (c) => String(c),
  };
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
/** A LONG outside 64 bits is refused: stored in an Arrow Int64 it would wrap to another number. */
const inLongRange = (n: bigint, shown: string): bigint => (n >= LONG_MIN && n <= LONG_MAX ? n : fail(shown, 'a 64-bit integer'));

function longOf(v: unknown): bigint {
  if (typeof v === 'bigint') return inLongRange(v, String(v));
  if (typeof v === 'number') return Number.isInteger(v) ? inLongRange(BigInt(v), String(v)) : fail(String(v), 'a long integer');
  const t = String(v).trim();
  return /^[+-]?\d+$/.test(t) ? inLongRange(BigInt(t), String(v)) : fail(String(v), 'a long integer');
}

const ms = (v: unknown): number => (v instanceof Date ? v.getTime() : typeof v === 'bigint' ? Number(v) : Number(v));

/** Whether a YYYY-MM-DD match names a day of its month (V8's Date.parse would roll 02-30 on to March). */
const realDay = (m: RegExpExecArray): boolean => {
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
};

// ISO 8601 as CSV writers put it: a date, then optionally `T` (or a space) and a time, then optionally a zone.
const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Milliseconds of an ISO 8601 timestamp, NaN for anything else. No zone means UTC: the same file reads the
 * same on every host (Date.parse would take it as the host's local time). Past milliseconds is cut.
 */
function isoMillis(text: string): number {
  const m = ISO_TIMESTAMP.exec(text);
  if (!m || !realDay(m)) return Number.NaN;
  const [hour, minute, second] = [m[4] ?? '00', m[5] ?? '00', m[6] ?? '00'];
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return Number.NaN;
  const zone = m[8] === undefined || m[8].toUpperCase() === 'Z' ? 'Z' : m[8].length === 3 ? `${m[8]}:00` : `${m[8].slice(0, 3)}:${m[8].slice(-2)}`;
  if (zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) return Number.NaN;
  return Date.parse(`${m[1]}-${m[2]}-${m[3]}T${hour}:${minute}:${second}.${(m[7] ?? '').padEnd(3, '0').slice(0, 3)}${zone}`);
}

/** A DECIMAL with its precision and scale: text that does not fit them is refused, in CSV cells and Parquet values. */
function decimalOf(precision: number, scale: number): Kind {
  const what = `a decimal that fits DECIMAL(${precision}, ${scale}) (at most ${precision - scale} digits before the point and ${scale} after)`;
  const fitting = (t: string, shown: string) => (fitsDecimal(t, precision, scale) ? t : fail(shown, what));
  return {
    ...KINDS.DECIMAL!,
    parse: (t) => fitting(String(KINDS.DECIMAL!.parse(t)), t),
    value: (v) => fitting(String(v), String(v)),
  };
}

const KINDS: Record<string, Kind> = {
  STRING: { arrow: () => new Utf8(), parse: (t) => t, scan: anyScan, value: (v) => String(v), text: (c) => String(c) },
  // Decimals travel as their exact text (an Arrow decimal needs a fixed precision the schema may not give).
  DECIMAL: {
    arrow: () => new Utf8(),
    parse: (t) => (DECIMAL_TEXT.test(t.trim()) ? t.trim() : fail(t, 'a decimal')),
    value: (v) => String(v),
    text: (c) => String(c),
  },
  BYTE: integer(8, () => new Int8()),
  SHORT: integer(16, () => new Int16()),
  INTEGER: integer(32, () => new Int32()),
  LONG: {
    arrow: () => new Int64(),
    parse: (t) => (/^[+-]?\d+$/.test(t.trim()) ? inLongRange(BigInt(t.trim()), t) : fail(t, 'a long integer')),
    // Up to 18 digits always fits; a longer one is range-checked as parse does (an Arrow Int64 would wrap it).
    check: (t) => void (/^\s*[+-]?\d{1,18}\s*$/.test(t) || inLongRange(/^\s*[+-]?\d+\s*$/.test(t) ? BigInt(t.trim()) : fail(t, 'a long integer'), t)),
    scan: integerScan(18),
    // A decoder's bigint, a whole number, or text read as a CSV cell is; a fraction is refused, not cut.
    value: (v) => longOf(v),
    text: (c) => String(c),
  },
  DOUBLE: floating(64, () => new Float64()),
  FLOAT: floating(32, () => new Float32()),
  BOOLEAN: {
    arrow: () => new Bool(),
    scan: booleanScan,
    parse: (t) => (t === 'true' || /^\s*true\s*$/i.test(t) ? true : t === 'false' || /^\s*false\s*$/i.test(t) ? false : fail(t, 'a boolean (true or false)')),
    value: (v) => Boolean(v),
    text: (c) => String(c),
  },
  DATE: {
    arrow: () => new DateDay(),
    scan: dateScan,
    parse: (t) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t.trim());
      return m && realDay(m) ? Date.parse(`${t.trim()}T00:00:00Z`) : fail(t, 'a date (YYYY-MM-DD)');
    },
    // A Date is taken as its instant; a plain number is days since the epoch (as a Parquet DATE is stored).
    value: (v) => (v instanceof Date ? v.getTime() : Number(v) * 86_400_000),
    text: (c) => new Date(Number(c)).toISOString().slice(0, 10),
  },
  TIMESTAMP: {
    arrow: () => new TimestampMicrosecond('UTC'),
    scan: timestampScan,
    parse: (t) => {
      const n = isoMillis(t.trim());
      return Number.isNaN(n) ? fail(t, 'a timestamp (ISO 8601)') : n;
    },
    value: ms,
    // Whole milliseconds cut toward the past: a microsecond before 1970 is still 1969 (Date alone cuts toward zero).
    text: (c) => new Date(Math.floor(Number(c))).toISOString(),
  },
};

/** The field types readTable cannot serve (checked before anything is sent). */
export function unsupportedType(field: FieldSchema): string | undefined {
  if (field.type === 'ARRAY') return field.arraySubtype ? unsupportedType(field.arraySubtype) : 'ARRAY without arraySubtype';
  return KINDS[field.type] ? undefined : field.type;
}

// A JSON string, or a JSON number (whose digits are kept as text: JSON.parse would round a LONG past 2^53 and
// drop a DECIMAL's trailing zeros).
const JSON_TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_TYPES = new Set(['BYTE', 'SHORT', 'INTEGER', 'LONG', 'FLOAT', 'DOUBLE']);

function kindOf(field: FieldSchema): Kind {
  if (field.type === 'DECIMAL' && typeof field.precision === 'number' && typeof field.scale === 'number') return decimalOf(field.precision, field.scale);
  if (field.type !== 'ARRAY') return KINDS[field.type]!;
  const subField = field.arraySubtype!;
  const sub = kindOf(subField);
  // An element from the cell's JSON: a number arrives as its text, and text is read as a CSV cell of the
  // item type would be (so dates, timestamps, longs and decimals keep their meaning).
  // A nested array's items are its own item type's (`[[1, 2], [3]]` for array<array<long>>).
  const item = (v: unknown): Cell => {
    if (v === null || v === undefined) return null;
    if (sub.fromJson) return sub.fromJson(v);
    if (typeof v === 'object') return fail(JSON.stringify(v), `a ${subField.type.toLowerCase()} item`);
    return typeof v === 'string' ? sub.parse(v) : sub.value(v);
  };
  const fromJson = (v: unknown): Cell => (Array.isArray(v) ? v.map(item) : fail(JSON.stringify(v) ?? String(v), 'an array (JSON)'));
  const items = (v: unknown): Cell => (v === null || v === undefined ? null : sub.value(v));
  // An element in the answer's JSON: numbers and booleans bare, decimals bare when JSON allows, the rest quoted.
  const elementText = (c: Cell): string => {
    if (c === null) return 'null';
    const t = sub.text(c);
    if (subField.type === 'ARRAY' || subField.type === 'BOOLEAN') return t;
    if (NUMBER_TYPES.has(subField.type) || subField.type === 'DECIMAL') return JSON_NUMBER.test(t) ? t : JSON.stringify(t);
    return JSON.stringify(t);
  };
  return {
    arrow: (f) => new List(new Field('element', sub.arrow(f.arraySubtype!), true)),
    // An array cell in CSV is JSON: `[1, 2]` or `["a", "b"]`.
    parse: (t) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(t.replace(JSON_TOKEN, (token) => (token[0] === '"' ? token : `"${token}"`)));
      } catch {
        parsed = undefined;
      }
      return Array.isArray(parsed) ? fromJson(parsed) : fail(t, 'an array (JSON)');
    },
    fromJson,
    value: (v) => (Array.isArray(v) ? v.map(items) : fail(String(v), 'an array')),
    text: (c) => (Array.isArray(c) ? `[${c.map(elementText).join(',')}]` : fail(String(c), 'an array')),
  };
}

function ruleOf(field: FieldSchema): string {
  if (field.type === 'ARRAY') return `ARRAY<${ruleOf(field.arraySubtype!)}>`;
  if (field.type === 'DECIMAL' && typeof field.precision === 'number' && typeof field.scale === 'number') return `DECIMAL(${field.precision},${field.scale})`;
  return field.type;
}

export function columnOf(field: FieldSchema, name: string): Column {
  const kind = kindOf(field);
  return {
    name,
    schemaType: field.type,
    rule: ruleOf(field),
    type: kind.arrow(field),
    // An empty CSV cell is null for every type but STRING (docs/datasets.md).
    fromText: (t) => (t === '' && field.type !== 'STRING' ? null : kind.parse(t)),
    check: field.type === 'STRING' ? () => undefined : (t) => void (t === '' || (kind.check ?? kind.parse)(t)),
    ...(kind.scan ? { scan: kind.scan } : {}),
    fromValue: (v) => (v === null || v === undefined ? null : kind.value(v)),
    toText: (c) => (c === null ? '' : kind.text(c)),
  };
}
