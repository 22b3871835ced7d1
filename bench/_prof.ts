import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tableBytes, planColumns } from '../src/services/datasets/table/read-table.js';
const bytes = readFileSync('/tmp/h21/b.parquet');
const schema = { fieldSchemaList: [
  { name: 'sensor', type: 'STRING', nullable: true }, { name: 'value', type: 'DOUBLE', nullable: true }, { name: 'count', type: 'LONG', nullable: true },
  { name: 'ok', type: 'BOOLEAN', nullable: true }, { name: 'at', type: 'TIMESTAMP', nullable: true }] } as any;
const columns = planColumns(schema, []) as any;
const blobs = { open: async () => Readable.from((function* () { for (let i = 0; i < bytes.length; i += 1048576) yield bytes.subarray(i, i + 1048576); })()) };
for (const format of ['ARROW', 'ARROW', 'CSV'] as const) {
  const t0 = performance.now(); let n = 0;
  for await (const b of tableBytes(format, [{ path: 'b.parquet', blobId: 'x' }], blobs, columns, schema)) n += b.length;
  console.log(format, Math.round(performance.now() - t0), 'ms', n, 'rss', Math.round(process.memoryUsage().rss / 1048576));
}
