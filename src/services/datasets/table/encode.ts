// Row batches out as bytes: an Arrow IPC stream (what pyarrow.ipc.open_stream reads) or CSV with a header row.
// Each yields one buffer per batch, so a reader pulling from it holds about one batch at a time.
import { setImmediate as tick } from 'node:timers/promises';
import { Field, RecordBatch, RecordBatchStreamWriter, Schema, Struct, makeData } from 'apache-arrow';
import type { Cell, Column } from './columns.js';
import { columnData, isColumnBatch, type ColumnBatch } from './arrow-vectors.js';
import { csvBatch, csvField } from './column-text.js';
import { isIpcBatch, type IpcBatch } from './arrow-ipc.js';

/** Rows as columns (a row batch is turned around once; a column batch is taken as it is). */
function asColumns(columns: readonly Column[], batch: Cell[][] | ColumnBatch): ColumnBatch {
  if (isColumnBatch(batch)) return batch;
  return { length: batch.length, columns: columns.map((_c, i) => batch.map((row) => row[i]!)) };
}

/**
 * Record batches come as values (written by apache-arrow) or as bytes (IpcBatch: a Parquet file's own, arrow-ipc.ts)
 * after the one schema message this writes first; both follow it in the order they arrive.
 */
export async function* arrowStream(columns: readonly Column[], batches: AsyncIterable<Cell[][] | ColumnBatch | IpcBatch>): AsyncGenerator<Buffer> {
  const fields = columns.map((c) => new Field(c.name, c.type, true));
  const schema = new Schema(fields);
  const writer = new RecordBatchStreamWriter();
  const out: Uint8Array[] = [];
  const drained = (async () => {
    for await (const chunk of writer) out.push(chunk);
  })();
  // The writer queues its bytes for an async reader; after a macrotask the reader above has taken them all.
  const take = async () => {
    await tick();
    return Buffer.concat(out.splice(0));
  };
  let wrote = false;
  let closed = false;
  try {
    for await (const batch of batches) {
      if (batch.length === 0) continue;
      // The schema message goes out with the first batch (never before: a first file that fails is a 400).
      if (!wrote) writer.reset(undefined, schema);
      if (isIpcBatch(batch)) {
        wrote = true;
        const head = await take();
        yield head.length > 0 ? Buffer.concat([head, batch.ipc]) : Buffer.from(batch.ipc.buffer, batch.ipc.byteOffset, batch.ipc.byteLength);
        continue;
      }
      const { length, columns: cells } = asColumns(columns, batch);
      const data = columns.map((c, i) => columnData(c.type, cells[i]!, length));
      writer.write(new RecordBatch(schema, makeData({ type: new Struct(fields), length, nullCount: 0, children: data })));
      wrote = true;
      yield await take();
    }
    // A table with no rows is still a stream with its schema, which pyarrow reads as an empty table.
    if (!wrote) writer.reset(undefined, schema);
    writer.close();
    closed = true;
    await drained;
    yield Buffer.concat(out.splice(0));
  } finally {
    // Ended early (a failed file, a reader gone): the writer is closed so that its reader above finishes.
    if (!closed) {
      writer.close();
      await drained.catch(() => undefined);
    }
  }
}

export { csvField };

/** Rows are encoded; a Buffer is a file's own record text (a passthrough read) and goes out as it is. */
export async function* csvStream(columns: readonly Column[], batches: AsyncIterable<Cell[][] | ColumnBatch | Buffer>): AsyncGenerator<Buffer> {
  // The header goes out with the first batch, so that a failure in the first batch comes before any byte.
  let header: Buffer | undefined = Buffer.from(`${columns.map((c) => csvField(c.name)).join(',')}\n`);
  for await (const rows of batches) {
    if (rows.length === 0) continue;
    // Written a column at a time where its type allows (column-text.ts), else a value at a time.
    const body = Buffer.isBuffer(rows) ? rows : csvBatch(columns, asColumns(columns, rows).columns, rows.length);
    yield header ? Buffer.concat([header, body]) : body;
    header = undefined;
  }
  if (header) yield header;
}
