// One read column's values for an ARROW read of CSV bytes (docs/datasets.md, "CSV -> ARROW from the bytes"):
// a slot per header position that a read column takes, filled a record at a time by csv-cells.ts into arrays
// reused from stretch to stretch, then made into exact Arrow data once per stretch. The arrays are laid out
// as arrow-vectors.ts lays out the same cells (nulls hold zero; a validity bitmap only when there is a null).
import { makeData, type Bool, type Data, type Utf8 } from 'apache-arrow';
import { columnData } from './arrow-vectors.js';
import { putMicros } from './instant-text.js';
import type { Cell, Column } from './columns.js';
import { FLOAT_MAX } from './cell-rules.js';

/** How a slot's cells are read and kept. */
export const Kind = { STRING: 1, DOUBLE: 2, FLOAT: 3, INTEGER: 4, DATE: 5, BOOLEAN: 6, LONG: 7, TIMESTAMP: 8, OTHER: 9 } as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

const KINDS: Record<string, Kind> = {
  STRING: Kind.STRING,
  DOUBLE: Kind.DOUBLE,
  FLOAT: Kind.FLOAT,
  INTEGER: Kind.INTEGER,
  SHORT: Kind.INTEGER,
  BYTE: Kind.INTEGER,
  DATE: Kind.DATE,
  BOOLEAN: Kind.BOOLEAN,
  LONG: Kind.LONG,
  TIMESTAMP: Kind.TIMESTAMP,
};
/** The integer types' and FLOAT's ranges (a plain value outside is left to fromText, which refuses it). */
const RANGES: Record<string, [number, number]> = {
  INTEGER: [-(2 ** 31), 2 ** 31 - 1],
  SHORT: [-(2 ** 15), 2 ** 15 - 1],
  BYTE: [-128, 127],
  FLOAT: [-FLOAT_MAX, FLOAT_MAX],
};
const TWO_32 = 4294967296;
const EMPTY_I32 = new Int32Array(0);

/** A cell's text as the tokenizers give it: decoded, and its doubled quotes undone. */
export const textOf = (b: Buffer, s: number, e: number, doubled: boolean): string =>
  doubled ? b.toString('utf8', s, e).replaceAll('""', '"') : b.toString('utf8', s, e);

export class Slot {
  readonly kind: Kind;
  readonly min: number;
  readonly max: number;
  /** STRING: each cell's bytes; a start stored as `-1 - start` marks doubled quotes inside. */
  starts = EMPTY_I32;
  ends = EMPTY_I32;
  /** DOUBLE, FLOAT, INTEGER, DATE (days), BOOLEAN (1/0). */
  numbers = new Float64Array(0);
  /** LONG and TIMESTAMP (microseconds): Int64 as two 32-bit words, or a bigint where fromText gave one. */
  longs = new BigInt64Array(0);
  words = new Uint32Array(0);
  /** Other types: fromText's cells. */
  cells: Cell[] = [];
  /** The records whose cell is null, in order. */
  nulls = EMPTY_I32;
  nullCount = 0;
  private capacity = 0;

  constructor(readonly column: Column) {
    this.kind = KINDS[column.schemaType] ?? Kind.OTHER;
    [this.min, this.max] = RANGES[column.schemaType] ?? [-Infinity, Infinity];
  }

  /** A new stretch: no nulls yet. */
  begin(): void {
    this.nullCount = 0;
  }

  /** Room for `records` records, what is held kept (grown only). */
  reserve(records: number): void {
    if (records <= this.capacity) return;
    const n = (this.capacity = Math.max(records, this.capacity * 2));
    const grown = <A extends Int32Array | Float64Array | BigInt64Array>(old: A, make: new (n: number) => A): A => {
      const out = new make(n);
      out.set(old as never);
      return out;
    };
    this.nulls = grown(this.nulls, Int32Array);
    if (this.kind === Kind.STRING) {
      this.starts = grown(this.starts, Int32Array);
      this.ends = grown(this.ends, Int32Array);
    } else if (this.kind === Kind.LONG || this.kind === Kind.TIMESTAMP) {
      this.longs = grown(this.longs, BigInt64Array);
      this.words = new Uint32Array(this.longs.buffer);
    } else if (this.kind === Kind.OTHER) this.cells.length = n;
    else this.numbers = grown(this.numbers, Float64Array);
  }

  /** Record r is null: zero where its value would be (the arrays are reused). */
  null(r: number): void {
    this.nulls[this.nullCount++] = r;
    if (this.kind === Kind.LONG || this.kind === Kind.TIMESTAMP) this.longs[r] = 0n;
    else this.numbers[r] = 0;
  }

  /** An Int64 value (a long, or a timestamp's microseconds) from a number, as arrow-vectors.ts writes it. */
  long(r: number, value: number): void {
    const high = Math.floor(value / TWO_32);
    this.words[2 * r] = value - high * TWO_32;
    this.words[2 * r + 1] = high;
  }

  /** A TIMESTAMP's milliseconds as its microseconds (exactly: instant-text.ts). */
  micros(r: number, ms: number): void {
    putMicros(this.words, r, ms);
  }

  /** The value fromText gave for a cell no plain reader took. */
  put(r: number, cell: Cell): void {
    switch (this.kind) {
      case Kind.LONG:
        // A bigint is assigned as arrow-vectors.ts assigns it (wrapping past 64 bits, as it does).
        this.longs[r] = cell as bigint;
        return;
      case Kind.TIMESTAMP:
        return this.micros(r, cell as number);
      case Kind.DATE:
        this.numbers[r] = Math.floor((cell as number) / 86_400_000);
        return;
      case Kind.BOOLEAN:
        this.numbers[r] = cell === true ? 1 : 0;
        return;
      case Kind.OTHER:
        this.cells[r] = cell;
        return;
      default:
        this.numbers[r] = cell as number;
    }
  }

  /** Records 0..n as the column's Arrow data (fresh arrays: the slot's are reused). */
  finish(b: Buffer, n: number): Data {
    const { type } = this.column;
    if (this.kind === Kind.OTHER) return columnData(type, this.cells.slice(0, n), n);
    if (this.kind === Kind.STRING) return strings(type as Utf8, b, this.starts, this.ends, n);
    let nullCount = this.nullCount;
    while (nullCount > 0 && this.nulls[nullCount - 1]! >= n) nullCount--;
    const base = { length: n, nullCount, ...(nullCount > 0 ? { nullBitmap: validity(this.nulls, nullCount, n) } : {}) };
    if (this.kind === Kind.LONG || this.kind === Kind.TIMESTAMP) return makeData({ type, ...base, data: this.longs.slice(0, n) } as never);
    if (this.kind === Kind.BOOLEAN) return makeData({ type: type as Bool, ...base, data: bits(this.numbers, n) });
    const values = this.numbers.subarray(0, n);
    const Array = ARRAYS[this.column.schemaType] ?? Float64Array;
    return makeData({ type, ...base, data: new Array(values) } as never);
  }
}

const ARRAYS: Record<string, new (values: Float64Array) => ArrayLike<number>> = {
  FLOAT: Float32Array,
  INTEGER: Int32Array,
  SHORT: Int16Array,
  BYTE: Int8Array,
  DATE: Int32Array,
};

/** All n bits set but the null records'. */
function validity(nulls: Int32Array, count: number, n: number): Uint8Array {
  const out = new Uint8Array((n + 7) >> 3).fill(255);
  for (let i = 0; i < count; i++) out[nulls[i]! >> 3]! &= ~(1 << (nulls[i]! & 7));
  return out;
}

function bits(values: Float64Array, n: number): Uint8Array {
  const out = new Uint8Array((n + 7) >> 3);
  for (let i = 0; i < n; i++) if (values[i] === 1) out[i >> 3]! |= 1 << (i & 7);
  return out;
}

/** STRING cells: their bytes copied once into one buffer (doubled quotes written once), with offsets; never null. */
function strings(type: Utf8, b: Buffer, starts: Int32Array, ends: Int32Array, n: number): Data<Utf8> {
  let total = 0;
  for (let i = 0; i < n; i++) total += ends[i]! - (starts[i]! < 0 ? -1 - starts[i]! : starts[i]!);
  const data = new Uint8Array(total);
  const valueOffsets = new Int32Array(n + 1);
  let at = 0;
  for (let i = 0; i < n; i++) {
    valueOffsets[i] = at;
    const s = starts[i]!;
    const e = ends[i]!;
    if (s < 0) {
      for (let j = -1 - s; j < e; j++) {
        const c = b[j]!;
        data[at++] = c;
        if (c === 34) j++;
      }
    } else if (e - s < 32) for (let j = s; j < e; j++) data[at++] = b[j]!;
    else at += b.copy(data, at, s, e);
  }
  valueOffsets[n] = at;
  return makeData({ type, length: n, nullCount: 0, valueOffsets, data: data.subarray(0, at) });
}
