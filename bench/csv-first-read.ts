// `npx tsx bench/csv-first-read.ts [MB] [CSV|ARROW] [runs]`: a table read's pipeline alone (tableBytes in this
// thread, no worker, no HTTP) over one generated CSV file of MB megabytes (default 50; the datasets bench's
// columns and rows) held by a memory byte store. Each run is a first read (no file is known to fit), so a CSV
// read checks every value; the rate of each run is printed. Run it under `node --cpu-prof` (through tsx's
// loader) to see where a first read's time goes (docs/datasets.md, "Bench").
import { Readable } from 'node:stream';
import { MemoryBlobs } from '../src/blobs/memory-blobs.js';
import type { DatasetSchema, FileRecord } from '../src/services/datasets/model.js';
import { planColumns, tableBytes, type FitMemory, type TableFormat } from '../src/services/datasets/table/read-table.js';

const MB = Number(process.argv[2] ?? 50);
const FORMAT = (process.argv[3] ?? 'CSV') as TableFormat;
const RUNS = Number(process.argv[4] ?? 3);

/** Built a block of lines at a time (not one string per line kept), so that the profile shows the read, not this. */
function makeFile(): Buffer {
  const parts = [Buffer.from('sensor,value,count,ok,at\n')];
  let size = 0;
  for (let i = 0; size < MB * 1048576;) {
    let block = '';
    for (let j = 0; j < 10_000; j++, i++)
      block += `s${i % 100},${(i / 3).toFixed(4)},${i},${i % 2 === 0},2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z\n`;
    parts.push(Buffer.from(block));
    size += block.length;
  }
  return Buffer.concat(parts);
}

const schema: DatasetSchema = {
  fieldSchemaList: ['STRING:sensor', 'DOUBLE:value', 'LONG:count', 'BOOLEAN:ok', 'TIMESTAMP:at'].map((s) => ({
    type: s.split(':')[0]!,
    name: s.split(':')[1]!,
    nullable: true,
  })),
};

const blobs = new MemoryBlobs();
const bytes = makeFile();
const info = await blobs.put(Readable.from([bytes]), { maxBytes: 1e10 });
const file: FileRecord = { transactionRid: 't', path: 'large.csv', blobId: info.blobId, size: info.size, updatedTime: '' };
const columns = planColumns(schema, []);
if (!Array.isArray(columns)) throw new Error(columns.problem);
/** Never knows a file: every run is a first read. */
const forgetful: FitMemory = { has: () => false, remember: () => undefined };

for (let run = 1; run <= RUNS; run++) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let out = 0;
  for await (const chunk of tableBytes(FORMAT, [file], blobs, columns, schema, undefined, forgetful)) out += chunk.length;
  const seconds = (performance.now() - started) / 1000;
  // CPU time (all threads: the collector's too) moves less with the machine's load than the wall clock does.
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  console.log(
    `run ${run}: ${FORMAT} ${(bytes.length / 1048576 / seconds).toFixed(1)} MB/s of file (${seconds.toFixed(2)} s, ${(out / 1048576).toFixed(1)} MB out), ${(bytes.length / 1048576 / cpuSeconds).toFixed(1)} MB per CPU second`,
  );
}
