// Messages between a table read on the main thread and the table worker that converts it (docs/datasets.md,
// "Table reads off the event loop"). The worker asks for file bytes chunk by chunk (the byte store stays on the
// main thread) and sends encoded answer bytes back, at most OUT_WINDOW chunks ahead of what the socket took.
import type { DatasetSchema } from '../model.js';
import type { TableFormat } from './read-table.js';
import type { ByteRange } from '../../../blobs/index.js';
import type { MessagePort } from 'node:worker_threads';

/**
 * A stored chunk (1 MiB) goes to the worker as pieces of this size, each in its own transferred buffer. A
 * buffer that lived through the processing of a whole 1 MiB chunk outlived the worker's young-generation
 * collections; such garbage was freed only when V8's external-memory limit (about 64 MB) forced a full
 * collection, and that was most of a first CSV read's RSS growth (docs/datasets.md, "Memory of a table read").
 */
export const PIECE_BYTES = 64 * 1024;

/** Answer chunks the worker may send before the main thread acknowledges one (backpressure). */
export const OUT_WINDOW = 4;

export interface ReadJob {
  format: TableFormat;
  files: Array<{ path: string; blobId?: string; size: number }>;
  schema: DatasetSchema;
  /** The column names asked for (already checked against the schema by the caller). */
  columns: string[];
  rowLimit?: number;
  /** Fit keys (read-table.ts fitKey) the main thread knows for these files. */
  fitted: string[];
  /** parquet-wasm compiled by the main thread (parquet-wasm.ts), sent with a worker's first Parquet read. */
  parquetModule?: WebAssembly.Module;
  /**
   * A CSV read of Parquet files in two workers (split-read.ts): the lead decodes and hands some batches over
   * `port` to the helper, which writes their text; neither writes the header row. The lead sends `helper` where
   * the helper's next chunk goes in the answer.
   */
  share?: 'lead' | 'helper';
  port?: MessagePort;
  /** Answer chunks this read may send ahead of the acknowledgements (OUT_WINDOW when not given). */
  window?: number;
  /** Tests only (honoured under Vitest): make the worker fail as a bug would, or die. */
  fault?: 'throw' | 'exit';
}

export type ToWorker =
  | { kind: 'job'; job: ReadJob }
  /** The answer to `open` (ok false: the blob is gone) or to `pull` (the chunk's pieces; null: the file ended). */
  | { kind: 'opened'; stream: number; ok: boolean }
  | { kind: 'chunk'; stream: number; data: Uint8Array[] | null; error?: string }
  /** The answer to `range`: its bytes in one transferred buffer (null: the blob is gone, or `error`). */
  | { kind: 'bytes'; stream: number; data: ArrayBuffer | null; error?: string }
  | { kind: 'ack' }
  | { kind: 'cancel' }
  /** Between reads: instantiate parquet-wasm from this compiled module before any Parquet read (parquet-warmup.ts). */
  | { kind: 'warm'; module: WebAssembly.Module }
  /** Between reads, to a new helper of split reads: run the CSV writers over batches of its own (text-warmup.ts). */
  | { kind: 'warm-text' }
  /** Between reads, a CSV upload's bytes to learn (csv-learner.ts), in order; `learn-end` asks for the profile. */
  | { kind: 'learn'; session: number; data: ArrayBuffer; length: number }
  | { kind: 'learn-end'; session: number }
  /** The learning is dropped (the upload failed, or a read wants the worker): nothing more is sent about it. */
  | { kind: 'learn-stop' };

export type FromWorker =
  | { kind: 'open'; stream: number; blobId: string; range?: ByteRange }
  | { kind: 'pull'; stream: number }
  /** A byte range of a file in one message (a Parquet read's footer, a row group's column chunks). */
  | { kind: 'range'; stream: number; blobId: string; start: number; end: number }
  | { kind: 'close'; stream: number }
  | { kind: 'out'; data: Uint8Array }
  /** The answer's next chunk is the helper's next (ReadJob.share). */
  | { kind: 'helper' }
  /** The answer to `warm-text`. */
  | { kind: 'text-warmed' }
  | { kind: 'fitted'; key: string }
  | { kind: 'end' }
  | { kind: 'fail'; message: string; table: boolean }
  | { kind: 'cancelled' }
  /** The answer to `warm`: parquet-wasm is ready in this worker (or `error` says why not). */
  | { kind: 'warmed'; error?: string }
  /** After `warmed`: the warm-up's reads (warm-read.ts) have all run, reads in between or not (or `error`: a bug). */
  | { kind: 'warm-read'; error?: string }
  /**
   * A `learn` chunk was learned (the main thread sends the next), its buffer given back to carry another: a
   * fresh buffer per megabyte was garbage that grew the worker's memory by tens of MB before a collection.
   * A learning's messages carry its session.
   */
  | { kind: 'learn-ack'; session: number; data: ArrayBuffer }
  /** The answer to `learn-end`: what was learned (csv-learn.ts), or null when the file could not be. */
  | { kind: 'profile'; session: number; profile: { names: string[]; family: Uint8Array; digits: Uint8Array } | null };
