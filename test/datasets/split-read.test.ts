// A CSV read of Parquet files in two workers (table/split-read.ts, csv-share.ts; docs/datasets.md "Parquet to CSV
// in two workers"): the bytes and their order are those of a read in one thread, a value that does not fit fails
// with the same message whichever worker wrote its batch, and a reader that goes away frees both workers. The
// helper is made after a first read without one.
import { describe, expect, it } from 'vitest';
import { MemoryBlobs } from '../../src/blobs/memory-blobs.js';
import type { DatasetSchema } from '../../src/services/datasets/model.js';
import { planColumns, tableBytes, TableReadError } from '../../src/services/datasets/table/read-table.js';
import { splitStats } from '../../src/services/datasets/table/split-read.js';
import { readTableBytes } from '../../src/services/datasets/table/worker-pool.js';
import { all, parquetBytes, stored } from './helpers.js';
import { workersSettled } from './worker-settled.js';

const schemaOf = (count: 'LONG' | 'INTEGER'): DatasetSchema => ({
  fieldSchemaList: ['sensor:STRING', 'value:DOUBLE', `count:${count}`, 'ok:BOOLEAN', 'day:DATE', 'at:TIMESTAMP'].map((s) => ({
    name: s.split(':')[0]!,
    type: s.split(':')[1]!,
    nullable: true,
  })) as DatasetSchema['fieldSchemaList'],
});
const columnsOf = (schema: DatasetSchema) => {
  const planned = planColumns(schema, []);
  if (!Array.isArray(planned)) throw new Error(planned.problem);
  return planned;
};

/** Rows from `from`, with a quote, a comma, nulls and doubles of every length; count 2^40 at the rows in `big`. */
const rows = (count: number, from: number, big: number[] = []) =>
  Array.from({ length: count }, (_v, k) => {
    const i = from + k;
    return {
      sensor: i % 97 === 0 ? `s"${i}",x` : `s${i % 13}`,
      value: i % 11 === 0 ? null : i / 3,
      count: big.includes(i) ? 2n ** 40n : BigInt(i),
      ok: i % 2 === 0,
      day: new Date(Date.UTC(2026, 0, 1 + (i % 400))),
      at: new Date(1_767_225_600_000 + i * 1_001),
    };
  });

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (err: unknown) => (err instanceof TableReadError ? err.message : `not a TableReadError: ${String(err)}`),
  );

/**
 * Until a read is split: a read without an idle helper makes one after it (split-read.ts prepareHelper), and a
 * worker whose Parquet read was cancelled may be ended (parquet-wasm aborts on a fetch that fails), so a few
 * small reads are made, bounded, until one is split.
 */
async function splitReady(blobs: MemoryBlobs): Promise<void> {
  const schema = schemaOf('LONG');
  const files = await stored(blobs, { 'small.parquet': await parquetBytes(rows(10, 0), 'TIMESTAMP_MILLIS') });
  for (let attempt = 0; attempt < 20; attempt++) {
    const { reads, helpers } = splitStats;
    await all(readTableBytes('CSV', files, blobs, columnsOf(schema), schema));
    if (splitStats.reads > reads) return;
    for (let i = 0; i < 200 && splitStats.helpers === helpers; i++) await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no read was split');
}

describe('a CSV read of Parquet files in two workers', () => {
  it('gives the bytes of a read in one thread, in order, over several files and many batches', async () => {
    const blobs = new MemoryBlobs();
    // parquetjs writes row groups of 4,096 rows: each a batch, handed to the helper or written by the lead.
    const files = await stored(blobs, {
      'a.parquet': await parquetBytes(rows(30_000, 0), 'TIMESTAMP_MILLIS'),
      'b.parquet': await parquetBytes(rows(5, 30_000), 'TIMESTAMP_MICROS'),
      'c.parquet': await parquetBytes(rows(9_000, 30_005), 'TIMESTAMP_MILLIS'),
    });
    const schema = schemaOf('LONG');
    const here = await all(tableBytes('CSV', files, blobs, columnsOf(schema), schema));
    await splitReady(blobs);
    const before = { ...splitStats };
    for (let read = 0; read < 3; read++) {
      const there = await all(readTableBytes('CSV', files, blobs, columnsOf(schema), schema));
      expect(there.equals(here)).toBe(true);
    }
    expect(splitStats.reads - before.reads).toBe(3);
    expect(splitStats.helperChunks - before.helperChunks).toBeGreaterThan(3);
    expect(here.toString().split('\n').length).toBe(39_005 + 2);
    await workersSettled();
  });

  it('is not used for ARROW, a row limit, or a view with CSV files', async () => {
    const blobs = new MemoryBlobs();
    const files = await stored(blobs, { 'a.parquet': await parquetBytes(rows(9_000, 0), 'TIMESTAMP_MILLIS'), 'b.csv': 'sensor,value,count,ok,day,at\n' });
    const schema = schemaOf('LONG');
    await splitReady(blobs);
    const before = splitStats.reads;
    for (const [format, limit, view] of [
      ['ARROW', undefined, files.slice(0, 1)],
      ['CSV', 100, files.slice(0, 1)],
      ['CSV', undefined, files],
    ] as const) {
      const here = await all(tableBytes(format, view, blobs, columnsOf(schema), schema, limit));
      expect((await all(readTableBytes(format, view, blobs, columnsOf(schema), schema, { rowLimit: limit }))).equals(here)).toBe(true);
    }
    expect(splitStats.reads).toBe(before);
    await workersSettled();
  });

  it('fails as a read in one thread does where a value does not fit, in a batch of either worker', async () => {
    const blobs = new MemoryBlobs();
    const schema = schemaOf('INTEGER');
    // Rows 1 and 4,097 are in the first two batches, which the lead always hands to the helper; 20,000 in a later one.
    for (const big of [[4_097], [20_000], [0]]) {
      const files = await stored(blobs, {
        'ok.parquet': await parquetBytes(rows(100, 0), 'TIMESTAMP_MILLIS'),
        'big.parquet': await parquetBytes(rows(24_000, 0, big), 'TIMESTAMP_MILLIS'),
      });
      const expected = await failure(all(tableBytes('CSV', files, blobs, columnsOf(schema), schema)));
      expect(expected).toBe(`big.parquet row ${big[0]! + 1}, column "count": "1099511627776" is not a 32-bit integer`);
      await splitReady(blobs);
      const before = splitStats.reads;
      expect(await failure(all(readTableBytes('CSV', files, blobs, columnsOf(schema), schema)))).toBe(expected);
      expect(splitStats.reads - before).toBe(1);
    }
    await workersSettled();
  });

  it('frees both workers when the reader goes away', async () => {
    const blobs = new MemoryBlobs();
    const files = await stored(blobs, { 'a.parquet': await parquetBytes(rows(30_000, 0), 'TIMESTAMP_MILLIS') });
    const schema = schemaOf('LONG');
    await splitReady(blobs);
    const before = splitStats.reads;
    const bytes = readTableBytes('CSV', files, blobs, columnsOf(schema), schema);
    expect((await bytes.next()).done).toBe(false);
    await bytes.return(undefined);
    expect(splitStats.reads - before).toBe(1);
    await workersSettled();
    // The next reads are served, split again once a helper is idle.
    const here = await all(tableBytes('CSV', files, blobs, columnsOf(schema), schema));
    await splitReady(blobs);
    expect((await all(readTableBytes('CSV', files, blobs, columnsOf(schema), schema))).equals(here)).toBe(true);
    await workersSettled();
  });

  it('does not hold up other reads while its client has stopped taking the answer (both its workers stall)', async () => {
    const blobs = new MemoryBlobs();
    const schema = schemaOf('LONG');
    const files = await stored(blobs, { 'a.parquet': await parquetBytes(rows(60_000, 0), 'TIMESTAMP_MILLIS') });
    const small = await stored(blobs, { 's.csv': 'sensor,value,count,ok,day,at\ns1,1.5,1,true,2026-01-01,2026-01-01T00:00:00Z\n' });
    await splitReady(blobs);
    const before = splitStats.reads;
    const stalled = readTableBytes('CSV', files, blobs, columnsOf(schema), schema);
    expect((await stalled.next()).done).toBe(false);
    expect(splitStats.reads - before).toBe(1);
    try {
      // A read that needs a worker of its own: on two cores the pool has one, and the split read holds two.
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('still waiting after 15 s')), 15_000));
      const answer = await Promise.race([all(readTableBytes('ARROW', small, blobs, columnsOf(schema), schema)), timeout]);
      expect(answer.length).toBeGreaterThan(0);
    } finally {
      await stalled.return(undefined);
    }
    await workersSettled();
  }, 40_000);
});
