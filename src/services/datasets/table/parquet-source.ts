// Rows of one Parquet file of a view, decoded by parquet-wasm (chosen by bench: docs/datasets.md, "Parquet")
// straight into Arrow record batches, read by apache-arrow and handed on as column batches: no object per row.
// Each column becomes the schema column's values in parquet-values.ts.
// The file is read by ranges from the byte store (docs/datasets.md, "The byte store"): parquet-wasm asks for the
// footer, then each row group's column chunks, one row group at a time; nothing holds the whole file.
import { RecordBatchReader, type RecordBatch, type Schema } from 'apache-arrow';
import type { Column } from './columns.js';
import type { ColumnBatch } from './arrow-vectors.js';
import type { ParquetFile, RecordBatch as WasmRecordBatch } from 'parquet-wasm/esm';
import { parquetWasm } from './parquet-wasm.js';
import { passthroughBatch, type IpcBatch } from './arrow-ipc.js';
import { TableReadError } from './table-error.js';
import { columnOf } from './parquet-values.js';

/** Rows per batch handed on (an Arrow record batch, a piece of CSV text), and per batch parquet-wasm decodes. */
const OUT_ROWS = 16_384;
/**
 * Rows per batch when the batches may go out as parquet-wasm wrote them (an ARROW read of every row): each batch
 * costs a copy out of WebAssembly memory, a parse of its messages and a message to the main thread, so fewer,
 * larger ones (about 2 MB for the bench's five columns) make the read faster (docs/datasets.md, "Parquet").
 */
const IPC_ROWS = 65_536;

/** What parquet-wasm reads a file through: a Blob's size and slice(from, to).arrayBuffer(), no more. */
interface BlobLike {
  size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** Reads `range` of a stored file whole, into one buffer parquet-wasm copies into its memory. */
export type RangeReader = (start: number, end: number) => Promise<ArrayBuffer>;

/**
 * The file as parquet-wasm sees it: its size, and slices fetched from the byte store when asked (the footer
 * first, then each row group's column chunks), so that no more than the part being decoded is held.
 */
const rangedFile = (size: number, read: RangeReader): BlobLike => ({
  size,
  slice: (start, end = size) => ({ arrayBuffer: () => read(Math.max(0, start), Math.min(size, end)) }),
});

/** The file's Arrow schema, as parquet-wasm reads it from the footer (with the embedded Arrow schema if any). */
function arrowSchema(parquet: ParquetFile): Schema {
  const reader = RecordBatchReader.from(parquet.schema().intoIPCStream());
  reader.open();
  return reader.schema;
}

/**
 * The file's rows as column batches; with `ipc` (an ARROW answer taking every row), a batch whose columns already
 * have the answer's layout comes as parquet-wasm's own record batch bytes instead (arrow-ipc.ts).
 */
export async function* parquetColumns(
  path: string,
  size: number,
  read: RangeReader,
  columns: readonly Column[],
  ipc = false,
): AsyncGenerator<ColumnBatch | IpcBatch> {
  for await (const { batch, seen } of wasmBatches(path, size, read, columns, ipc ? IPC_ROWS : OUT_ROWS)) {
    const stream = batch.intoIPCStream();
    const passed = ipc ? passthroughBatch(stream, columns) : undefined;
    if (passed) yield passed;
    else yield* ipcColumns(path, stream, columns, seen);
  }
}

/** A record batch as parquet-wasm wrote it (an Arrow IPC stream in a buffer of its own), for ipcColumns later. */
export interface RawBatch {
  ipc: Uint8Array;
  /** The file's rows before this batch's (error messages count rows from the file's start). */
  seen: number;
}

/** The file's rows as parquet-wasm's record batches, not yet read (a CSV read hands some to another worker). */
export async function* parquetRawBatches(path: string, size: number, read: RangeReader, columns: readonly Column[]): AsyncGenerator<RawBatch> {
  for await (const { batch, seen } of wasmBatches(path, size, read, columns, OUT_ROWS)) yield { ipc: batch.intoIPCStream(), seen };
}

/** One record batch's IPC stream (parquet-wasm's) as column batches of the schema's columns. */
export function ipcColumns(path: string, stream: Uint8Array, columns: readonly Column[], seen: number): ColumnBatch[] {
  const out: ColumnBatch[] = [];
  for (const batch of RecordBatchReader.from(stream) as Iterable<RecordBatch>) {
    const children = new Map(batch.schema.fields.map((f, i) => [f.name, batch.data.children[i]!]));
    out.push({ length: batch.numRows, columns: columns.map((c) => columnOf(path, c, children.get(c.name)!, seen)) });
    seen += batch.numRows;
  }
  return out;
}

/** The file's record batches of `batchSize` rows, as parquet-wasm decodes them, each with the rows before it. */
async function* wasmBatches(
  path: string,
  size: number,
  read: RangeReader,
  columns: readonly Column[],
  batchSize: number,
): AsyncGenerator<{ batch: WasmRecordBatch; seen: number }> {
  const file = rangedFile(size, read);
  const wasm = await parquetWasm();
  let parquet;
  try {
    parquet = await wasm.ParquetFile.fromFile(file as unknown as Blob);
  } catch (err) {
    throw new TableReadError(`${path}: not a readable Parquet file (${messageOf(err)})`);
  }
  let reader: ReadableStreamDefaultReader<WasmRecordBatch> | undefined;
  try {
    const names = new Set(arrowSchema(parquet).fields.map((f) => f.name));
    for (const c of columns) if (!names.has(c.name)) throw new TableReadError(`${path}: the schema's column "${c.name}" is not in the Parquet file`);
    const wanted = [...new Set(columns.map((c) => c.name))];
    // One request at a time: a row group's column chunks are fetched (copied into WebAssembly memory) as it is read.
    const batches = (await parquet.stream({ columns: wanted, batchSize, concurrency: 1 })) as ReadableStream<WasmRecordBatch>;
    reader = batches.getReader();
    let seen = 0;
    for (;;) {
      let next;
      try {
        next = await reader.read();
      } catch (err) {
        throw new TableReadError(`${path} after row ${seen}: not a readable Parquet file (${messageOf(err)})`);
      }
      if (next.done) break;
      const rows = next.value.numRows;
      yield { batch: next.value, seen };
      seen += rows;
    }
  } catch (err) {
    if (err instanceof TableReadError) throw err;
    throw new TableReadError(`${path}: not a readable Parquet file (${messageOf(err)})`);
  } finally {
    // A read ended early (a row limit, a client gone) stops the stream before the file's memory is freed.
    await reader?.cancel().catch(() => undefined);
    parquet.free();
  }
}

/** parquet-wasm rejects with strings as well as Errors. */
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
