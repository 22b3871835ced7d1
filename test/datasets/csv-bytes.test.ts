// The byte scan of a first passthrough read (docs/datasets.md, "CSV: the byte scan and passthrough"): quoted
// cells, CRLF, a multi-byte character and a quoted line break across the 64 KiB pieces the scan reads, bytes
// that are not UTF-8, and the errors after the scan hands a file to the tokenizers (file, line, column).
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MemoryBlobs } from '../../src/blobs/memory-blobs.js';
import type { DatasetSchema, FileRecord } from '../../src/services/datasets/model.js';
import { PIECE_BYTES } from '../../src/services/datasets/table/csv-records.js';

/** Where the scan's first stretch ends: the header row's 64 KiB piece and the four after it (256 KiB or more). */
const FIRST_STRETCH = 5 * PIECE_BYTES;
import { fitKey, planColumns, tableBytes, TableReadError, type FitMemory, type TableFormat } from '../../src/services/datasets/table/read-table.js';

const SCHEMA: DatasetSchema = {
  fieldSchemaList: ['sensor:STRING', 'value:DOUBLE', 'count:LONG', 'at:TIMESTAMP'].map((s) => ({
    name: s.split(':')[0]!,
    type: s.split(':')[1]!,
    nullable: true,
  })),
};
const HEADER = 'sensor,value,count,at\n';
const GOOD = 'a,1.5,1,2026-01-01T00:00:00Z\n';

/** A fresh memory of fitting files per test, so that every read of a file is a first read unless a test says so. */
function reader() {
  const blobs = new MemoryBlobs();
  const known = new Set<string>();
  const fits: FitMemory = { has: (k) => known.has(k), remember: (k) => void known.add(k) };
  const store = async (content: string | Buffer, path = 'f.csv'): Promise<FileRecord> => {
    const info = await blobs.put(Readable.from([Buffer.from(content)]), { maxBytes: 1e9 });
    return { transactionRid: 't', path, blobId: info.blobId, size: info.size, updatedTime: '' };
  };
  const read = async (file: FileRecord, format: TableFormat = 'CSV', wanted: string[] = []): Promise<Buffer> => {
    const columns = planColumns(SCHEMA, wanted);
    if (!Array.isArray(columns)) throw new Error(columns.problem);
    const out: Buffer[] = [];
    for await (const chunk of tableBytes(format, [file], blobs, columns, SCHEMA, undefined, fits)) out.push(chunk);
    return Buffer.concat(out);
  };
  const error = (file: FileRecord) =>
    read(file).then(
      () => 'no error',
      (err: unknown) => (err instanceof TableReadError ? err.message : `not a TableReadError: ${String(err)}`),
    );
  const fitted = (file: FileRecord) => {
    const columns = planColumns(SCHEMA, []);
    return Array.isArray(columns) && known.has(fitKey(file.blobId!, columns));
  };
  return { store, read, error, fitted };
}

/** Lines of GOOD enough that the next byte written is at `offset` of the file, less `before` bytes. */
function fillTo(offset: number, before: number): string {
  const lines = Math.floor((offset - HEADER.length - before) / GOOD.length);
  const pad = offset - HEADER.length - before - lines * GOOD.length;
  // One line longer by `pad` digits of the value lands the next line exactly.
  return GOOD.repeat(lines - 1) + `a,1.${'5'.repeat(pad + 1)},1,2026-01-01T00:00:00Z\n`;
}

describe('the byte scan of a first CSV read', () => {
  it('sends quoted cells and CRLF lines as written, and remembers the file as fitting', async () => {
    const r = reader();
    const body = `"a,b",1.5,1,2026-01-01T00:00:00Z\r\n"say ""hi""","2",3,"2026-01-02T00:00:00Z"\r\n"line\nbreak",,,\r\n`;
    const file = await r.store(HEADER.replace('\n', '\r\n') + body);
    expect((await r.read(file)).toString()).toBe(HEADER + body);
    expect(r.fitted(file)).toBe(true);
    // The same values as a converted read gives (quotes undone, CRLF gone).
    expect((await r.read(file, 'CSV', ['count', 'sensor'])).toString()).toBe('count,sensor\n1,"a,b"\n3,"say ""hi"""\n,"line\nbreak"\n');
  });

  it('keeps a multi-byte character and a quoted line break that straddle two stretches', async () => {
    const r = reader();
    // "€" is three bytes: its second byte is the first of the second stretch.
    const euro = fillTo(FIRST_STRETCH, 1);
    const split = await r.store(`${HEADER}${euro}€uro,2,2,2026-01-02T00:00:00Z\n${GOOD}`);
    expect((await r.read(split)).toString()).toBe(`${HEADER}${euro}€uro,2,2,2026-01-02T00:00:00Z\n${GOOD}`);
    // A quoted cell whose line break is the last byte of the first stretch, then a bad value two records later.
    const quoted = fillTo(FIRST_STRETCH, 3);
    const text = `${HEADER}${quoted}"x\ny",2,2,2026-01-02T00:00:00Z\n${GOOD}`;
    const q = await r.store(text);
    expect((await r.read(q)).toString()).toBe(text);
    const records = quoted.split('\n').length - 1;
    const bad = await r.store(`${text}b,zz,3,2026-01-03T00:00:00Z\n`);
    // Lines count records (the header is line 1): the quoted line break does not count.
    expect(await r.error(bad)).toBe(`f.csv line ${records + 4}, column "value": "zz" is not a number`);
    expect(r.fitted(bad)).toBe(false);
  });

  it('hands a file to the tokenizers at the first record it cannot prove, with the line numbers of the file', async () => {
    const r = reader();
    const many = GOOD.repeat(Math.ceil((3 * PIECE_BYTES) / GOOD.length));
    const lines = many.split('\n').length - 1;
    // Valid but not plain (left to the check), then a ragged line far into the file.
    const odd = `${many}b, 2 ,NaN,2026-01-31T00:00:00Z\n`;
    expect(await r.error(await r.store(`${HEADER}${odd}c,1,1\n${GOOD}`))).toBe(`f.csv line ${lines + 3}: the record has 3 fields, the header row 4`);
    // A lone carriage return is left to the tokenizers, handed the header row and that record together: as in a
    // read of the whole file by them, the first line end they meet is a line feed, so the carriage return is a
    // cell's and the line is ragged.
    expect(await r.error(await r.store(`${HEADER}${many}a,1,1,2026-01-01T00:00:00Z\rb,2\n`))).toBe(
      `f.csv line ${lines + 2}: the record has 5 fields, the header row 4`,
    );
    // An unclosed quote at the end of the file.
    expect(await r.error(await r.store(`${HEADER}${many}"a,1,1,2026-01-01T00:00:00Z\n`))).toMatch(new RegExp(`^f\\.csv line \\d+: .*[Qq]uote`));
    // The records before the one that fails went out as written; the error is the same as a converted read's.
    const late = await r.store(`${HEADER}${many}b,1,x,2026-01-01T00:00:00Z\n`);
    expect(await r.error(late)).toBe(`f.csv line ${lines + 2}, column "count": "x" is not a long integer`);
  });

  it('sends bytes that are not UTF-8 as the tokenizers would (U+FFFD), and a last line without its line break with one', async () => {
    const r = reader();
    const file = await r.store(
      Buffer.concat([Buffer.from(`\uFEFF${HEADER}a`), Buffer.from([0xff]), Buffer.from(',1,1,2026-01-01T00:00:00Z\nb,2,2,2026-01-02T00:00:00Z')]),
    );
    expect((await r.read(file)).toString()).toBe(`${HEADER}a\uFFFD,1,1,2026-01-01T00:00:00Z\nb,2,2,2026-01-02T00:00:00Z\n`);
  });
});
