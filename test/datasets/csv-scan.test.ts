// The fast scan of a first passthrough read (docs/datasets.md, "CSV: the byte scan and passthrough"): each
// type's scanner accepts nothing its column's check refuses (random cells), proves the plain forms, and a read
// whose later pieces it cannot prove (a bad value, an empty line, a carriage return) answers as before.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MemoryBlobs } from '../../src/blobs/memory-blobs.js';
import type { DatasetSchema, FileRecord } from '../../src/services/datasets/model.js';
import { columnOf } from '../../src/services/datasets/table/columns.js';
import { PIECE_BYTES } from '../../src/services/datasets/table/csv-records.js';
import { scanRecords } from '../../src/services/datasets/table/csv-scan.js';
import { planColumns, tableBytes, TableReadError } from '../../src/services/datasets/table/read-table.js';

const TYPES = ['STRING', 'DOUBLE', 'FLOAT', 'LONG', 'INTEGER', 'SHORT', 'BYTE', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'DECIMAL'] as const;
const passes = (type: string, cell: string) => {
  try {
    columnOf({ name: 'c', type, nullable: true }, 'c').check(cell);
    return true;
  } catch {
    return false;
  }
};
/** The scanner proves the cell when it stops exactly at its end (here a comma). */
const scans = (type: string, cell: string) => {
  const bytes = Buffer.from(`x${cell},`);
  return columnOf({ name: 'c', type, nullable: true }, 'c').scan?.(bytes, 1) === bytes.length - 1;
};
const scan = (body: string, columns: Parameters<typeof scanRecords>[3]) => {
  const bytes = Buffer.from(body);
  return scanRecords(bytes, 0, bytes.lastIndexOf(10) + 1, columns);
};

/** A random cell from characters that numbers, booleans and timestamps are made of (a seeded generator). */
function randomCells(count: number): string[] {
  let seed = 21;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const alphabet = '0123456789+-.eE:TZ tfrueals';
  const cells: string[] = [];
  for (let i = 0; i < count; i++) {
    let cell = '';
    const length = 1 + Math.floor(next() * 12);
    for (let j = 0; j < length; j++) cell += alphabet[Math.floor(next() * alphabet.length)];
    cells.push(cell);
  }
  // Near-misses of the plain forms: out-of-range fields, long fractions, odd zones.
  for (const at of ['2026-01-01T00:00:00Z', '2026-02-28T23:59:59.999+05:30', '2026-01-01']) {
    for (let i = 0; i < at.length; i++) for (const c of '0129:-+.TZ') cells.push(at.slice(0, i) + c + at.slice(i + 1));
    cells.push(`${at}0`, `${at}Z`, at.slice(0, -1));
  }
  return cells;
}

/** A CSV read of `content` stored as `path` in a memory byte store: the answer's text, or a TableReadError's message. */
function passthroughRead(schema: DatasetSchema, path: string): (content: string) => Promise<string> {
  const blobs = new MemoryBlobs();
  const columns = planColumns(schema, []);
  if (!Array.isArray(columns)) throw new Error(columns.problem);
  return async (content) => {
    const info = await blobs.put(Readable.from([Buffer.from(content)]), { maxBytes: 1e9 });
    const file: FileRecord = { transactionRid: 't', path, blobId: info.blobId, size: info.size, updatedTime: '' };
    const out: Buffer[] = [];
    try {
      for await (const chunk of tableBytes('CSV', [file], blobs, columns, schema)) out.push(chunk);
    } catch (err) {
      return err instanceof TableReadError ? err.message : `not a TableReadError: ${String(err)}`;
    }
    return Buffer.concat(out).toString('utf8');
  };
}

describe('the first-read CSV scan', () => {
  it('accepts no cell that the column check refuses, and proves the plain forms', () => {
    for (const type of TYPES)
      for (const cell of randomCells(20_000)) if (scans(type, cell)) expect([type, cell, passes(type, cell)]).toEqual([type, cell, true]);
    const plain: Array<[string, string]> = [
      ['DOUBLE', '-12.5e-3'],
      ['DOUBLE', '.5'],
      ['LONG', '-9007199254740993'],
      ['INTEGER', '123456789'],
      ['BYTE', '-99'],
      ['BOOLEAN', 'false'],
      ['DATE', '2026-12-28'],
      ['TIMESTAMP', '2026-01-01T00:00:00Z'],
      ['TIMESTAMP', '2026-01-01T10:20:30.123+02:00'],
      ['TIMESTAMP', '2026-01-01T10:20'],
      ['STRING', 'anything: really'],
    ];
    for (const [type, cell] of plain) expect([type, cell, scans(type, cell)]).toEqual([type, cell, true]);
    // Valid but not plain: left to the check (scan false), which accepts them.
    for (const [type, cell] of [
      ['DOUBLE', 'NaN'],
      ['DOUBLE', ' 1'],
      ['INTEGER', '1234567890'],
      ['BOOLEAN', 'TRUE'],
      ['DATE', '2026-01-31'],
    ] as const)
      expect([cell, scans(type, cell), passes(type, cell)]).toEqual([cell, false, true]);
  });

  it('proves a record, whatever scanner its columns dispatch to, exactly when every column check passes', () => {
    // scanRecords picks each column's scanner by kind (integers with their own digit limits): a wrong pick
    // would prove a cell the check refuses, or refuse one it passes.
    const cells = randomCells(5_000);
    for (const type of TYPES) {
      const columns = [columnOf({ name: 'c', type, nullable: true }, 'c'), columnOf({ name: 'd', type: 'STRING', nullable: true }, 'd')];
      for (const cell of cells) expect([type, cell, scan(`${cell},x\n`, columns).records === 1]).toEqual([type, cell, passes(type, cell)]);
    }
    const wide = ['9', '99', '9999', '999999999', '999999999999999999'];
    for (const [type, digits] of [
      ['BYTE', 2],
      ['SHORT', 4],
      ['INTEGER', 9],
      ['LONG', 18],
    ] as const) {
      const columns = [columnOf({ name: 'c', type, nullable: true }, 'c')];
      for (const cell of wide) expect([type, cell, scan(`${cell}\n`, columns).records]).toEqual([type, cell, passes(type, cell) ? 1 : 0]);
      expect(scan(`${'1'.repeat(digits)}\n`, columns).records).toBe(passes(type, '1'.repeat(digits)) ? 1 : 0);
    }
  });

  it('counts the records of whole lines that fit, and proves nothing it cannot', () => {
    const columns = planColumns(
      {
        fieldSchemaList: [
          { name: 's', type: 'STRING', nullable: true },
          { name: 'n', type: 'LONG', nullable: true },
          { name: 'd', type: 'DECIMAL', nullable: true },
        ],
      },
      [],
    );
    if (!Array.isArray(columns)) throw new Error(columns.problem);
    expect(scan('a,1,1.50\n,,\nb, 2 ,-3\n', columns)).toEqual({ records: 3, end: 21, stop: 'more' });
    // Empty lines are no records; CRLF ends a record; quoted cells are unquoted for their check.
    expect(scan('a,1,1\n\nb,2,2\r\n\r\n"c,""d""\n","3",""\n', columns)).toEqual({ records: 3, end: 34, stop: 'more' });
    // A record whose quoted cell goes on past the last line feed waits for more bytes.
    expect(scan('a,1,1\n"b\nc', columns)).toEqual({ records: 1, end: 6, stop: 'more' });
    for (const [body, end] of [
      ['a,1\n', 0],
      ['a,1,1,1\n', 0],
      ['a,1,1\na,x,1\n', 6],
      ['a,1,1\r\n', -1],
      ['a,1,1\rb,2,2\n', 0],
      ['a"b,1,1\n', 0],
      ['"a"b,1,1\n', 0],
      ['"a" ,1,1\n', 0],
      ['a,"x",1\n', 0],
    ] as const) {
      const result = scan(body, columns);
      if (end < 0) expect([body, result.stop]).toEqual([body, 'more']);
      else expect([body, result.stop, result.end]).toEqual([body, 'unproven', end]);
    }
  });

  it('leaves a read past the first piece as it was: the same text, and a bad value named by line and column', async () => {
    const header = 'sensor,value,count,at\n';
    const good = 'a,1.5,1,2026-01-01T00:00:00Z\n';
    const lines = Math.ceil((3 * PIECE_BYTES) / good.length);
    const schema = {
      fieldSchemaList: ['sensor:STRING', 'value:DOUBLE', 'count:LONG', 'at:TIMESTAMP'].map((s) => ({
        name: s.split(':')[0]!,
        type: s.split(':')[1]!,
        nullable: true,
      })),
    };
    const read = passthroughRead(schema, 'big.csv');
    const odd = `${good.repeat(lines)}\nb,2, 3 ,2026-01-31T00:00:00Z\r\n${good.repeat(lines)}`;
    expect(await read(header + odd)).toBe(header + odd);
    expect(await read(`${header}${good.repeat(lines)}b,2,3,2026-13-01T00:00:00Z\n${good}`)).toBe(
      `big.csv line ${lines + 2}, column "at": "2026-13-01T00:00:00Z" is not a timestamp (ISO 8601)`,
    );
  });

  it("sends a file's own bytes whatever falls on the edge of a stored chunk or a piece", async () => {
    // Pieces are read in place, cut at line ends (csv-bytes.ts lineAligned): records of random lengths put every
    // kind of line across the 256 KiB pieces and 1 MiB chunks of a few MB: CRLF, quoted cells holding line
    // breaks and doubled quotes, a last line with no line break, and a line longer than any record may be.
    const schema = { fieldSchemaList: ['a', 'b', 'n'].map((name) => ({ name, type: name === 'n' ? 'LONG' : 'STRING', nullable: true })) };
    const read = passthroughRead(schema, 'edges.csv');
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const word = () => 'x'.repeat(1 + Math.floor(next() * 40));
    const lines: string[] = [];
    for (let i = 0, size = 0; size < 3_000_000; i++) {
      const kind = next();
      const line =
        kind < 0.05 ? `"${word()}\n${word()}",${word()},${i}\n` : kind < 0.1 ? `"say ""${word()}""",${word()},${i}\r\n` : `${word()},${word()},${i}\n`;
      lines.push(line);
      size += line.length;
    }
    const file = `a,b,n\n${lines.join('')}z,last,1`;
    expect(await read(file)).toBe(`${file}\n`);
    // From the long line on, the tokenizers read the rest and write their own line ends (LF).
    const before = `a,b,n\n${lines.slice(0, 20_000).join('')}`;
    const after = `${'y'.repeat(700_000)},long,2\n${lines.slice(20_000, 40_000).join('')}`;
    expect(await read(before + after)).toBe(before + after.replaceAll('\r\n', '\n'));
  });
});
