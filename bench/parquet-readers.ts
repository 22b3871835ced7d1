// `node --expose-gc --import tsx bench/parquet-readers.ts [ROWS]`: the Parquet readers considered for readTable,
// on one file of ROWS rows (default 1,000,000; columns string, double, int64, boolean, timestamp; row groups of
// 100,000) written by @dsnp/parquetjs. Each reads the whole file three times; the best time, the heap growth and
// the resident memory growth (WebAssembly memory is outside the heap) are printed. Two rounds: every row as
// objects (hyparquet against @dsnp/parquetjs: chose hyparquet first), then columns into Arrow record batches of
// 16,384 rows as readTable needs them (hyparquet's column reads against parquet-wasm's Arrow IPC stream read by
// apache-arrow: chose parquet-wasm). docs/datasets.md, "Parquet".
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ParquetReader } from '@dsnp/parquetjs';
import { writeBenchParquet } from './lib/parquet-file.js';
import { parquetMetadata, parquetMetadataAsync, parquetReadObjects, parquetScan } from 'hyparquet';
import { RecordBatchReader } from 'apache-arrow';
import type { RecordBatch as WasmRecordBatch } from 'parquet-wasm/esm';
import { parquetWasm } from '../src/services/datasets/table/parquet-wasm.js';
const COLUMNS = ['sensor', 'value', 'count', 'ok', 'at'];

const ROWS = Number(process.argv[2] ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'parquet-bench-'));
const file = join(dir, 'bench.parquet');

const write = () => writeBenchParquet(file, ROWS);

async function viaHyparquet(): Promise<number> {
  const bytes = readFileSync(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const metadata = parquetMetadata(buffer);
  let rows = 0;
  // Row groups of 100,000 as readTable reads them (a batch at a time).
  for (let start = 0; start < Number(metadata.num_rows); start += 100_000) {
    rows += (await parquetReadObjects({ file: buffer, metadata, rowStart: start, rowEnd: start + 100_000 })).length;
  }
  return rows;
}

async function viaParquetjs(): Promise<number> {
  const reader = await ParquetReader.openFile(file);
  const cursor = reader.getCursor();
  let rows = 0;
  while (await cursor.next()) rows++;
  await reader.close();
  return rows;
}

/** Columns a row group at a time in steps of 100,000 rows, as readTable read them with hyparquet. */
async function columnsViaHyparquet(): Promise<number> {
  const bytes = readFileSync(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const metadata = await parquetMetadataAsync(buffer);
  const scan = await parquetScan({ file: buffer, metadata, columns: COLUMNS });
  let rows = 0;
  for (const range of scan.ranges) {
    for (let start = range.rowStart; start < range.rowEnd; start += 100_000) {
      const end = Math.min(range.rowEnd, start + 100_000);
      const lengths = await Promise.all(COLUMNS.map(async (column) => (await scan.readColumn({ column, rowStart: start, rowEnd: end })).length));
      rows += lengths[0]!;
    }
  }
  return rows;
}

/** parquet-wasm's record batch stream (ranges of the file asked as needed), each batch read by apache-arrow. */
async function columnsViaParquetWasm(): Promise<number> {
  const bytes = readFileSync(file);
  const blob = {
    size: bytes.length,
    slice: (from: number, to: number) => ({ arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset + from, bytes.byteOffset + to) }),
  };
  const parquet = await (await parquetWasm()).ParquetFile.fromFile(blob as unknown as Blob);
  let rows = 0;
  try {
    for await (const batch of (await parquet.stream({ columns: COLUMNS, batchSize: 16_384 })) as unknown as AsyncIterable<WasmRecordBatch>) {
      for (const arrow of RecordBatchReader.from(batch.intoIPCStream())) rows += arrow.numRows;
    }
  } finally {
    parquet.free();
  }
  return rows;
}

async function time(name: string, run: () => Promise<number>): Promise<void> {
  let best = Infinity;
  let heap = 0;
  let rss = 0;
  for (let i = 0; i < 3; i++) {
    global.gc?.();
    const before = process.memoryUsage();
    const started = performance.now();
    const rows = await run();
    const ms = performance.now() - started;
    const after = process.memoryUsage();
    heap = Math.max(heap, after.heapUsed - before.heapUsed);
    rss = Math.max(rss, after.rss - before.rss);
    if (rows !== ROWS) throw new Error(`${name} read ${rows} rows of ${ROWS}`);
    best = Math.min(best, ms);
  }
  console.log(
    `${name.padEnd(18)} ${ROWS.toLocaleString('en-US')} rows  best ${Math.round(best)} ms  ${Math.round(ROWS / (best / 1000)).toLocaleString('en-US')} rows/s  heap +${Math.round(heap / 1048576)} MB  rss +${Math.round(rss / 1048576)} MB`,
  );
}

try {
  const started = performance.now();
  await write();
  console.log(
    `wrote ${ROWS.toLocaleString('en-US')} rows in ${Math.round(performance.now() - started)} ms (${Math.round(readFileSync(file).length / 1048576)} MB)`,
  );
  console.log('rows as objects:');
  await time('hyparquet 1.33.0', viaHyparquet);
  await time('@dsnp/parquetjs 1.8.9', viaParquetjs);
  console.log('columns into Arrow batches:');
  await time('hyparquet 1.33.0', columnsViaHyparquet);
  await time('parquet-wasm 0.8.0', columnsViaParquetWasm);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
