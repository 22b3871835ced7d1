// A split read's helper warmed before its first read (docs/datasets.md, "Parquet to CSV in two workers"): a new
// worker runs its code cold, and in a first split read that cost several hundred ms of CPU (the writers, the double
// digits and apache-arrow's message parsing compiled while running, on every thread of V8). So a helper is made
// after a read that had none, and converts a few batches of its own here, between reads, before it is used.
import { tableToIPC } from 'apache-arrow';
import { csvBatch } from './column-text.js';
import { ipcColumns } from './parquet-source.js';
import { planColumns } from './read-table.js';
import { WARMUP_SCHEMA, warmupRows } from './warmup-rows.js';

/** Rows per batch, as a read's batches (parquet-source.ts), and batches run: enough for V8 to optimize the loops. */
const ROWS = 16_384;
const RUNS = 6;

export function warmText(): void {
  const columns = planColumns(WARMUP_SCHEMA, []);
  if (!Array.isArray(columns)) return;
  const ipc = tableToIPC(warmupRows(ROWS), 'stream');
  for (let run = 0; run < RUNS; run++) for (const batch of ipcColumns('warm-up', ipc, columns, 0)) csvBatch(columns, batch.columns, batch.length);
}
