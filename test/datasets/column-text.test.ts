// Parquet to CSV written a column at a time (table/column-text.ts, docs/datasets.md "Parquet to CSV") must give
// the bytes the per-value way gave before it (each cell's toText, quoted where needed, rows joined): compared
// here over every schema type, nulls, quotes, commas, line breaks, unicode, edge numbers and instants beyond the
// fast way's range (where both must fail alike).
import { describe, expect, it } from 'vitest';
import type { Data } from 'apache-arrow';
import { Bool, DateDay, Float32, Float64, Int16, Int32, Int64, Int8, TimestampMicrosecond, Utf8, makeData, vectorFromArray, type DataType } from 'apache-arrow';
import { cellsOf, type ColumnBatch } from '../../src/services/datasets/table/arrow-vectors.js';
import { csvBatch } from '../../src/services/datasets/table/column-text.js';
import { csvField } from '../../src/services/datasets/table/encode.js';
import { planColumns } from '../../src/services/datasets/table/read-table.js';
import type { Cell, Column } from '../../src/services/datasets/table/columns.js';
import type { DatasetSchema } from '../../src/services/datasets/model.js';

/** The formatter as it was before column-text.ts (encode.ts's csvText), kept here as the reference. */
function perValue(columns: readonly Column[], cells: ColumnBatch['columns'], length: number): string {
  const texts = columns.map((c, i) => {
    const column = cellsOf(cells[i]!);
    const out = new Array<string>(length);
    for (let r = 0; r < length; r++) out[r] = csvField(c.toText((column[r] ?? null) as Cell));
    return out;
  });
  const lines = new Array<string>(length);
  for (let r = 0; r < length; r++) {
    let line = texts[0]![r]!;
    for (let i = 1; i < texts.length; i++) line += `,${texts[i]![r]!}`;
    lines[r] = line;
  }
  return length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** What each way answers: its text, or the message it threw. */
function outcome(write: () => string): string {
  try {
    return write();
  } catch (err) {
    return `threw ${(err as Error).message}`;
  }
}

function expectSame(columns: readonly Column[], cells: ColumnBatch['columns'], length: number): void {
  const before = outcome(() => perValue(columns, cells, length));
  const now = outcome(() => csvBatch(columns, cells, length).toString('utf8'));
  expect(now).toBe(before);
}

const schemaOf = (spec: string[]): DatasetSchema => ({
  fieldSchemaList: spec.map((s) => {
    const [name, type, sub] = s.split(':');
    return { name: name!, type: type!, nullable: true, ...(sub ? { arraySubtype: { type: sub, nullable: true } } : {}) };
  }) as DatasetSchema['fieldSchemaList'],
});

const columnsOf = (spec: string[]): Column[] => {
  const columns = planColumns(schemaOf(spec), []);
  if (!Array.isArray(columns)) throw new Error(columns.problem);
  return columns;
};

/** Arrow data of a fixed-width type from its values (null: a null slot), as parquet-wasm's batches carry it. */
function fixed<T extends BigInt64Array | Int32Array>(type: DataType, make: new (n: number) => T, values: Array<T[number] | null>): Data {
  const data = new make(values.length);
  const nullBitmap = new Uint8Array((values.length + 7) >> 3);
  let nullCount = 0;
  values.forEach((v, i) => {
    if (v === null) nullCount++;
    else {
      data[i] = v;
      nullBitmap[i >> 3]! |= 1 << (i & 7);
    }
  });
  return makeData({ type, length: values.length, nullCount, ...(nullCount > 0 ? { nullBitmap } : {}), data } as never);
}

const built = (type: DataType, values: unknown[]): Data => vectorFromArray(values as never[], type as never).data[0]! as Data;

/** A small deterministic generator, so that a failure is the same on every run. */
function randomOf(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)]! };
}

const PIECES = ['a', 'B', '7', ' ', ',', '"', '\n', '\r', '\r\n', 'é', 'ß', '漢', '😀', '\uFEFF', '\t', "'", ';'];

describe('CSV written a column at a time', () => {
  it('gives the bytes of the per-value way over every type, nulls, quotes, line breaks, unicode and edge values', () => {
    const columns = columnsOf([
      's:STRING',
      'd:DOUBLE',
      'f:FLOAT',
      'l:LONG',
      'i:INTEGER',
      'h:SHORT',
      'b:BYTE',
      'ok:BOOLEAN',
      'day:DATE',
      'at:TIMESTAMP',
      'dec:DECIMAL',
      'list:ARRAY:INTEGER',
    ]);
    const random = randomOf(21);
    for (let round = 0; round < 40; round++) {
      const n = 1 + random.int(300);
      const maybe = <T>(value: () => T): T | null => (round % 3 === 0 || random.next() > 0.15 ? value() : null);
      // Plain ASCII, ASCII with quotes, commas and line breaks, and any text, by turns (each has its own way).
      const pieces = [PIECES.slice(0, 4), PIECES.slice(0, 9), PIECES][round % 3]!;
      const strings = Array.from({ length: n }, () => maybe(() => Array.from({ length: random.int(6) }, () => random.pick(pieces)).join('')));
      // Values beyond the fast way's range in one round of four only: one such value sends its column the slow way.
      const beyond = round % 4 === 0;
      const doubles = Array.from({ length: n }, () =>
        maybe(() => random.pick([random.next() * 1e6 - 5e5, -0, NaN, Infinity, -Infinity, 1e21, 5e-324, 0.1, 123456789.125, -1e-7])),
      );
      const longs = Array.from({ length: n }, () =>
        maybe(() =>
          random.pick([
            (BigInt(random.int(1e9)) - 500_000_000n) * 10n ** BigInt(random.int(8)),
            2n ** 53n - 1n,
            -(2n ** 53n),
            9n,
            10n,
            -10n,
            999_999_999_999_999n,
            1_000_000_000_000_000n,
            0n,
            ...(beyond ? [2n ** 53n, -(2n ** 63n), 2n ** 63n - 1n] : []),
          ]),
        ),
      );
      const ints = (bits: number) => Array.from({ length: n }, () => maybe(() => random.int(2 ** bits) - 2 ** (bits - 1)));
      const days = Array.from({ length: n }, () =>
        maybe(() => random.pick([random.int(40_000) - 10_000, -719_528, 2_932_896, 0, -1, ...(beyond ? [-719_529, 2_932_897, 100_000_000] : [])])),
      );
      // Microseconds: ordinary, a fraction of a millisecond either side of 0, 2^53 (beyond it apache-arrow rounds
      // or refuses, and so the slow way decides), the four-digit years' ends (which are beyond 2^53 microseconds).
      const micros = Array.from({ length: n }, () =>
        maybe(() =>
          random.pick([
            BigInt(random.int(2e9)) * 1_000_000n + BigInt(random.int(1e6)),
            -1_500n,
            -1n,
            999n,
            2n ** 53n - 1n,
            -(2n ** 53n) + 1n,
            ...(beyond ? [2n ** 53n, -62_167_219_200_000_000n, 253_402_300_799_999_999n, 253_402_300_800_000_000n, 2n ** 60n] : []),
          ]),
        ),
      );
      const cells: ColumnBatch['columns'] = [
        built(new Utf8(), strings),
        built(new Float64(), doubles),
        built(new Float32(), doubles),
        fixed(new Int64(), BigInt64Array, longs),
        built(new Int32(), ints(32)),
        built(new Int16(), ints(16)),
        built(new Int8(), ints(8)),
        built(
          new Bool(),
          strings.map((s) => (s === null ? null : s.length % 2 === 0)),
        ),
        fixed(new DateDay(), Int32Array, days),
        fixed(new TimestampMicrosecond('UTC'), BigInt64Array, micros),
        built(
          new Utf8(),
          doubles.map((d) => (d === null || !Number.isFinite(d) ? null : d.toFixed(3))),
        ),
        ints(8).map((v) => (v === null ? null : [v, v + 1])),
      ];
      // Each column alone too, so that a refusal in one does not hide another's difference.
      for (let c = 0; c < columns.length; c++) expectSame([columns[c]!], [cells[c]!], n);
      // Only the columns the per-value way can write, together: rows joined as before.
      const writable = columns.map((_c, c) => c).filter((c) => !outcome(() => perValue([columns[c]!], [cells[c]!], n)).startsWith('threw'));
      expectSame(
        writable.map((c) => columns[c]!),
        writable.map((c) => cells[c]!),
        n,
      );
    }
  });

  it('writes timestamps read as milliseconds (fractions, NaN, the range ends) and DOUBLE values from Float64Arrays alike', () => {
    const [at, value] = columnsOf(['at:TIMESTAMP', 'value:DOUBLE']);
    const ms = [
      1.5,
      -1.5,
      -0.2,
      0,
      1_767_225_600_123.9,
      -62_167_219_200_000,
      -62_167_219_200_001,
      253_402_300_799_999,
      253_402_300_800_000,
      8.64e15,
      8.64e15 + 1,
    ];
    for (const one of ms) expectSame([at!], [Float64Array.of(one)], 1);
    expectSame([at!], [Float64Array.of(NaN)], 1);
    expectSame([at!, value!], [Float64Array.from(ms), Float64Array.from(ms)], ms.length);
    // A random walk over many days, each millisecond of a day's ends included.
    const random = randomOf(7);
    const walk = Float64Array.from({ length: 5000 }, () => random.int(2 ** 31) * 1000 * (random.next() > 0.5 ? 1 : -1) + random.pick([0, 86_399_999, 1, 999]));
    expectSame([at!], [walk], walk.length);
  });

  it('writes a batch cut by a row limit (sliced Arrow data) as before', () => {
    const [s, l] = columnsOf(['s:STRING', 'l:LONG']);
    const strings = built(new Utf8(), ['a', null, 'b,c', 'd']).slice(1, 3);
    const longs = fixed(new Int64(), BigInt64Array, [1n, null, 3n, 4n]).slice(1, 3);
    expectSame([s!, l!], [strings, longs], 2);
  });
});
