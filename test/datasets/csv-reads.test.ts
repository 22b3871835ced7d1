// CSV table reads (docs/datasets.md, "CSV: the byte scan and passthrough"): passthrough of proven bytes, the
// quote-free stretch read by uDSV and proved by counts, csv-parse from the first quote, files remembered as
// fitting, and the errors that still name the file and line. Over the byte store directly, no HTTP.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { MemoryBlobs } from '../../src/blobs/memory-blobs.js';
import type { DatasetSchema, FileRecord } from '../../src/services/datasets/model.js';
import { planColumns, tableBytes, TableReadError, type TableFormat } from '../../src/services/datasets/table/read-table.js';
import { PIECE_BYTES } from '../../src/services/datasets/table/csv-records.js';

const schema = (spec: string): DatasetSchema => ({
  fieldSchemaList: spec.split(',').map((s) => ({ name: s.split(':')[0]!, type: s.split(':')[1]!, nullable: true })),
});
const SCHEMA = schema('sensor:STRING,value:DOUBLE,count:LONG,at:TIMESTAMP');
const HEADER = 'sensor,value,count,at\n';

async function filesOf(blobs: MemoryBlobs, contents: Record<string, string | Buffer>): Promise<FileRecord[]> {
  const files: FileRecord[] = [];
  for (const [path, content] of Object.entries(contents)) {
    const info = await blobs.put(Readable.from([Buffer.from(content)]), { maxBytes: 1e9 });
    files.push({ transactionRid: 't', path, blobId: info.blobId, size: info.size, updatedTime: '' });
  }
  return files;
}

async function read(files: FileRecord[], blobs: MemoryBlobs, format: TableFormat, s = SCHEMA, wanted: string[] = [], rowLimit?: number): Promise<string> {
  const columns = planColumns(s, wanted);
  if (!Array.isArray(columns)) throw new Error(columns.problem);
  const out: Buffer[] = [];
  for await (const chunk of tableBytes(format, files, blobs, columns, s, rowLimit)) out.push(chunk);
  return Buffer.concat(out).toString('utf8');
}

const readError = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (err: unknown) => (err instanceof TableReadError ? err.message : `not a TableReadError: ${String(err)}`),
  );

describe('CSV table reads', () => {
  it('pass a fitting file through as written, join files with a line break, and re-encode when not whole', async () => {
    const blobs = new MemoryBlobs();
    const files = await filesOf(blobs, {
      'a.csv': `\uFEFF${HEADER}a,1.50,1,2026-01-01T00:00:00Z\n\nb,2,2,2026-01-02T00:00:00Z`,
      'b.csv': `${HEADER}c,3,3,2026-01-03T00:00:00Z\r\n`,
    });
    // Passthrough: the files' own text (BOM and headers gone, the missing last line break added).
    expect(await read(files, blobs, 'CSV')).toBe(`${HEADER}a,1.50,1,2026-01-01T00:00:00Z\n\nb,2,2,2026-01-02T00:00:00Z\nc,3,3,2026-01-03T00:00:00Z\r\n`);
    // A second read (the files now known to fit) answers the same bytes.
    expect(await read(files, blobs, 'CSV')).toBe(`${HEADER}a,1.50,1,2026-01-01T00:00:00Z\n\nb,2,2,2026-01-02T00:00:00Z\nc,3,3,2026-01-03T00:00:00Z\r\n`);
    // Not a whole-table read: values as the service writes them.
    expect(await read(files, blobs, 'CSV', SCHEMA, [], 2)).toBe(`${HEADER}a,1.5,1,2026-01-01T00:00:00.000Z\nb,2,2,2026-01-02T00:00:00.000Z\n`);
    expect(await read(files, blobs, 'CSV', SCHEMA, ['count', 'sensor'])).toBe('count,sensor\n1,a\n2,b\n3,c\n');
  });

  it('re-encode a file whose header differs from the schema; pass quoted cells through as written', async () => {
    const blobs = new MemoryBlobs();
    const files = await filesOf(blobs, {
      'a.csv': `at,count,value,sensor,extra\n2026-01-01T00:00:00Z,1,1.50,a,x\n`,
      'b.csv': `${HEADER}b,2,2,2026-01-02T00:00:00Z\n"c,d",3,3,2026-01-03T00:00:00Z\n`,
    });
    expect(await read(files, blobs, 'CSV')).toBe(`${HEADER}a,1.5,1,2026-01-01T00:00:00.000Z\nb,2,2,2026-01-02T00:00:00Z\n"c,d",3,3,2026-01-03T00:00:00Z\n`);
    // A quote after the first piece: every line goes out as written, the quoted one too.
    const filler = 'a,1,1,2026-01-01T00:00:00Z\n'.repeat(Math.ceil(PIECE_BYTES / 27) + 10);
    const late = await filesOf(blobs, { 'c.csv': `${HEADER}${filler}"q",2,"2",2026-01-02T00:00:00Z\n` });
    expect(await read(late, blobs, 'CSV')).toBe(`${HEADER}${filler}"q",2,"2",2026-01-02T00:00:00Z\n`);
    // A stray quote (not at a cell's start) goes to the tokenizers from its line on, re-encoded from there.
    const stray = await filesOf(blobs, { 'd.csv': `${HEADER}${filler}q"r,2,2,2026-01-02T00:00:00Z\n` });
    expect(await readError(read(stray, blobs, 'CSV'))).toMatch(new RegExp(`^d\\.csv line ${filler.split('\n').length + 1}: .*[Qq]uote`));
  });

  it('name a ragged line on the quote-free stretch, even far into a large file', async () => {
    const blobs = new MemoryBlobs();
    const good = 'a,1,1,2026-01-01T00:00:00Z\n';
    const lines = Math.ceil((3 * PIECE_BYTES) / good.length);
    for (const [bad, what] of [
      ['a,1,2026-01-01T00:00:00Z\n', /fields/],
      ['a,1,1,2026-01-01T00:00:00Z,extra\n', /fields/],
    ] as const) {
      const files = await filesOf(blobs, { 'big.csv': HEADER + good.repeat(lines) + bad + good.repeat(10) });
      const message = await readError(read(files, blobs, 'CSV'));
      expect(message).toMatch(new RegExp(`^big\\.csv line ${lines + 2}: `));
      expect(message).toMatch(what);
    }
    const shortAtEnd = await filesOf(blobs, { 'end.csv': `${HEADER}a,1,1,2026-01-01T00:00:00Z\nb,2\n` });
    expect(await readError(read(shortAtEnd, blobs, 'ARROW'))).toMatch(/^end\.csv line 3: /);
  });

  it('name a value that does not fit, in a passthrough read and after a file was remembered as fitting', async () => {
    const blobs = new MemoryBlobs();
    const files = await filesOf(blobs, { 'a.csv': `${HEADER}a,1,1,2026-01-01T00:00:00Z\nb,2,x2,2026-01-01T00:00:00Z\n` });
    expect(await readError(read(files, blobs, 'CSV'))).toBe('a.csv line 3, column "count": "x2" is not a long integer');
    const fits = await filesOf(blobs, { 'b.csv': `${HEADER}a,1,1,2026-01-01T00:00:00Z\n` });
    expect(await read(fits, blobs, 'CSV')).toBe(`${HEADER}a,1,1,2026-01-01T00:00:00Z\n`);
    // The same bytes under a schema they do not fit: checked again, not passed through.
    expect(await readError(read(fits, blobs, 'CSV', schema('sensor:STRING,value:DOUBLE,count:LONG,at:DATE')))).toMatch(/^b\.csv line 2, column "at": /);
  });

  it('refuse a LONG outside 64 bits in every read, and keep the ends of its range exact', async () => {
    const blobs = new MemoryBlobs();
    const ends = await filesOf(blobs, { 'ends.csv': `${HEADER}a,1,9223372036854775807,2026-01-01T00:00:00Z\nb,2,-9223372036854775808,2026-01-01T00:00:00Z\n` });
    expect(await read(ends, blobs, 'CSV')).toContain('\na,1,9223372036854775807,');
    const columns = planColumns(SCHEMA, []);
    if (!Array.isArray(columns)) throw new Error(columns.problem);
    const arrow: Buffer[] = [];
    for await (const chunk of tableBytes('ARROW', ends, blobs, columns, SCHEMA)) arrow.push(chunk);
    const table = tableFromIPC(Buffer.concat(arrow));
    expect(table.getChild('count')!.toArray()).toEqual(new BigInt64Array([9223372036854775807n, -9223372036854775808n]));
    const over = await filesOf(blobs, { 'over.csv': `${HEADER}a,1,9223372036854775808,2026-01-01T00:00:00Z\n` });
    // An Arrow Int64 would hold it as -9223372036854775808: refused instead, whatever the format.
    for (const format of ['CSV', 'ARROW'] as const)
      expect(await readError(read(over, blobs, format))).toBe('over.csv line 2, column "count": "9223372036854775808" is not a 64-bit integer');
  });

  it('read one-column files, quoted line breaks and an unclosed quote through csv-parse', async () => {
    const blobs = new MemoryBlobs();
    const one = await filesOf(blobs, { 'k.csv': 'k\nx\ny\n' });
    expect(await read(one, blobs, 'CSV', schema('k:STRING'))).toBe('k\nx\ny\n');
    const quoted = await filesOf(blobs, { 'q.csv': `${HEADER}"a\nb",1,1,2026-01-01T00:00:00Z\n` });
    expect(await read(quoted, blobs, 'CSV', SCHEMA, ['sensor'])).toBe('sensor\n"a\nb"\n');
    const unclosed = await filesOf(blobs, { 'u.csv': `${HEADER}"a,1,1,2026-01-01T00:00:00Z\n` });
    expect(await readError(read(unclosed, blobs, 'CSV'))).toMatch(/^u\.csv line \d+: .*[Qq]uote/);
    const long = await filesOf(blobs, { 'l.csv': `${HEADER}"a",1,1,2026-01-01T00:00:00Z,extra\n` });
    expect(await readError(read(long, blobs, 'CSV'))).toBe('l.csv line 2: the record has 5 fields, the header row 4');
  });

  it('read files whose lines end both ways, in every format, with no CR left in a cell', async () => {
    const blobs = new MemoryBlobs();
    const s = schema('id:INTEGER,x:DOUBLE,txt:STRING');
    const files = {
      'crlf-then-lf.csv': 'id,x,txt\r\n1,1,a\n2,2,b\r\n',
      'lf-then-crlf.csv': 'id,x,txt\n1,1,a\r\n2,2,b\n',
      'crlf-last-lf.csv': 'id,x,txt\r\n1,1,a\r\n2,2,b\n',
      // With a quote, csv-parse reads the file: it too takes either line end.
      'quoted-lf-then-crlf.csv': 'id,x,txt\n"1",1,a\r\n2,2,b\n',
      'quoted-crlf-then-lf.csv': 'id,x,txt\r\n"1",1,a\n2,2,"b"\r\n',
    };
    for (const [path, text] of Object.entries(files)) {
      const file = await filesOf(blobs, { [path]: text });
      // Written from values (a row limit, a column list) and as Arrow: the same two rows each way.
      expect(await read(file, blobs, 'CSV', s, [], 10)).toBe('id,x,txt\n1,1,a\n2,2,b\n');
      expect(await read(file, blobs, 'CSV', s, ['txt'])).toBe('txt\na\nb\n');
      const out: Buffer[] = [];
      for await (const chunk of tableBytes('ARROW', file, blobs, planColumns(s, []) as never, s)) out.push(chunk);
      expect(
        tableFromIPC(Buffer.concat(out))
          .toArray()
          .map((r) => r.toJSON()),
      ).toEqual([
        { id: 1, x: 1, txt: 'a' },
        { id: 2, x: 2, txt: 'b' },
      ]);
    }
  });
});
