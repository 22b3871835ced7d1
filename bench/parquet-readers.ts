// `npx tsx bench/parquet-readers.ts [ROWS]`: the two Parquet readers considered for readTable, on one file of
// ROWS rows (default 1,000,000; columns string, double, int64, boolean, timestamp) written by @dsnp/parquetjs.
// Each reads every row as objects, three times; the best time and the heap growth are printed. The numbers
// chose hyparquet (docs/datasets.md, "Parquet").
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ParquetReader } from '@dsnp/parquetjs';
import { writeBenchParquet } from './lib/parquet-file.js';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';

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

async function time(name: string, run: () => Promise<number>): Promise<void> {
  let best = Infinity;
  let heap = 0;
  for (let i = 0; i < 3; i++) {
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    const rows = await run();
    const ms = performance.now() - started;
    heap = Math.max(heap, process.memoryUsage().heapUsed - before);
    if (rows !== ROWS) throw new Error(`${name} read ${rows} rows of ${ROWS}`);
    best = Math.min(best, ms);
  }
  console.log(
    `${name.padEnd(18)} ${ROWS.toLocaleString('en-US')} rows  best ${Math.round(best)} ms  ${Math.round(ROWS / (best / 1000)).toLocaleString('en-US')} rows/s  heap +${Math.round(heap / 1048576)} MB`,
  );
}

try {
  const started = performance.now();
  await write();
  console.log(
    `wrote ${ROWS.toLocaleString('en-US')} rows in ${Math.round(performance.now() - started)} ms (${Math.round(readFileSync(file).length / 1048576)} MB)`,
  );
  await time('hyparquet 1.33.0', viaHyparquet);
  await time('@dsnp/parquetjs 1.8.9', viaParquetjs);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
