// The table-read modules (the readers and encoders over apache-arrow, the CSV parsers and parquet-wasm's glue,
// the worker pool) load at the first table read, not at start-up: evaluating them was about 5% of a start's CPU,
// for a route many runs never call (docs/performance.md, "Start-up").
import type { planColumns } from './table/read-table.js';
import type { readTableBytes } from './table/worker-pool.js';
import type { arrowStream, csvStream } from './table/encode.js';

export interface TableModules {
  planColumns: typeof planColumns;
  readTableBytes: typeof readTableBytes;
  arrowStream: typeof arrowStream;
  csvStream: typeof csvStream;
}

let loading: Promise<TableModules> | undefined;

export function tableModules(): Promise<TableModules> {
  loading ??= Promise.all([import('./table/read-table.js'), import('./table/worker-pool.js'), import('./table/encode.js')]).then(([read, pool, encode]) => ({
    planColumns: read.planColumns,
    readTableBytes: pool.readTableBytes,
    arrowStream: encode.arrowStream,
    csvStream: encode.csvStream,
  }));
  return loading;
}
