// The warm-up's larger Parquet file (warm-read.ts): rows enough that reading it a few times moves parquet-wasm's
// decode loops and this side's hot JavaScript to V8's optimizing tier, as a real read's first row groups would.
// Plain pages, required columns, no compression: the layout of many simple writers' files (the bench's among
// them); the tiny files cover dictionary pages, nulls and Snappy. Row groups of 1,024 rows and pages of about 4 KB,
// so that the steps between pages and between row groups (each fetched as its own range) run often too: that
// took the bench file's first read from about 135 to 110 ms of CPU in the decode. Built from typed arrays (no
// object per value) and written by parquet-wasm's own writer, so nothing is shipped: 128 KB, made in the worker,
// then dropped.
import { Bool, Field, Float64, Int64, RecordBatch, Schema, Struct, Table, TimestampMillisecond, Utf8, makeData, tableToIPC } from 'apache-arrow';
import type { ParquetWasm } from './parquet-wasm.js';

/** Rows of the file, and how many times it is read (measured: docs/datasets.md, "Parquet warm-up"). */
export const HOT_ROWS = 4_096;
export const HOT_READS = 10;

/** The bench's five column types, with values of the same shape (short repeated strings, a second apart). */
export function hotParquet(pw: ParquetWasm, rows = HOT_ROWS): Uint8Array {
  const fields = [
    new Field('sensor', new Utf8(), false),
    new Field('value', new Float64(), false),
    new Field('count', new Int64(), false),
    new Field('ok', new Bool(), false),
    new Field('at', new TimestampMillisecond('UTC'), false),
  ];
  // "s0".."s99", as UTF-8.
  const names = Array.from({ length: 100 }, (_, k) => new TextEncoder().encode(`s${k}`));
  const offsets = new Int32Array(rows + 1);
  const text = new Uint8Array(rows * 3);
  const value = new Float64Array(rows);
  const count = new BigInt64Array(rows);
  const at = new BigInt64Array(rows);
  for (let i = 0, end = 0; i < rows; i++) {
    const name = names[i % 100]!;
    text.set(name, end);
    offsets[i + 1] = end += name.length;
    value[i] = i / 3;
    count[i] = BigInt(i);
    at[i] = BigInt(1_767_225_600_000 + i * 1000);
  }
  // Every other row true (bits 0, 2, 4 and 6 of each byte).
  const ok = new Uint8Array(Math.ceil(rows / 8)).fill(0x55);
  const children = [
    makeData({ type: fields[0]!.type as Utf8, length: rows, nullCount: 0, valueOffsets: offsets, data: text.subarray(0, offsets[rows]) }),
    makeData({ type: fields[1]!.type as Float64, length: rows, nullCount: 0, data: value }),
    makeData({ type: fields[2]!.type as Int64, length: rows, nullCount: 0, data: count }),
    makeData({ type: fields[3]!.type as Bool, length: rows, nullCount: 0, data: ok }),
    makeData({ type: fields[4]!.type as TimestampMillisecond, length: rows, nullCount: 0, data: at }),
  ];
  const batch = new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: rows, nullCount: 0, children }));
  const ipc = tableToIPC(new Table(batch), 'stream');
  const plain = new pw.WriterPropertiesBuilder()
    .setDictionaryEnabled(false)
    .setCompression(pw.Compression.UNCOMPRESSED)
    .setMaxRowGroupSize(1024)
    .setDataPageSizeLimit(4096)
    .build();
  return pw.writeParquet(pw.Table.fromIPCStream(ipc), plain);
}
