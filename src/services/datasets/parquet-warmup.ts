// When a commit puts a Parquet file in a view, the table workers get parquet-wasm ready, and its read path
// compiled, before the first read (docs/datasets.md, "Parquet warm-up"; the work is in table/parquet-warmup.ts).
// Not earlier (at the datasets API's first use): that was tried and its cost fell on every dataset user (the
// docs say what it cost). This side is loaded at start-up, so it holds no table module: those load when a
// Parquet file is first committed.
import type { FileRecord } from './model.js';

/** The same rule as the table reads' (table/read-table.ts tabularFormat). */
const PARQUET = /\.parquet$/i;

/** One app's warm-ups: started after its Parquet commits, stopped by its close or reset. */
export class ParquetWarmup {
  private controller = new AbortController();
  /** Nothing left to warm in this process: a commit then costs no look at its files. */
  private settled = false;
  /** The warm-up last started (the tests wait for it); its outcome as table/parquet-warmup.ts says. */
  last: Promise<string> | undefined;

  /** Whether a commit's files are worth a look. */
  wanted(): boolean {
    return !this.settled;
  }

  /** After a commit: begins a warm-up when one of its files is Parquet. Never throws, never waited on. */
  committed(files: readonly FileRecord[]): void {
    if (this.settled || !files.some((f) => f.blobId !== undefined && PARQUET.test(f.path))) return;
    const signal = this.controller.signal;
    // The table side keeps one warm-up per process: a start while one runs joins it.
    this.last = import('./table/parquet-warmup.js')
      .then((m) => m.warmParquet(signal))
      .then(
        (outcome) => {
          // Cancelled (here, or the run this start joined was): the next Parquet commit may start it again.
          if (outcome !== 'cancelled') this.settled = true;
          return outcome;
        },
        () => 'failed',
      );
  }

  /** The app closes or resets: a warm-up under way stops (a later commit may start one again). */
  cancel(): void {
    this.controller.abort();
    this.controller = new AbortController();
  }
}
