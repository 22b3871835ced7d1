// Parquet table reads (docs/datasets.md, "Parquet"): files written by another library (@dsnp/parquetjs) read by
// parquet-wasm, cast to the schema's types (a column of the same Arrow type as it is, others per value), nulls
// kept, and a value that does not fit or a broken file refused naming the file (and the row).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { ParquetSchema, ParquetWriter } from '@dsnp/parquetjs';
import { platformError, type TestApp } from '../helpers/app.js';
import { datasetsApp, parquetBytes, uploadFile } from './helpers.js';

const RID = 'ri.foundry.main.dataset.parquet';
const seed = {
  datasets: [{ rid: RID, name: 'parquet', schema: { sensor: 'string', value: 'double', count: 'integer', ok: 'boolean', day: 'date', at: 'timestamp' } }],
};

let t: (TestApp & { auth: Record<string, string> }) | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

const read = (query: string) => t!.app.inject({ url: `/api/v2/datasets/${RID}/readTable?${query}`, headers: t!.auth });

/** A Parquet file of the rows (count written as INT64, `at` as microseconds), as its bytes. */
const parquetOf = (rows: Array<Record<string, unknown>>) => parquetBytes(rows, 'TIMESTAMP_MICROS');

const row = (sensor: string, value: number | null, count: bigint, ok: boolean, day: string, at: string) => ({
  sensor,
  ...(value === null ? {} : { value }),
  count,
  ok,
  day: new Date(day),
  at: new Date(at),
});

describe('readTable of Parquet files', () => {
  it('serves the rows with the schema types, nulls kept, as ARROW and CSV, cut by rowLimit', async () => {
    t = await datasetsApp(seed);
    const bytes = await parquetOf([
      row('a', 1.5, 10n, true, '2026-01-01', '2026-01-01T00:00:00.250Z'),
      row('b', null, 20n, false, '2026-01-02', '2026-01-02T12:30:00Z'),
    ]);
    expect((await uploadFile(t, RID, 'p.parquet', bytes, '?transactionType=SNAPSHOT')).status).toBe(200);

    const arrow = await read('format=ARROW');
    expect(arrow.statusCode).toBe(200);
    const table = tableFromIPC(arrow.rawPayload);
    expect(table.schema.fields.map((f) => `${f.name}:${String(f.type)}`)).toEqual([
      'sensor:Utf8',
      'value:Float64',
      'count:Int32',
      'ok:Bool',
      'day:Date32<DAY>',
      'at:Timestamp<MICROSECOND, UTC>',
    ]);
    expect(table.toArray().map((r) => ({ ...r.toJSON() }))).toEqual([
      { sensor: 'a', value: 1.5, count: 10, ok: true, day: Date.parse('2026-01-01'), at: Date.parse('2026-01-01T00:00:00.250Z') },
      { sensor: 'b', value: null, count: 20, ok: false, day: Date.parse('2026-01-02'), at: Date.parse('2026-01-02T12:30:00Z') },
    ]);

    const csv = await read('format=CSV');
    expect(csv.body).toBe('sensor,value,count,ok,day,at\na,1.5,10,true,2026-01-01,2026-01-01T00:00:00.250Z\nb,,20,false,2026-01-02,2026-01-02T12:30:00.000Z\n');
    expect((await read('format=CSV&columns=at&columns=sensor&rowLimit=1')).body).toBe('at,sensor\n2026-01-01T00:00:00.250Z,a\n');
    expect(tableFromIPC((await read('format=ARROW&rowLimit=1')).rawPayload).numRows).toBe(1);
  });

  it('refuses a value that does not fit its column naming the file, row and column, and a broken file naming the file', async () => {
    t = await datasetsApp(seed);
    const tooBig = await parquetOf([
      row('a', 1, 1n, true, '2026-01-01', '2026-01-01T00:00:00Z'),
      row('b', 2, 2n ** 40n, true, '2026-01-01', '2026-01-01T00:00:00Z'),
    ]);
    await uploadFile(t, RID, 'big.parquet', tooBig, '?transactionType=SNAPSHOT');
    for (const format of ['ARROW', 'CSV']) {
      const res = await read(`format=${format}`);
      expect(res.statusCode).toBe(400);
      const error = platformError(res.json());
      expect(error.errorName).toBe('ReadTableError');
      expect(error.parameters.message).toBe('big.parquet row 2, column "count": "1099511627776" is not a 32-bit integer');
    }

    await uploadFile(t, RID, 'broken.parquet', Buffer.from([0x50, 0x41, 0x52, 0x31, 0x00, 0xff, 0x50, 0x41, 0x52, 0x31]), '?transactionType=SNAPSHOT');
    const broken = await read('format=ARROW');
    expect(broken.statusCode).toBe(400);
    expect(platformError(broken.json()).parameters.message).toMatch(/^broken\.parquet: not a readable Parquet file \(.+\)$/);
  });

  it('names the file when one broken mid-way makes the reader fail outside its own checks', async () => {
    t = await datasetsApp(seed);
    const rows = Array.from({ length: 5000 }, (_, i) => row(`s${i}`, i / 3, BigInt(i), i % 2 === 0, '2026-01-01', '2026-01-01T00:00:00Z'));
    const bytes = Buffer.from(await parquetOf(rows));
    // Noise over the pages, the footer kept: parquet-wasm opens the file and traps while decoding it.
    let noise = 7;
    for (let i = 100; i < bytes.length - 2000; i++) {
      noise = (noise * 1103515245 + 12345) & 0x7fffffff;
      bytes[i] = noise & 255;
    }
    await uploadFile(t, RID, 'mid.parquet', bytes, '?transactionType=SNAPSHOT');
    for (const format of ['ARROW', 'CSV']) {
      const res = await read(`format=${format}`);
      expect(res.statusCode).toBe(400);
      expect(platformError(res.json()).parameters.message).toMatch(/^mid\.parquet: /);
    }
    // The worker that met it is not given another read (a trapped instance could hang it): the next read is served.
    await uploadFile(t, RID, 'good.parquet', await parquetOf(rows.slice(0, 3)), '?transactionType=SNAPSHOT');
    for (const format of ['ARROW', 'CSV']) expect((await read(`format=${format}`)).statusCode).toBe(200);
  });

  it('reads a repeated (list) column as an ARRAY column', async () => {
    const LIST = 'ri.foundry.main.dataset.lists';
    t = await datasetsApp({ datasets: [{ rid: LIST, name: 'lists', schema: { sensor: 'string', tags: 'array<string>' } }] });
    const dir = await mkdtemp(join(tmpdir(), 'ds-parquet-'));
    try {
      const writer = await ParquetWriter.openFile(
        new ParquetSchema({ sensor: { type: 'UTF8' }, tags: { type: 'UTF8', repeated: true } }),
        join(dir, 'l.parquet'),
      );
      await writer.appendRow({ sensor: 'a', tags: ['x', 'y'] });
      await writer.appendRow({ sensor: 'b', tags: [] });
      await writer.close();
      expect((await uploadFile(t, LIST, 'l.parquet', await readFile(join(dir, 'l.parquet')), '?transactionType=SNAPSHOT')).status).toBe(200);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const csv = await t.app.inject({ url: `/api/v2/datasets/${LIST}/readTable?format=CSV`, headers: t.auth });
    expect(csv.body).toBe('sensor,tags\na,"[""x"",""y""]"\nb,[]\n');
    const arrow = tableFromIPC((await t.app.inject({ url: `/api/v2/datasets/${LIST}/readTable?format=ARROW`, headers: t.auth })).rawPayload);
    expect(arrow.toArray().map((r) => [r.sensor, [...r.tags]])).toEqual([
      ['a', ['x', 'y']],
      ['b', []],
    ]);
  });
});
