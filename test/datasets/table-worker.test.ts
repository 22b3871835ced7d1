// Table reads in the worker thread (docs/datasets.md, "Table reads off the event loop"): the same bytes as a read
// in this thread, a failing or dying worker answered as a ReadTableError (the process lives on), and a reader
// that goes away stops the worker's work and closes the file streams it held.
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { MemoryBlobs } from '../../src/blobs/memory-blobs.js';
import type { DatasetSchema } from '../../src/services/datasets/model.js';
import { planColumns, tableBytes, TableReadError, type TableFormat } from '../../src/services/datasets/table/read-table.js';
import { readTableBytes, workerStats } from '../../src/services/datasets/table/worker-pool.js';
import type { ReadJob } from '../../src/services/datasets/table/worker-protocol.js';
import { writeBenchParquet } from '../../bench/lib/parquet-file.js';
import { all, datasetsApp, json, stored, uploadFile } from './helpers.js';
import { workersSettled } from './worker-settled.js';

const SCHEMA: DatasetSchema = {
  fieldSchemaList: ['sensor:STRING', 'value:DOUBLE', 'count:LONG', 'ok:BOOLEAN', 'at:TIMESTAMP'].map((s) => ({
    name: s.split(':')[0]!,
    type: s.split(':')[1]!,
    nullable: true,
  })) as DatasetSchema['fieldSchemaList'],
};
const columns = () => {
  const planned = planColumns(SCHEMA, []);
  if (!Array.isArray(planned)) throw new Error(planned.problem);
  return planned;
};

function csvText(rows: number, from = 0): string {
  const lines = ['sensor,value,count,ok,at'];
  for (let i = from; i < from + rows; i++)
    lines.push(`s${i % 7},${(i / 3).toFixed(4)},${i},${i % 2 === 0},2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`);
  return `${lines.join('\n')}\n`;
}

const dir = mkdtempSync(join(tmpdir(), 'table-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (err: unknown) => (err instanceof TableReadError ? err.message : `not a TableReadError: ${String(err)}`),
  );

describe('table reads in the worker thread', () => {
  it('give the same bytes as a read in this thread, for CSV and Parquet files, CSV and ARROW out, with a row limit', async () => {
    const blobs = new MemoryBlobs();
    const parquetFile = join(dir, 'rows.parquet');
    await writeBenchParquet(parquetFile, 12_345);
    // d.csv: quoted cells, CRLF and a multi-byte character, proven by the byte scan in the worker (then transferred).
    const quoted = 'sensor,value,count,ok,at\r\n"a,€",1.5,1,true,2026-01-01T00:00:00Z\r\n"say ""hi""\nthere","2",2,false,\r\n';
    const files = await stored(blobs, { 'a.csv': csvText(3_000), 'b.parquet': readFileSync(parquetFile), 'c.csv': csvText(10, 3_000), 'd.csv': quoted });
    for (const format of ['CSV', 'ARROW'] as TableFormat[]) {
      for (const rowLimit of [undefined, 4_000]) {
        const here = await all(tableBytes(format, files, blobs, columns(), SCHEMA, rowLimit));
        const there = await all(readTableBytes(format, files, blobs, columns(), SCHEMA, { rowLimit }));
        expect(there.equals(here), `${format} rowLimit ${rowLimit}`).toBe(true);
      }
    }
    const table = tableFromIPC(await all(readTableBytes('ARROW', files, blobs, columns(), SCHEMA)));
    expect(table.numRows).toBe(3_000 + 12_345 + 10 + 2);
    expect((await all(readTableBytes('CSV', files, blobs, columns(), SCHEMA))).toString().endsWith(quoted.slice(quoted.indexOf('\n') + 1))).toBe(true);
    expect(table.get(3_001)?.toJSON()).toMatchObject({ sensor: 's1', count: 1n, ok: false, at: 1_767_225_601_000 });
    await workersSettled();
  });

  it('prove a passthrough CSV read in this thread when every header row fits, and send it to a worker when one does not', async () => {
    const blobs = new MemoryBlobs();
    const fits = await stored(blobs, { 'a.csv': csvText(2_000), 'c.csv': csvText(10, 2_000) });
    const before = workerStats.chunksSent;
    const here = await all(readTableBytes('CSV', fits, blobs, columns(), SCHEMA));
    expect(here.toString()).toBe(csvText(2_000) + csvText(10, 2_000).slice('sensor,value,count,ok,at\n'.length));
    expect(workerStats.chunksSent).toBe(before);
    // Other column order: converted value by value, in a worker.
    const reordered = await stored(blobs, { 'a.csv': csvText(10), 'b.csv': 'at,sensor,value,count,ok\n2026-01-01T00:00:00Z,s,1,2,true\n' });
    const there = await all(readTableBytes('CSV', reordered, blobs, columns(), SCHEMA));
    expect(there.toString().endsWith('s,1,2,true,2026-01-01T00:00:00.000Z\n')).toBe(true);
    expect(workerStats.chunksSent).toBeGreaterThan(before);
    await workersSettled();
  });

  it('name the file and line of a bad value, as in this thread', async () => {
    const blobs = new MemoryBlobs();
    const files = await stored(blobs, { 'bad.csv': `${csvText(5)}s9,not-a-number,1,true,2026-01-01T00:00:00Z\n` });
    expect(await failure(all(readTableBytes('ARROW', files, blobs, columns(), SCHEMA)))).toBe('bad.csv line 7, column "value": "not-a-number" is not a number');
    await workersSettled();
  });

  it('answer a worker that throws or dies with a ReadTableError, and serve the next read', async () => {
    const blobs = new MemoryBlobs();
    const files = await stored(blobs, { 'a.csv': csvText(20) });
    const read = (fault?: ReadJob['fault']) => all(readTableBytes('CSV', files, blobs, columns(), SCHEMA, { fault }));
    expect(await failure(read('throw'))).toBe('the table could not be read: fault injected by a test');
    expect(await failure(read('exit'))).toBe('the table could not be read: its reader thread stopped (exit code 3)');
    expect((await read()).toString()).toBe(csvText(20));
    await workersSettled();
  });

  it('stop when the reader goes away: the file streams close and the rest of the file is not read', async () => {
    const blobs = new MemoryBlobs();
    // About 20 MiB: 20 chunks of the byte store.
    const files = await stored(blobs, { 'big.csv': csvText(400_000) });
    const sentBefore = workerStats.chunksSent;
    const bytes = readTableBytes('ARROW', files, blobs, columns(), SCHEMA);
    const first = await bytes.next();
    expect(first.done).toBe(false);
    await bytes.return(undefined);
    await workersSettled();
    expect(workerStats.chunksSent - sentBefore).toBeLessThan(10);
  });

  it('stop when the client disconnects mid-answer over HTTP', async () => {
    const t = await datasetsApp();
    try {
      const rid = (await json(t, 'POST', '/api/v2/datasets', { name: 'big', parentFolderRid: 'ri.compass.main.folder.x' })).body.rid as string;
      expect((await uploadFile(t, rid, 'big.csv', csvText(400_000), '?transactionType=SNAPSHOT')).status).toBe(200);
      expect((await json(t, 'PUT', `/api/v2/datasets/${rid}/putSchema`, { schema: SCHEMA })).status).toBe(200);
      const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const sentBefore = workerStats.chunksSent;
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`${url}/api/v2/datasets/${rid}/readTable?format=ARROW`, { headers: t.auth }, (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      });
      await workersSettled();
      expect(workerStats.chunksSent - sentBefore).toBeLessThan(15);
    } finally {
      await t.app.close();
    }
  });
});
