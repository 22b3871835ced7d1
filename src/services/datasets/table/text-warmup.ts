// A split read's helper warmed before its first read (docs/datasets.md, "Parquet to CSV in two workers"): a new
// worker runs its code cold, and in a first split read that cost several hundred ms of CPU (the writers, the double
// digits and apache-arrow's message parsing compiled while running, on every thread of V8). So a helper is made
// after a read that had none, and converts a few batches of its own here, between reads, before it is used.
import { DateDay, Float64, Int64, Table, TimestampMillisecond, Utf8, Bool, tableToIPC, vectorFromArray } from 'apache-arrow';
import type { DatasetSchema } from '../model.js';
import { csvBatch } from './column-text.js';
import { ipcColumns } from './parquet-source.js';
import { planColumns } from './read-table.js';

const SCHEMA: DatasetSchema = {
  fieldSchemaList: ['sensor:STRING', 'value:DOUBLE', 'count:LONG', 'ok:BOOLEAN', 'day:DATE', 'at:TIMESTAMP'].map((s) => ({
    name: s.split(':')[0]!,
    type: s.split(':')[1]!,
    nullable: true,
  })),
} as DatasetSchema;

/** Rows per batch, as a read's batches (parquet-source.ts), and batches run: enough for V8 to optimize the loops. */
const ROWS = 16_384;
const RUNS = 6;

export function warmText(): void {
  const columns = planColumns(SCHEMA, []);
  if (!Array.isArray(columns)) return;
  const table = new Table({
    sensor: vectorFromArray(
      Array.from({ length: ROWS }, (_v, i) => `s${i % 13}`),
      new Utf8(),
    ),
    // Doubles of 15, 16 and 17 digits, integers and nulls: each way of writeDouble.
    value: vectorFromArray(
      Array.from({ length: ROWS }, (_v, i) => (i % 50 === 0 ? null : i / 3)),
      new Float64(),
    ),
    count: vectorFromArray(
      Array.from({ length: ROWS }, (_v, i) => BigInt(i * 7919)),
      new Int64(),
    ),
    ok: vectorFromArray(
      Array.from({ length: ROWS }, (_v, i) => i % 3 === 0),
      new Bool(),
    ),
    day: vectorFromArray(
      Array.from({ length: ROWS }, (_v, i) => new Date(Date.UTC(2026, 0, 1 + (i % 500)))),
      new DateDay(),
    ),
    at: vectorFromArray(
      Array.from({ length: ROWS }, (_v, i) => 1_767_225_600_000 + i * 1_001),
      new TimestampMillisecond(),
    ),
  });
  const ipc = tableToIPC(table, 'stream');
  for (let run = 0; run < RUNS; run++) for (const batch of ipcColumns('warm-up', ipc, columns, 0)) csvBatch(columns, batch.columns, batch.length);
}
