// CSV -> ARROW from the bytes (docs/datasets.md, "CSV -> ARROW from the bytes") against the tokenizers' read it
// replaces (csv-source.ts's rows through arrowStream): the same values for every schema type over random files
// (nulls, quotes, CRLF, unicode, plain and odd spellings, out-of-range numbers, bad timestamps), fed in pieces
// cut anywhere (mid-character, mid-quote), and the same error, naming file, line and column, for a refused value.
import { Readable } from 'node:stream';
import { tableFromIPC, type Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { DatasetSchema, FieldSchema } from '../../src/services/datasets/model.js';
import type { Column } from '../../src/services/datasets/table/columns.js';
import { csvRows } from '../../src/services/datasets/table/csv-source.js';
import { arrowStream } from '../../src/services/datasets/table/encode.js';
import { planColumns, tableBytes, type FitMemory } from '../../src/services/datasets/table/read-table.js';

const field = (name: string, type: string): FieldSchema =>
  (type === 'ARRAY' ? { name, type, nullable: true, arraySubtype: { type: 'INTEGER', nullable: true } } : { name, type, nullable: true }) as FieldSchema;
const TYPES = ['STRING', 'DOUBLE', 'FLOAT', 'INTEGER', 'SHORT', 'BYTE', 'LONG', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'DECIMAL', 'ARRAY'];
const SCHEMA: DatasetSchema = { fieldSchemaList: TYPES.map((t) => field(t.toLowerCase(), t)) };
const never: FitMemory = { has: () => false, remember: () => undefined };
/** A seeded generator, so that a failure can be run again. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]! };
}
type Rand = ReturnType<typeof random>;
const pad = (n: number, w: number) => String(n).padStart(w, '0');
const date = (r: Rand) => `${pad(r.pick([1970, 1969, 2026, 2000, 1900, 2400, 9999, 1, 1600]), 4)}-${pad(1 + r.int(12), 2)}-${pad(1 + r.int(31), 2)}`;
const time = (r: Rand) =>
  `${pad(r.int(24), 2)}:${pad(r.int(60), 2)}${r.next() < 0.8 ? `:${pad(r.int(60), 2)}${r.next() < 0.5 ? `.${String(r.int(1000)).slice(0, 1 + r.int(3))}` : ''}` : ''}`;
const zone = (r: Rand) => r.pick(['Z', 'Z', '+05:30', '-08:00', '+00:00', '+23:59', '', 'z', '+0530']);
const ODD: Record<string, string[]> = {
  STRING: ['', ' ', 'a b', 'é', '€uro', '😀', 'x,y', 'say "hi"', 'two\nlines', 'cr\r\nlf', '"', ','],
  DOUBLE: [
    ' 12',
    '1e400',
    '-1e-400',
    '0x1F',
    'NaN',
    'nan',
    'Infinity',
    '-0',
    '-0.0',
    '1.7976931348623157e308',
    '4.9e-324',
    '.5',
    '5.',
    '+.5',
    '1e5',
    '1E-5',
    '123456789012345678',
    '0.1234567890123456789',
    '1e22',
    '1e23',
    '1.',
    '  ',
    'abc',
    '1.2.3',
    '--1',
    '1e',
    '1e+',
  ],
  INTEGER: ['2147483647', '-2147483648', '2147483648', '007', '-0', '+5', ' 5 ', '1.0', '1e3', '99999999999999999999'],
  LONG: ['9223372036854775807', '-9223372036854775808', '99999999999999999999', '123456789012345', '1234567890123456', ' 42', '+7', '-0', '4.5', 'x'],
  BOOLEAN: ['true', 'false', 'TRUE', 'False', ' true ', 'yes', '1'],
  DATE: ['2026-02-30', '2026-13-01', '2026-00-10', '2026-1-1', ' 2026-01-01', '2026-01-32', '0000-01-01', '20260101'],
  TIMESTAMP: [
    '2026-01-01T00:00:00',
    '2026-01-01T24:00:00Z',
    '2026-01-01T00:00:60Z',
    '2026-01-01T00:00:00.1234Z',
    '2026-01-01 00:00:00Z',
    'not a time',
    '2026-01-01',
    '2026-02-30T10:00:00Z',
    '2026-01-01T00:00Z',
    '2026-01-01t00:00:00z',
  ],
  DECIMAL: ['1.50', ' 2 ', '-0.001', '1e3', '.5', 'x'],
  ARRAY: ['[1,2]', '[]', '[null, 3]', '1', '[1,'],
};
ODD.FLOAT = ODD.DOUBLE!;
ODD.SHORT = ['32767', '-32768', '32768', ...ODD.INTEGER!];
ODD.BYTE = ['127', '-128', '128', ...ODD.INTEGER!];
function plainCell(type: string, r: Rand): string {
  switch (type) {
    case 'STRING':
      return r.pick(['s', 'sensor', 'x1', '']) + r.int(100);
    case 'DOUBLE':
    case 'FLOAT':
      return r.pick(['', '-']) + (r.next() * 10 ** r.int(8)).toFixed(r.int(6));
    case 'INTEGER':
    case 'LONG':
      return String(r.int(2_000_000_000) - 1_000_000_000);
    case 'SHORT':
    case 'BYTE':
      return String(r.int(type === 'SHORT' ? 65536 : 256) - (type === 'SHORT' ? 32768 : 128));
    case 'BOOLEAN':
      return r.pick(['true', 'false']);
    case 'DATE':
      return date(r);
    case 'TIMESTAMP':
      return `${date(r)}T${time(r)}${zone(r)}`;
    case 'DECIMAL':
      return (r.next() * 1000).toFixed(3);
    default:
      return `[${r.int(9)},${r.int(9)}]`;
  }
}

/** A cell as CSV text: sometimes empty, sometimes quoted (as it must be when it holds a quote, comma or line break). */
function csvCell(text: string, r: Rand): string {
  const must = /[",\r\n]/.test(text);
  return must || r.next() < 0.1 ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A file of `rows` records; each cell plain, odd, or empty; `keep` says whether a cell may stay (to make files that fit). */
function makeFile(r: Rand, rows: number, keep: (column: Column, text: string) => boolean, crlf = false): string {
  const columns = planColumns(SCHEMA, []) as Column[];
  // The header in another order, with a column the schema does not have.
  const order = [...columns.keys()].sort(() => r.next() - 0.5);
  const eol = crlf ? '\r\n' : '\n';
  const lines = [[...order.map((i) => columns[i]!.name), 'extra'].join(',')];
  for (let row = 0; row < rows; row++) {
    const cells = order.map((i) => {
      const column = columns[i]!;
      const roll = r.next();
      for (let tries = 0; tries < 20; tries++) {
        const text = roll < 0.08 ? '' : roll < 0.3 ? r.pick(ODD[column.schemaType]!) : plainCell(column.schemaType, r);
        if (keep(column, text)) return csvCell(text, r);
      }
      return '';
    });
    lines.push([...cells, csvCell(r.pick(ODD.STRING!), r)].join(','));
    if (r.next() < 0.02) lines.push('');
  }
  return lines.join(eol) + (r.next() < 0.5 ? eol : '');
}

const fits = (column: Column, text: string) => {
  try {
    column.fromText(text);
    return true;
  } catch {
    return false;
  }
};

/** The bytes cut into pieces of random sizes (up to `most`), each its own buffer. */
function piecesOf(bytes: Buffer, r: Rand, most: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = 1 + r.int(most);
    out.push(Buffer.from(bytes.subarray(at, at + size)));
    at += size;
  }
  return out;
}

/** What the read gives: the table, or the error's message. */
async function outcome(read: () => AsyncIterable<Buffer>): Promise<Table | string> {
  const out: Buffer[] = [];
  try {
    for await (const chunk of read()) out.push(chunk);
    return tableFromIPC(Buffer.concat(out));
  } catch (err) {
    return (err as Error).message;
  }
}

function reads(content: Buffer, pieces: Buffer[], wanted: string[] = [], rowLimit?: number) {
  const columns = planColumns(SCHEMA, wanted);
  if (!Array.isArray(columns)) throw new Error(columns.problem);
  const file = { path: 'f.csv', blobId: 'b', size: content.length };
  const source = { open: async () => Readable.from(pieces, { objectMode: false }) };
  const fresh = () => outcome(() => tableBytes('ARROW', [file], source, columns, SCHEMA, rowLimit, never));
  // The read before: the tokenizers' rows, converted by each column's fromText, written by arrowStream.
  const before = () =>
    outcome(() =>
      arrowStream(columns, csvRows('f.csv', Readable.from(pieces, { objectMode: false }), columns, { passthrough: false }) as AsyncIterable<never>),
    );
  return { fresh, before };
}

/** Every value of a table, in a form where -0, NaN and bigints compare exactly. */
function values(table: Table | string, limit = Infinity): unknown {
  if (typeof table === 'string') return table;
  const exact = (v: unknown): unknown =>
    typeof v === 'number'
      ? Object.is(v, -0)
        ? '-0'
        : String(v)
      : typeof v === 'bigint'
        ? `${v}n`
        : v && typeof v === 'object'
          ? Array.from(v as ArrayLike<unknown>, exact)
          : v;
  const rows = Math.min(table.numRows, limit);
  return table.schema.fields.map((f, i) => {
    const column = table.getChildAt(i)!;
    return { name: f.name, type: String(f.type), cells: Array.from({ length: rows }, (_v, r) => (column.isValid(r) ? exact(column.get(r)) : null)) };
  });
}

describe('CSV -> ARROW from the bytes', () => {
  it('gives the values the tokenizers gave, for every schema type, over random files cut into random pieces', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const r = random(seed);
      const content = Buffer.from(`${seed % 3 === 0 ? '\uFEFF' : ''}${makeFile(r, 150, fits, seed % 2 === 0)}`);
      const { fresh, before } = reads(content, piecesOf(content, r, seed % 4 === 0 ? 3 : 400));
      const expected = await before();
      expect(typeof expected, `seed ${seed}: ${String(expected)}`).not.toBe('string');
      expect(values(await fresh()), `seed ${seed}`).toEqual(values(expected));
    }
  });

  it('gives the same values across stretches of 512 KiB, for picked columns in another order, and cut by rowLimit', async () => {
    const r = random(99);
    const content = Buffer.from(makeFile(r, 12_000, fits));
    expect(content.length).toBeGreaterThan(1_100_000);
    const pieces = piecesOf(content, r, 70_000);
    const all = reads(content, pieces);
    expect(values(await all.fresh())).toEqual(values(await all.before()));
    const some = reads(content, pieces, ['timestamp', 'string', 'long', 'string']);
    expect(values(await some.fresh())).toEqual(values(await some.before()));
    const limited = reads(content, pieces, ['double', 'date'], 7000);
    const cut = await limited.fresh();
    expect(typeof cut === 'string' ? cut : cut.numRows).toBe(7000);
    expect(values(cut)).toEqual(values(await limited.before(), 7000));
  });

  it('reads stretches of short records (more than the room first given to them), nulls among them', async () => {
    const r = random(7);
    const lines = Array.from({ length: 300_000 }, () => (r.next() < 0.1 ? '' : String(r.int(200) - 100)));
    const content = Buffer.from(`byte,string\n${lines.map((l) => `${l},${l}`).join('\n')}\n`);
    const { fresh, before } = reads(content, piecesOf(content, r, 100_000), ['byte', 'string']);
    const expected = await before();
    expect(typeof expected === 'string' ? expected : expected.numRows).toBe(300_000);
    expect(values(await fresh())).toEqual(values(expected));
  });

  it('refuses a value that does not fit with the error the tokenizers gave (file, line, column)', async () => {
    let refused = 0;
    for (let seed = 100; seed < 130; seed++) {
      const r = random(seed);
      // Mostly fitting cells, and a few that do not: the first of them (in line, then column order) is named.
      const content = Buffer.from(makeFile(r, 60, (column, text) => fits(column, text) || r.next() < 0.01, seed % 2 === 0));
      const { fresh, before } = reads(content, piecesOf(content, r, seed % 3 === 0 ? 5 : 2000));
      const expected = await before();
      if (typeof expected === 'string') refused++;
      expect(values(await fresh()), `seed ${seed}`).toEqual(values(expected));
    }
    expect(refused).toBeGreaterThan(10);
  });

  it('leaves ragged lines, stray quotes, lone carriage returns and mixed line ends to the tokenizers, with their answer', async () => {
    const head = 'string,double,long,timestamp\n';
    const good = 'a,1.5,1,2026-01-01T00:00:00Z\n';
    const many = good.repeat(20_000);
    const schema4 = ['string', 'double', 'long', 'timestamp'];
    const cases = [
      `${head}${many}b,2\n${good}`,
      `${head}${many}b,2,3,2026-01-01T00:00:00Z,x\n`,
      `${head}${many}b"c,2,3,2026-01-01T00:00:00Z\n`,
      `${head}${many}"b"c,2,3,2026-01-01T00:00:00Z\n`,
      `${head}${many}"unclosed,2,3,2026-01-01T00:00:00Z\n`,
      `${head}${many}a,1,1,2026-01-01T00:00:00Z\rb,2,2,2026-01-02T00:00:00Z\n`,
      `${head}${many}a,1,1,2026-01-01T00:00:00Z\r\n${good}`,
      `${head.replace('\n', '\r\n')}${good.replace('\n', '\r\n').repeat(3)}${good}`,
      `${head}${many}a,1,x,2026-01-01T00:00:00Z\n`,
      `${head}${many}a,1,1,2026-01-01T00:00:99Z\n`,
      `"string",double,long,timestamp\n${good}`,
      `string,double,timestamp\n${good}`,
      `${head}${many.slice(0, -1)}`,
    ];
    const schema = { fieldSchemaList: SCHEMA.fieldSchemaList.filter((f) => schema4.includes(f.name!)) };
    const columns = planColumns(schema, []) as Column[];
    for (const [i, text] of cases.entries()) {
      const content = Buffer.from(text);
      const pieces = piecesOf(content, random(i), 50_000);
      const open = async () => Readable.from(pieces, { objectMode: false });
      const file = { path: 'f.csv', blobId: 'b', size: content.length };
      const fresh = await outcome(() => tableBytes('ARROW', [file], { open }, columns, schema, undefined, never));
      const before = await outcome(() =>
        arrowStream(columns, csvRows('f.csv', Readable.from(pieces), columns, { passthrough: false }) as AsyncIterable<never>),
      );
      // csv-parse counts lines from where it was handed the file, which is later here: its own "at line" differs.
      const same = (v: unknown) => (typeof v === 'string' ? v.replace(/ at line \d+/, ' at line N') : values(v as Table));
      expect(same(fresh), `case ${i}`).toEqual(same(before));
    }
  });

  it('reads bytes that are not UTF-8 as U+FFFD, as the tokenizers do', async () => {
    const content = Buffer.concat([Buffer.from('string,long\na'), Buffer.from([0xff, 0xc3]), Buffer.from(',1\n"\xe9",2\n')]);
    const { fresh, before } = reads(content, [content], ['string', 'long']);
    const expected = await before();
    expect(values(await fresh())).toEqual(values(expected));
    expect(typeof expected === 'string' ? expected : expected.getChild('string')!.get(0)).toBe('a\uFFFD\uFFFD');
  });
});
