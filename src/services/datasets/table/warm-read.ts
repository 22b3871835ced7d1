// The warm-up's second half, in a table worker (docs/datasets.md, "Parquet warm-up"): a tiny Parquet file, made
// here, read through the same pipeline as a real read (both formats), so that the code a first Parquet read runs
// cold (parquet-wasm's functions, which V8 compiles on their first call, and this side's JavaScript: apache-arrow's
// message parsing, the passthrough and the CSV writers) is compiled before that read comes.
import { Readable } from 'node:stream';
import { Bool, Float64, Int64, Table, TimestampMillisecond, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import type { DatasetSchema } from '../model.js';
import { parquetWasm } from './parquet-wasm.js';
import { planColumns, tableBytes, type ByteSource, type FitMemory } from './read-table.js';

const SCHEMA: DatasetSchema = {
  fieldSchemaList: [
    { name: 'sensor', type: 'STRING', nullable: true },
    { name: 'value', type: 'DOUBLE', nullable: true },
    { name: 'count', type: 'LONG', nullable: true },
    { name: 'ok', type: 'BOOLEAN', nullable: true },
    { name: 'at', type: 'TIMESTAMP', nullable: true },
  ],
} as DatasetSchema;

const NO_FITS: FitMemory = { has: () => false, remember: () => undefined };

/** Parquet files of a few rows of the common column types: uncompressed and Snappy (what most writers use). */
async function tinyFiles(): Promise<Uint8Array[]> {
  const pw = await parquetWasm();
  const rows = 64;
  const table = new Table({
    sensor: vectorFromArray(
      Array.from({ length: rows }, (_, i) => `s${i % 7}`),
      new Utf8(),
    ),
    value: vectorFromArray(
      Array.from({ length: rows }, (_, i) => (i % 5 === 0 ? null : i / 3)),
      new Float64(),
    ),
    count: vectorFromArray(
      Array.from({ length: rows }, (_, i) => BigInt(i)),
      new Int64(),
    ),
    ok: vectorFromArray(
      Array.from({ length: rows }, (_, i) => i % 2 === 0),
      new Bool(),
    ),
    at: vectorFromArray(
      Array.from({ length: rows }, (_, i) => 1_767_225_600_000 + i * 1000),
      new TimestampMillisecond(),
    ),
  });
  const ipc = tableToIPC(table, 'stream');
  return [pw.Compression.UNCOMPRESSED, pw.Compression.SNAPPY].map((compression) =>
    pw.writeParquet(pw.Table.fromIPCStream(ipc), new pw.WriterPropertiesBuilder().setCompression(compression).build()),
  );
}

/**
 * Reads each tiny file as ARROW and as CSV; the answers are dropped. Stops between steps once `stop()` holds (a
 * real read came). Throws what the read throws (a bug).
 */
export async function warmRead(stop: () => boolean = () => false): Promise<void> {
  const columns = planColumns(SCHEMA, []);
  if (!Array.isArray(columns)) throw new Error(columns.problem);
  if (stop()) return;
  for (const bytes of await tinyFiles()) {
    const source: ByteSource = {
      open: async (_blobId, range) => Readable.from([Buffer.from(bytes.subarray(range?.start ?? 0, range?.end ?? bytes.length))]),
      range: async (_blobId, start, end) => bytes.slice(start, end).buffer,
    };
    const file = { path: 'warm-up.parquet', blobId: 'warm-up', size: bytes.length };
    for (const format of ['ARROW', 'CSV'] as const) {
      if (stop()) return;
      for await (const chunk of tableBytes(format, [file], source, columns, SCHEMA, undefined, NO_FITS)) void chunk;
    }
  }
}
