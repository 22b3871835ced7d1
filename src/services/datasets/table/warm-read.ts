// The warm-up's second half, in a table worker (docs/datasets.md, "Parquet warm-up"): Parquet files made here,
// read through the same pipeline as a real read, so that the code a first Parquet read runs cold is compiled
// before that read comes. Two kinds of reads:
// - tiny files (64 rows; nullable columns, dictionary pages, uncompressed and Snappy) as ARROW and as CSV: each
//   parquet-wasm function a read calls is compiled once (V8 compiles it at its first call), and this side's
//   JavaScript (apache-arrow's message parsing, the passthrough, the CSV writers) has run;
// - a larger plain file (hot-file.ts) read as ARROW ten times: enough work that V8 moves the decode loops and the
//   passthrough to its optimizing tier. After the tiny reads alone, the bench file's first read still cost about
//   155 ms of CPU against 65 for a later one; after these too, about 110 (docs/datasets.md, "Parquet warm-up").
// The work is cut into steps (making a file, one read); a real read arriving stops it between steps or batches, and
// the worker resumes it when idle again, so a read waits at most for the step under way: the first read, where
// the most is compiled, blocked this thread 100-150 ms here, the others under 60 ms.
import { Readable } from 'node:stream';
import { tableToIPC } from 'apache-arrow';
import { hotParquet, HOT_READS } from './hot-file.js';
import { parquetWasm } from './parquet-wasm.js';
import { planColumns, tableBytes, type ByteSource, type FitMemory, type TableFormat } from './read-table.js';
import type { DatasetSchema } from '../model.js';
import { WARMUP_SCHEMA, warmupRows } from './warmup-rows.js';

/** The warm-up rows' columns but the date: every read here shares one schema, and the hot file (hot-file.ts) has none. */
const COLUMNS = ['sensor', 'value', 'count', 'ok', 'at'];
const SCHEMA = { fieldSchemaList: WARMUP_SCHEMA.fieldSchemaList.filter((f) => COLUMNS.includes(f.name ?? '')) } as DatasetSchema;

const NO_FITS: FitMemory = { has: () => false, remember: () => undefined };

/** A few rows of the common column types, nulls among them, as an Arrow IPC stream for parquet-wasm's writer. */
const tinyRows = () => tableToIPC(warmupRows(64).select(COLUMNS), 'stream');

/** Those rows as a Parquet file with parquet-wasm's default pages (dictionary), compressed as asked. */
async function tinyFile(compression: 'UNCOMPRESSED' | 'SNAPPY', rows: Uint8Array): Promise<Uint8Array> {
  const pw = await parquetWasm();
  return pw.writeParquet(pw.Table.fromIPCStream(rows), new pw.WriterPropertiesBuilder().setCompression(pw.Compression[compression]).build());
}

/** One read of the warm-up: a file (made on demand) and the answer's format. */
interface Step {
  file: () => Promise<Uint8Array>;
  format: TableFormat;
}

function steps(): Step[] {
  let rows: Uint8Array | undefined;
  const tiny = (compression: 'UNCOMPRESSED' | 'SNAPPY') => {
    let file: Promise<Uint8Array> | undefined;
    return () => (file ??= tinyFile(compression, (rows ??= tinyRows())));
  };
  let hot: Promise<Uint8Array> | undefined;
  const hotFile = () => (hot ??= parquetWasm().then(hotParquet));
  return [
    ...[tiny('UNCOMPRESSED'), tiny('SNAPPY')].flatMap((file) => (['ARROW', 'CSV'] as const).map((format) => ({ file, format }))),
    ...Array.from({ length: HOT_READS }, () => ({ file: hotFile, format: 'ARROW' as const })),
  ];
}

/** The steps not run yet in this thread (module state: one warm-up per worker, resumed where it stopped). */
let left: Step[] | undefined;

/** Reads one file through the real pipeline, answer dropped; false when `stop()` cut it short. */
async function readOnce(bytes: Uint8Array, format: TableFormat, stop: () => boolean): Promise<boolean> {
  const columns = planColumns(SCHEMA, []);
  if (!Array.isArray(columns)) throw new Error(columns.problem);
  const source: ByteSource = {
    open: async (_blobId, range) => Readable.from([Buffer.from(bytes.subarray(range?.start ?? 0, range?.end ?? bytes.length))]),
    range: async (_blobId, start, end) => bytes.slice(start, end).buffer,
  };
  const file = { path: 'warm-up.parquet', blobId: 'warm-up', size: bytes.length };
  // Leaving the loop early ends the generator, which frees parquet-wasm's file (parquet-source.ts).
  for await (const _chunk of tableBytes(format, [file], source, columns, SCHEMA, undefined, NO_FITS)) if (stop()) return false;
  return true;
}

/**
 * Runs the steps left, answers dropped. Answers true when every step has run (now or before), false when
 * `stop()` held first (a real read came: call again when idle). Throws what a read throws (a bug).
 */
export async function warmRead(stop: () => boolean = () => false): Promise<boolean> {
  left ??= steps();
  while (left.length > 0) {
    if (stop()) return false;
    const step = left[0]!;
    // Making a file is a step of its own: a read that came meanwhile goes first.
    const bytes = await step.file();
    if (stop() || !(await readOnce(bytes, step.format, stop))) return false;
    left.shift();
  }
  return true;
}

/** Tests only: the next warmRead starts over. */
export function resetWarmRead(): void {
  left = undefined;
}
