// Row batches out as bytes: an Arrow IPC stream (what pyarrow.ipc.open_stream reads) or CSV with a header row.
// Each yields one buffer per batch, so a reader pulling from it holds about one batch at a time.
import { setImmediate as tick } from 'node:timers/promises';
import { Field, RecordBatch, RecordBatchStreamWriter, Schema, Struct, makeBuilder, makeData } from 'apache-arrow';
import { stringify } from 'csv-stringify/sync';
import type { Cell, Column } from './columns.js';

export async function* arrowStream(columns: readonly Column[], batches: AsyncIterable<Cell[][]>): AsyncGenerator<Buffer> {
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
    for await (const rows of batches) {
      if (rows.length === 0) continue;
      const data = columns.map((c, i) => {
        const builder = makeBuilder({ type: c.type, nullValues: [null] });
        for (const row of rows) builder.append(row[i]);
        return builder.finish().flush();
      });
      writer.write(new RecordBatch(schema, makeData({ type: new Struct(fields), length: rows.length, nullCount: 0, children: data })));
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

/** Rows are encoded; a Buffer is a file's own record text (a passthrough read) and goes out as it is. */
export async function* csvStream(columns: readonly Column[], batches: AsyncIterable<Cell[][] | Buffer>): AsyncGenerator<Buffer> {
  // The header goes out with the first batch, so that a failure in the first batch comes before any byte.
  let header: Buffer | undefined = Buffer.from(stringify([columns.map((c) => c.name)]));
  for await (const rows of batches) {
    if (rows.length === 0) continue;
    const body = Buffer.isBuffer(rows) ? rows : Buffer.from(stringify(rows.map((row) => row.map((cell, i) => columns[i]!.toText(cell)))));
    yield header ? Buffer.concat([header, body]) : body;
    header = undefined;
  }
  if (header) yield header;
}
