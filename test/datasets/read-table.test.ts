// readTable (docs/datasets.md, "Table reads"): CSV and Parquet files of a view, read with the schema, served as
// CSV or an Arrow IPC stream; columns, rowLimit, ranges; and the refusals, each naming what was wrong.
import { afterEach, describe, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { platformError, type TestApp } from '../helpers/app.js';
import { datasetsApp, json, parquetBytes, uploadFile } from './helpers.js';

const RID = 'ri.foundry.main.dataset.readings';
const seed = {
  datasets: [
    {
      rid: RID,
      name: 'readings',
      schema: { sensor: 'string', value: 'double', count: 'long', ok: 'boolean', day: 'date', at: 'timestamp', tags: 'array<string>' },
      files: [
        {
          path: 'part-0.csv',
          content:
            'sensor,value,count,ok,day,at,tags\na,1.5,10,true,2026-01-01,2026-01-01T00:00:00Z,"[""x""]"\nb,,20,false,2026-01-02,2026-01-02T12:30:00Z,[]\n',
        },
      ],
    },
  ],
};

let t: (TestApp & { auth: Record<string, string> }) | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

const read = (query: string) => t!.app.inject({ url: `/api/v2/datasets/${RID}/readTable?${query}`, headers: t!.auth });

describe('readTable', () => {
  it('serves CSV with a header row, in the schema order, cut by columns and rowLimit', async () => {
    t = await datasetsApp(seed);
    const all = await read('format=CSV');
    expect(all.statusCode).toBe(200);
    // The whole table in the schema's order: the file's own text, once every value was proven (passthrough).
    expect(all.body).toBe(
      'sensor,value,count,ok,day,at,tags\na,1.5,10,true,2026-01-01,2026-01-01T00:00:00Z,"[""x""]"\nb,,20,false,2026-01-02,2026-01-02T12:30:00Z,[]\n',
    );
    const converted = await read('format=CSV&columns=sensor&columns=at&columns=tags');
    expect(converted.body).toBe('sensor,at,tags\na,2026-01-01T00:00:00.000Z,"[""x""]"\nb,2026-01-02T12:30:00.000Z,[]\n');
    const some = await read('format=CSV&columns=value&columns=sensor&rowLimit=1');
    expect(some.body).toBe('value,sensor\n1.5,a\n');
  });

  it('serves an Arrow IPC stream with the schema types', async () => {
    t = await datasetsApp(seed);
    const res = await read('format=ARROW');
    expect(res.statusCode).toBe(200);
    const table = tableFromIPC(res.rawPayload);
    expect(table.numRows).toBe(2);
    expect(table.schema.fields.map((f) => `${f.name}:${String(f.type)}`)).toEqual([
      'sensor:Utf8',
      'value:Float64',
      'count:Int64',
      'ok:Bool',
      'day:Date32<DAY>',
      'at:Timestamp<MICROSECOND, UTC>',
      'tags:List<Utf8>',
    ]);
    const rows = table.toArray().map((r) => r.toJSON());
    expect(rows[0]).toMatchObject({ sensor: 'a', value: 1.5, count: 10n, ok: true });
    expect(rows[1]!.value).toBeNull();
    expect(table.getChild('tags')!.get(0)!.toArray()).toEqual(['x']);
  });

  it('reads the view at a past transaction and across a transaction range', async () => {
    t = await datasetsApp(seed);
    const first = (await json(t, 'GET', `/api/v2/datasets/${RID}/branches/master`)).body.transactionRid as string;
    const appended = await uploadFile(
      t,
      RID,
      'part-1.csv',
      'sensor,value,count,ok,day,at,tags\nc,3,30,true,2026-01-03,2026-01-03T00:00:00Z,[]\n',
      '?transactionType=APPEND',
    );
    expect((await read('format=CSV&columns=sensor')).body).toBe('sensor\na\nb\nc\n');
    expect((await read(`format=CSV&columns=sensor&endTransactionRid=${first}`)).body).toBe('sensor\na\nb\n');
    const tx = appended.body.transactionRid as string;
    expect((await read(`format=CSV&columns=sensor&startTransactionRid=${tx}&endTransactionRid=${tx}`)).body).toBe('sensor\nc\n');
  });

  it('reads Parquet files beside CSV ones', async () => {
    t = await datasetsApp(seed);
    const bytes = await parquetBytes(
      [{ sensor: 'p', value: 2.25, count: 7n, ok: true, day: new Date('2026-02-01'), at: new Date('2026-02-01T01:02:03Z') }],
      'TIMESTAMP_MILLIS',
    );
    const up = await uploadFile(t, RID, 'part-2.parquet', bytes, '?transactionType=APPEND');
    expect(up.status).toBe(200);
    // `tags` is not in the Parquet file: read the columns it has.
    const res = await read('format=CSV&columns=sensor&columns=value&columns=count&columns=day&columns=at');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      'sensor,value,count,day,at\na,1.5,10,2026-01-01,2026-01-01T00:00:00.000Z\nb,,20,2026-01-02,2026-01-02T12:30:00.000Z\np,2.25,7,2026-02-01,2026-02-01T01:02:03.000Z\n',
    );
  });

  it('refuses a malformed row naming the file and line, a dataset without a schema, an unknown column and a schema the file does not fit', async () => {
    t = await datasetsApp(seed);
    await uploadFile(
      t,
      RID,
      'bad.csv',
      'sensor,value,count,ok,day,at,tags\nz,notanumber,1,true,2026-01-01,2026-01-01T00:00:00Z,[]\n',
      '?transactionType=APPEND',
    );
    const bad = await read('format=ARROW');
    expect(bad.statusCode).toBe(400);
    const error = platformError(bad.json());
    expect(error.errorName).toBe('ReadTableError');
    expect(error.parameters.message).toBe('bad.csv line 2, column "value": "notanumber" is not a number');

    const ragged = await uploadFile(t, RID, 'bad.csv', 'sensor,value,count,ok,day,at,tags\nz,1,1\n', '?transactionType=UPDATE');
    expect(ragged.status).toBe(200);
    const raggedRead = platformError((await read('format=CSV')).json());
    expect(raggedRead.parameters.message).toMatch(/^bad\.csv line 2: /);

    const missingColumn = await read('format=CSV&columns=nope');
    expect(missingColumn.statusCode).toBe(400);

    const created = await json(t, 'POST', '/api/v2/datasets', { name: 'bare', parentFolderRid: 'ri.compass.main.folder.x' });
    const bare = created.body.rid as string;
    await uploadFile(t, bare, 'x.csv', 'a\n1\n');
    const noSchema = await t.app.inject({ url: `/api/v2/datasets/${bare}/readTable?format=CSV`, headers: t.auth });
    expect([noSchema.statusCode, platformError(noSchema.json()).errorName]).toEqual([404, 'SchemaNotFound']);

    const put = await json(t, 'PUT', `/api/v2/datasets/${bare}/putSchema`, { schema: { fieldSchemaList: [{ name: 'b', type: 'INTEGER', nullable: true }] } });
    expect(put.status).toBe(200);
    expect(put.body.versionId).toMatch(/^[0-9a-f-]{36}$/);
    const unfit = await t.app.inject({ url: `/api/v2/datasets/${bare}/readTable?format=CSV`, headers: t.auth });
    expect(unfit.statusCode).toBe(400);
    expect(platformError(unfit.json()).parameters.message).toContain('x.csv: the schema\'s column "b" is not in the header row');

    const noFormat = await read('columns=sensor');
    expect(noFormat.statusCode).toBe(400);
  });

  it('getSchema answers the schema put, with its transaction and version', async () => {
    t = await datasetsApp(seed);
    const res = await json(t, 'GET', `/api/v2/datasets/${RID}/getSchema`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      branchName: 'master',
      endTransactionRid: expect.stringMatching(/^ri\.foundry\.main\.transaction\./),
      versionId: expect.any(String),
    });
    expect((res.body.schema as { fieldSchemaList: unknown[] }).fieldSchemaList[0]).toEqual({ type: 'STRING', name: 'sensor', nullable: true });
    // A branch made from master inherits the version; the answer names the branch asked for.
    expect((await json(t, 'POST', `/api/v2/datasets/${RID}/branches`, { name: 'feature/x' })).status).toBe(200);
    const inherited = await json(t, 'GET', `/api/v2/datasets/${RID}/getSchema?branchName=feature%2Fx`);
    expect(inherited.body).toMatchObject({ branchName: 'feature/x', endTransactionRid: res.body.endTransactionRid, versionId: res.body.versionId });
    const batch = await json(t, 'POST', '/api/v2/datasets/getSchemaBatch', [{ datasetRid: RID }, { datasetRid: 'ri.foundry.main.dataset.none' }]);
    expect(Object.keys(batch.body.data as object)).toEqual([RID]);
  });
});
