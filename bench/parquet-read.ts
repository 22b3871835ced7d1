// `npx tsx bench/parquet-read.ts [ROWS] [ARROW|CSV] [runs] [here|worker]`: a Parquet table read's pipeline alone
// (tableBytes in this thread, or with `worker` through the table worker as a server's read goes; no HTTP) over one generated Parquet file of ROWS rows (default 1,000,000; the datasets
// bench's file: bench/lib/parquet-file.ts) held by a memory byte store. The rate of each run is printed, as rows
// per second and MB of file per second (the bench's measure); the first run includes loading parquet-wasm. Run it
// under `node --cpu-prof` (through tsx's loader) to see where a Parquet read's time goes (docs/datasets.md,
// "Bench"). The file is written once to the system's temporary folder and kept there for the next runs.
import { Readable } from 'node:stream';
import { MemoryBlobs } from '../src/blobs/memory-blobs.js';
import type { FileRecord } from '../src/services/datasets/model.js';
import { planColumns, tableBytes, type TableFormat } from '../src/services/datasets/table/read-table.js';
import { readTableBytes } from '../src/services/datasets/table/worker-pool.js';
import { BENCH_PARQUET_SCHEMA as schema, cachedBenchParquet } from './lib/parquet-file.js';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const FORMAT = (process.argv[3] ?? 'ARROW') as TableFormat;
const RUNS = Number(process.argv[4] ?? 3);
const WORKER = process.argv[5] === 'worker';

const bytes = await cachedBenchParquet(ROWS);
const blobs = new MemoryBlobs();
const info = await blobs.put(Readable.from([bytes]), { maxBytes: 1e10 });
const file: FileRecord = { transactionRid: 't', path: 'large.parquet', blobId: info.blobId, size: info.size, updatedTime: '' };
const columns = planColumns(schema, []);
if (!Array.isArray(columns)) throw new Error(columns.problem);

for (let run = 1; run <= RUNS; run++) {
  const started = performance.now();
  let out = 0;
  const read = WORKER ? readTableBytes(FORMAT, [file], blobs, columns, schema) : tableBytes(FORMAT, [file], blobs, columns, schema);
  for await (const chunk of read) out += chunk.length;
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `run ${run}: ${FORMAT}${WORKER ? ' (worker)' : ''} ${(bytes.length / 1048576 / seconds).toFixed(1)} MB/s of file, ${Math.round(ROWS / seconds).toLocaleString('en-US')} rows/s ` +
      `(${(seconds * 1000).toFixed(0)} ms, ${(out / 1048576).toFixed(1)} MB out)`,
  );
}
