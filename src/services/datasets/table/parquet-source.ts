// Rows of one Parquet file of a view, decoded by hyparquet (chosen by bench: docs/datasets.md, "Parquet"),
// one row group at a time, converted to the schema's column types. The file itself is read whole from the
// byte store first (Parquet's footer is at its end); its decoded rows are not.
import type { Readable } from 'node:stream';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import type { Cell, Column } from './columns.js';
import { TableReadError } from './table-error.js';

const DECODE_ROWS = 5_000;

async function whole(bytes: Readable): Promise<ArrayBuffer> {
  const parts: Buffer[] = [];
  for await (const part of bytes) parts.push(part as Buffer);
  const all = Buffer.concat(parts);
  // A large concat owns its whole ArrayBuffer: handed over as it is, not copied a second time.
  if (all.byteOffset === 0 && all.byteLength === all.buffer.byteLength) return all.buffer as ArrayBuffer;
  return all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
}

export async function* parquetRows(path: string, bytes: Readable, columns: readonly Column[], batchRows: number): AsyncGenerator<Cell[][]> {
  const file = await whole(bytes);
  let metadata;
  try {
    metadata = parquetMetadata(file);
  } catch (err) {
    throw new TableReadError(`${path}: not a readable Parquet file (${(err as Error).message})`);
  }
  const names = new Set(metadata.schema.slice(1).map((s) => s.name));
  for (const c of columns) if (!names.has(c.name)) throw new TableReadError(`${path}: the schema's column "${c.name}" is not in the Parquet file`);
  const total = Number(metadata.num_rows);
  // Decoded DECODE_ROWS at a time, converted and handed on batchRows at a time so the event loop gets its turns.
  // 20,000-row calls decoded about 2.5x faster than 5,000-row ones, but blocked the event loop for 100-300 ms
  // each on the shared machine; getCurrent's 20 ms p99 target chose the smaller calls (docs/datasets.md).
  for (let start = 0; start < total; start += DECODE_ROWS) {
    const end = Math.min(total, start + DECODE_ROWS);
    let objects: Array<Record<string, unknown>>;
    try {
      objects = (await parquetReadObjects({ file, metadata, columns: columns.map((c) => c.name), rowStart: start, rowEnd: end })) as Array<
        Record<string, unknown>
      >;
    } catch (err) {
      throw new TableReadError(`${path} rows ${start + 1}-${end}: ${(err as Error).message}`);
    }
    for (let from = 0; from < objects.length; from += batchRows) {
      const slice = objects.slice(from, from + batchRows);
      yield slice.map((o, n) =>
        columns.map((c) => {
          try {
            return c.fromValue(o[c.name]);
          } catch (err) {
            throw new TableReadError(`${path} row ${start + from + n + 1}, column "${c.name}": ${(err as Error).message}`);
          }
        }),
      );
    }
  }
}
