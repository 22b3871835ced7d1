// The table workers get parquet-wasm ready, and its read path compiled, before the first Parquet read
// (docs/datasets.md, "Parquet warm-up"; the work is in table/parquet-warmup.ts). It starts at the datasets API's
// first use in a process (a dataset created, a file upload begun), so that it has the time of the uploads and
// reads before a Parquet read to run in, or at the latest when a commit adds a Parquet file. This side is loaded at
// start-up, so it holds no table module: those load when the warm-up starts.
import type { FileRecord } from './model.js';

/** The same rule as the table reads' (table/read-table.ts tabularFormat). */
const PARQUET = /\.parquet$/i;

/** One app's warm-ups: started by its first use or a Parquet commit, stopped by its close or reset. */
export class ParquetWarmup {
  private controller = new AbortController();
  /** Nothing left to warm in this process: a commit then costs no look at its files. */
  private settled = false;
  /** A warm-up was started since the last cancel: another use starts nothing. */
  private begun = false;
  /** The warm-up last started (the tests wait for it); its outcome as table/parquet-warmup.ts says. */
  last: Promise<string> | undefined;

  /** Whether a commit's files are worth a look. */
  wanted(): boolean {
    return !this.settled;
  }

  /** The datasets API is used (a dataset created, an upload begun): begins the warm-up once. Never throws. */
  used(): void {
    if (!this.settled && !this.begun) this.start();
  }

  /** After a commit: begins a warm-up when one of its files is Parquet. Never throws, never waited on. */
  committed(files: readonly FileRecord[]): void {
    if (this.settled || !files.some((f) => f.blobId !== undefined && PARQUET.test(f.path))) return;
    this.start();
  }

  private start(): void {
    this.begun = true;
    const signal = this.controller.signal;
    // The table side keeps one warm-up per process: a start while one runs joins it.
    this.last = import('./table/parquet-warmup.js')
      .then((m) => m.warmParquet(signal))
      .then(
        (outcome) => {
          // Cancelled (here, or the run this start joined was): the next use may start it again.
          if (outcome === 'cancelled') this.begun = false;
          else this.settled = true;
          return outcome;
        },
        () => 'failed',
      );
  }

  /** The app closes or resets: a warm-up under way stops (a later use or commit may start one again). */
  cancel(): void {
    this.controller.abort();
    this.controller = new AbortController();
    this.begun = false;
  }
}
