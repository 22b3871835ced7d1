// readTable's rowLimit (docs/datasets.md, "Table reads"): a read stops after that many rows, in every format and
// on every path (the tokenizers, the bytes -> Arrow reader, Parquet batches, a table worker, a file learned at
// upload), and never refuses a row it does not send: a bad value, a ragged line or a stray quote past the limit
// fails nothing, while one within it is still named by file and line.
import { describe, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { MemoryBlobs } from '../../src/blobs/memory-blobs.js';
import type { DatasetSchema } from '../../src/services/datasets/model.js';
import { fitKey, knownFits, planColumns, tableBytes, TableReadError, type TableFormat } from '../../src/services/datasets/table/read-table.js';
import { readTableBytes, workerStats } from '../../src/services/datasets/table/worker-pool.js';
import { learnedFits } from '../../src/services/datasets/table/csv-learner.js';
import { all, datasetsApp, json, parquetBytes, stored, uploadFile } from './helpers.js';
import { workersSettled } from './worker-settled.js';

const schemaOf = (spec: string): DatasetSchema => ({
  fieldSchemaList: spec.split(',').map((s) => ({ name: s.split(':')[0]!, type: s.split(':')[1]!, nullable: true })) as DatasetSchema['fieldSchemaList'],
});
const columnsOf = (schema: DatasetSchema, wanted: string[] = []) => {
  const planned = planColumns(schema, wanted);
  if (!Array.isArray(planned)) throw new Error(planned.problem);
  return planned;
};
const NV = schemaOf('name:STRING,value:INTEGER');

/** The answer of a read in this thread and in a table worker: their bytes must agree (or both fail alike). */
async function bothWays(
  format: TableFormat,
  contents: Record<string, string | Buffer>,
  schema: DatasetSchema,
  rowLimit: number | undefined,
  wanted: string[] = [],
): Promise<Buffer | string> {
  const blobs = new MemoryBlobs();
  const files = await stored(blobs, contents);
  const columns = columnsOf(schema, wanted);
  const outcome = (bytes: AsyncGenerator<Buffer>) =>
    all(bytes).then(
      (b) => b,
      (err: unknown) => (err instanceof TableReadError ? `error: ${err.message}` : `not a TableReadError: ${String(err)}`),
    );
  const here = await outcome(tableBytes(format, files, blobs, columns, schema, rowLimit));
  const started = workerStats.started;
  const there = await outcome(readTableBytes(format, files, blobs, columns, schema, { rowLimit }));
  expect(workerStats.started, 'the read ran in a worker').toBeGreaterThan(started);
  expect(typeof there === 'string' ? there : there.toString('base64'), `${format} in a worker`).toBe(typeof here === 'string' ? here : here.toString('base64'));
  return here;
}

const csvOf = async (...args: Parameters<typeof bothWays>) => {
  const out = await bothWays(...args);
  return typeof out === 'string' ? out : out.toString('utf8');
};
const arrowRows = async (...args: Parameters<typeof bothWays>) => {
  const out = await bothWays(...args);
  return typeof out === 'string'
    ? out
    : tableFromIPC(out)
        .toArray()
        .map((r) => ({ ...r.toJSON() }));
};

const AB = [
  { name: 'a', value: 1 },
  { name: 'b', value: 2 },
];

describe('a read with a row limit', () => {
  // Each file's first two records fit; what follows them would be refused by a read that took it.
  const cases: Record<string, string> = {
    'a bad value (the tester’s file)': 'name,value\na,1\nb,2\nc,3\nd,notanumber\n',
    'a ragged line': 'name,value\na,1\nb,2\nc,3,4\nd,4\n',
    'a bad value after a quoted cell (csv-parse)': 'name,value\n"a",1\nb,2\nc,3\nd,notanumber\n',
    'a stray quote': 'name,value\na,1\nb,2\nc",3\nd,4\n',
    'a quote never closed': 'name,value\n"a",1\nb,2\n"c,3\nd,4\n',
    'a quoted header row': '"name","value"\na,1\nb,2\nc,3\nd,notanumber\n',
    'mixed line ends': 'name,value\r\na,1\r\nb,2\nc,3\r\nd,notanumber\r\n',
    'empty lines': 'name,value\n\na,1\n\nb,2\n\nc,x\n',
    'a cell the bytes reader leaves to the tokenizers': 'name,value\na, 1\nb,2\nc,3\nd,notanumber\n',
  };

  it('answers the first rows of a file whose later rows do not fit, as CSV and ARROW, in this thread and in a worker', async () => {
    for (const [what, text] of Object.entries(cases)) {
      expect(await csvOf('CSV', { 'a.csv': text }, NV, 2), what).toBe('name,value\na,1\nb,2\n');
      expect(await arrowRows('ARROW', { 'a.csv': text }, NV, 2), what).toEqual(AB);
      // `columns`: the column that fails not asked for, and the one asked for cut by the limit.
      expect(await csvOf('CSV', { 'a.csv': text }, NV, 2, ['value']), what).toBe('value\n1\n2\n');
      expect(await arrowRows('ARROW', { 'a.csv': text }, NV, 2, ['value', 'name']), what).toEqual(AB);
    }
    await workersSettled();
  }, 60_000);

  it('still refuses a row it sends, naming the file and line', async () => {
    const bad = cases['a bad value (the tester’s file)']!;
    for (const format of ['CSV', 'ARROW'] as TableFormat[]) {
      expect(await bothWays(format, { 'a.csv': bad }, NV, 4)).toBe('error: a.csv line 5, column "value": "notanumber" is not an integer');
      expect(await bothWays(format, { 'a.csv': cases['a ragged line']! }, NV, 3)).toBe('error: a.csv line 4: the record has 3 fields, the header row 2');
      expect(String(await bothWays(format, { 'a.csv': cases['a stray quote']! }, NV, 3))).toMatch(/^error: a\.csv line 4: .*[Qq]uote/);
      expect(await bothWays(format, { 'a.csv': 'name,value\n"a",1\nb,2\nc,3\nd,notanumber\n' }, NV, 4)).toBe(
        'error: a.csv line 5, column "value": "notanumber" is not an integer',
      );
    }
    await workersSettled();
  }, 60_000);

  it('stops in the file the limit falls in: a bad row in a later file, or later in the same one, is not read', async () => {
    const files = { 'a.csv': 'name,value\na,1\nb,2\n', 'b.csv': 'name,value\nc,3\nd,notanumber\n', 'c.csv': 'name,value\ne,oops\n' };
    expect(await csvOf('CSV', files, NV, 3)).toBe('name,value\na,1\nb,2\nc,3\n');
    expect(await arrowRows('ARROW', files, NV, 3)).toEqual([...AB, { name: 'c', value: 3 }]);
    expect(await csvOf('CSV', files, NV, 2)).toBe('name,value\na,1\nb,2\n');
    expect(await bothWays('CSV', files, NV, 4)).toBe('error: b.csv line 3, column "value": "notanumber" is not an integer');
    await workersSettled();
  }, 60_000);

  it('cuts a large file where the limit falls, in the piece or past it, quoted or not', async () => {
    for (const quoted of [false, true]) {
      const lines = Array.from({ length: 30_000 }, (_, i) => (quoted ? `"n${i}",${i}` : `n${i},${i}`));
      // The bad row shares its 64 KiB of text with the rows before it.
      const text = `name,value\n${lines.join('\n')}\nbad,x\n${lines.slice(0, 10).join('\n')}\n`;
      for (const limit of [5, 4_000, 29_999, 30_000]) {
        const csv = await csvOf('CSV', { 'a.csv': text }, NV, limit);
        expect(csv, `quoted ${quoted} limit ${limit}`).toBe(`name,value\n${Array.from({ length: limit }, (_, i) => `n${i},${i}`).join('\n')}\n`);
        const arrow = await bothWays('ARROW', { 'a.csv': text }, NV, limit);
        expect(typeof arrow === 'string' ? arrow : tableFromIPC(arrow).numRows).toBe(limit);
      }
      expect(await bothWays('CSV', { 'a.csv': text }, NV, 30_001)).toBe('error: a.csv line 30002, column "value": "x" is not an integer');
    }
    await workersSettled();
  }, 120_000);

  it('converts only the rows it sends of a Parquet file, and sends them as a read of every row does', async () => {
    // count is INT64; read as INTEGER, row 5's value is out of range.
    const rows = Array.from({ length: 7 }, (_, i) => ({
      sensor: `s${i}`,
      ...(i % 3 === 1 ? {} : { value: i / 2 }),
      count: i === 4 ? 2n ** 40n : BigInt(i),
      ok: i % 2 === 0,
      day: new Date(Date.UTC(2026, 0, 1 + i)),
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    }));
    const parquet = await parquetBytes(rows, 'TIMESTAMP_MICROS');
    const narrow = schemaOf('sensor:STRING,value:DOUBLE,count:INTEGER,ok:BOOLEAN,day:DATE,at:TIMESTAMP');
    const wide = schemaOf('sensor:STRING,value:DOUBLE,count:LONG,ok:BOOLEAN,day:DATE,at:TIMESTAMP');
    const whole = (await csvOf('CSV', { 'p.parquet': parquet }, wide, undefined)).split('\n');
    for (let limit = 1; limit <= 4; limit++) {
      // The rows sent are those of a read of every row (nulls and all), cut where the limit falls.
      expect(await csvOf('CSV', { 'p.parquet': parquet }, narrow, limit), `limit ${limit}`).toBe(`${whole.slice(0, limit + 1).join('\n')}\n`);
      const arrow = await arrowRows('ARROW', { 'p.parquet': parquet }, narrow, limit);
      expect(arrow, `limit ${limit}`).toHaveLength(limit);
      expect((arrow as Array<Record<string, unknown>>).map((r) => r.value)).toEqual(rows.slice(0, limit).map((r) => r.value ?? null));
    }
    for (const format of ['CSV', 'ARROW'] as TableFormat[])
      expect(await bothWays(format, { 'p.parquet': parquet }, narrow, 5)).toBe(
        'error: p.parquet row 5, column "count": "1099511627776" is not a 32-bit integer',
      );
    // After a CSV file, the Parquet file is given the rows left.
    const mixed = { 'a.csv': 'sensor,count\nx,1\n', 'b.parquet': parquet };
    expect(await csvOf('CSV', mixed, schemaOf('sensor:STRING,count:INTEGER'), 3)).toBe('sensor,count\nx,1\ns0,0\ns1,1\n');
    expect(await arrowRows('ARROW', mixed, schemaOf('sensor:STRING,count:INTEGER'), 3, ['count'])).toEqual([{ count: 1 }, { count: 0 }, { count: 1 }]);
    await workersSettled();
  }, 60_000);

  it('cuts a Parquet file of several batches inside a later one', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      sensor: `s${i}`,
      ...(i % 5 === 0 ? {} : { value: i }),
      count: i === 19_000 ? 2n ** 40n : BigInt(i),
      ok: true,
      day: new Date(0),
      at: new Date(i),
    }));
    const parquet = await parquetBytes(rows, 'TIMESTAMP_MILLIS');
    const narrow = schemaOf('sensor:STRING,value:DOUBLE,count:INTEGER');
    const csv = await csvOf('CSV', { 'p.parquet': parquet }, narrow, 17_001);
    const lines = csv.split('\n');
    expect(lines).toHaveLength(17_003);
    expect(lines.at(-2)).toBe('s17000,,17000');
    const arrow = await bothWays('ARROW', { 'p.parquet': parquet }, narrow, 18_999);
    expect(typeof arrow === 'string' ? arrow : tableFromIPC(arrow).numRows).toBe(18_999);
    await workersSettled();
  }, 60_000);
});

describe('readTable with rowLimit through the routes', () => {
  it('answers the first rows as CSV and ARROW when a later row does not fit (the tester’s repro)', async () => {
    const t = await datasetsApp();
    try {
      const rid = (await json(t, 'POST', '/api/v2/datasets', { name: 'rl', parentFolderRid: 'ri.compass.main.folder.x' })).body.rid as string;
      expect((await uploadFile(t, rid, 'a.csv', 'name,value\na,1\nb,2\nc,3\nd,notanumber\n')).status).toBe(200);
      expect((await uploadFile(t, rid, 'b.csv', 'name,value\ne,oops\n')).status).toBe(200);
      expect((await json(t, 'PUT', `/api/v2/datasets/${rid}/putSchema`, { schema: NV })).status).toBe(200);
      const read = (query: string) => t.app.inject({ url: `/api/v2/datasets/${rid}/readTable?${query}`, headers: t.auth });
      const csv = await read('format=CSV&rowLimit=2');
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toBe('name,value\na,1\nb,2\n');
      expect((await read('format=CSV&rowLimit=3&columns=name')).body).toBe('name\na\nb\nc\n');
      const arrow = await read('format=ARROW&rowLimit=3');
      expect(arrow.statusCode).toBe(200);
      expect(tableFromIPC(arrow.rawPayload).numRows).toBe(3);
      const refused = await read('format=CSV&rowLimit=4');
      expect(refused.statusCode).toBe(400);
      expect(JSON.stringify(refused.json())).toContain('a.csv line 5, column \\"value\\"');
    } finally {
      await t.app.close();
    }
  }, 30_000);

  it('answers the first rows of a large file learned at upload, with a schema it fits or one a later row does not', async () => {
    const t = await datasetsApp();
    try {
      const rid = (await json(t, 'POST', '/api/v2/datasets', { name: 'learned', parentFolderRid: 'ri.compass.main.folder.x' })).body.rid as string;
      // About 10 MB (learned at upload: past 8 MiB); v reaches 128 at line 130, past a BYTE.
      const lines = ['id,txt,v'];
      for (let i = 0; i < 600_000; i++) lines.push(`${i},row ${i},${i % 200}`);
      const text = `${lines.join('\n')}\n`;
      const up = await uploadFile(t, rid, 'big.csv', text, '?transactionType=SNAPSHOT');
      expect(up.status).toBe(200);
      const fits = schemaOf('id:INTEGER,txt:STRING,v:SHORT');
      const blobId = (await t.store.part((await import('../../src/services/datasets/part.js')).DATASETS).files([up.body.transactionRid as string]))[0]!.blobId!;
      await learnedFits([blobId], columnsOf(fits));
      // Learned at upload: known to fit the first schema (a passthrough read would send it as it is).
      expect(knownFits.has(fitKey(blobId, columnsOf(fits)))).toBe(true);
      const read = (query: string) => t.app.inject({ url: `/api/v2/datasets/${rid}/readTable?${query}`, headers: t.auth });
      const first5 = 'id,txt,v\n0,row 0,0\n1,row 1,1\n2,row 2,2\n3,row 3,3\n4,row 4,4\n';
      for (const schema of [fits, schemaOf('id:INTEGER,txt:STRING,v:BYTE')]) {
        expect((await json(t, 'PUT', `/api/v2/datasets/${rid}/putSchema`, { schema })).status).toBe(200);
        const csv = await read('format=CSV&rowLimit=5');
        expect(csv.statusCode, csv.body.slice(0, 300)).toBe(200);
        expect(csv.body).toBe(first5);
        const arrow = await read('format=ARROW&rowLimit=5');
        expect(arrow.statusCode).toBe(200);
        expect(tableFromIPC(arrow.rawPayload).numRows).toBe(5);
        // Line 130 is within a limit of 200: refused, naming it.
        const refused = await read('format=CSV&rowLimit=200');
        if (schema === fits) expect(refused.statusCode).toBe(200);
        else expect(JSON.stringify(refused.json())).toContain('big.csv line 130, column \\"v\\"');
      }
    } finally {
      await t.app.close();
    }
  }, 60_000);
});
