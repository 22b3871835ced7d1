// Rows of one Parquet file of a view, decoded by hyparquet (chosen by bench: docs/datasets.md, "Parquet"), a
// column at a time (parquetScan) and handed on as column batches: no object per row. The file itself is read
// whole from the byte store first (Parquet's footer is at its end), kept as its chunks; its decoded rows are not.
import type { Readable } from 'node:stream';
import { parquetMetadataAsync, parquetScan, type AsyncBuffer, type DecodedArray } from 'hyparquet';
import type { Cell, Column } from './columns.js';
import type { ColumnBatch } from './arrow-vectors.js';
import { TableReadError } from './table-error.js';

/**
 * Rows decoded per step, per column. Whole row groups of the usual sizes; a larger group is read in steps
 * (bounded memory). In the table worker a step blocks nothing else (docs/datasets.md).
 */
const DECODE_ROWS = 100_000;
/** Rows per batch handed on (an Arrow record batch, a piece of CSV text). */
const OUT_ROWS = 16_384;

/** Timestamps as milliseconds and dates as days (numbers, not a Date object per value): what columns.ts takes. */
const PARSERS = {
  timestampFromMilliseconds: (v: bigint) => Number(v),
  timestampFromMicroseconds: (v: bigint) => Number(v / 1000n),
  timestampFromNanoseconds: (v: bigint) => Number(v / 1_000_000n),
  dateFromDays: (days: number) => days,
};

/**
 * The file's bytes as the chunks they arrived in, read by range: hyparquet asks for the footer and each column
 * chunk, and only that range is copied out (no second copy of the whole file).
 */
async function chunkedFile(bytes: Readable): Promise<AsyncBuffer> {
  const parts: Buffer[] = [];
  const starts: number[] = [];
  let total = 0;
  for await (const part of bytes) {
    starts.push(total);
    parts.push(part as Buffer);
    total += (part as Buffer).length;
  }
  return {
    byteLength: total,
    slice(start: number, end = total): ArrayBuffer {
      const out = new Uint8Array(Math.max(0, end - start));
      let i = 0;
      while (i < parts.length - 1 && starts[i + 1]! <= start) i++;
      for (; i < parts.length && starts[i]! < end; i++) {
        const part = parts[i]!;
        const from = Math.max(0, start - starts[i]!);
        const to = Math.min(part.length, end - starts[i]!);
        out.set(part.subarray(from, to), starts[i]! + from - start);
      }
      return out.buffer;
    },
  };
}

/** A decoded column as the schema column's cells; typed arrays that already are the Arrow type's pass as they are. */
function cellsOf(path: string, column: Column, data: DecodedArray, firstRow: number): ColumnBatch['columns'][number] {
  const arrowType = String(column.type);
  if (data instanceof Float64Array && arrowType === 'Float64') return data;
  if (data instanceof BigInt64Array && arrowType === 'Int64') return data;
  const out = new Array<Cell>(data.length);
  for (let i = 0; i < data.length; i++) {
    try {
      out[i] = column.fromValue(data[i]);
    } catch (err) {
      throw new TableReadError(`${path} row ${firstRow + i + 1}, column "${column.name}": ${(err as Error).message}`);
    }
  }
  return out;
}

export async function* parquetColumns(path: string, bytes: Readable, columns: readonly Column[]): AsyncGenerator<ColumnBatch> {
  const file = await chunkedFile(bytes);
  let metadata;
  try {
    metadata = await parquetMetadataAsync(file);
  } catch (err) {
    throw new TableReadError(`${path}: not a readable Parquet file (${(err as Error).message})`);
  }
  const names = new Set(metadata.schema.slice(1).map((s) => s.name));
  for (const c of columns) if (!names.has(c.name)) throw new TableReadError(`${path}: the schema's column "${c.name}" is not in the Parquet file`);
  const wanted = [...new Set(columns.map((c) => c.name))];
  let scan;
  try {
    scan = await parquetScan({ file, metadata, columns: wanted, parsers: PARSERS });
  } catch (err) {
    throw new TableReadError(`${path}: not a readable Parquet file (${(err as Error).message})`);
  }
  for (const range of scan.ranges) {
    for (let start = range.rowStart; start < range.rowEnd; start += DECODE_ROWS) {
      const end = Math.min(range.rowEnd, start + DECODE_ROWS);
      const decoded = new Map<string, DecodedArray>();
      try {
        for (const name of wanted) decoded.set(name, await scan.readColumn({ column: name, rowStart: start, rowEnd: end }));
      } catch (err) {
        throw new TableReadError(`${path} rows ${start + 1}-${end}: ${(err as Error).message}`);
      }
      const cells = columns.map((c) => cellsOf(path, c, decoded.get(c.name)!, start));
      // Handed on in slices: one Arrow record batch or CSV text per slice, so the encoded answer stays small.
      for (let from = 0; from < end - start; from += OUT_ROWS) {
        const length = Math.min(OUT_ROWS, end - start - from);
        yield { length, columns: cells.map((c) => ('subarray' in c ? c.subarray(from, from + length) : Array.prototype.slice.call(c, from, from + length))) };
      }
    }
  }
}
