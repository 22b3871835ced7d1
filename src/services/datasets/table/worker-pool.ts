// Table reads off the event loop (docs/datasets.md, "Table reads off the event loop"): a small pool of worker
// threads runs the conversion (CSV checks, Parquet decoding, Arrow and CSV encoding) while the main thread only
// moves bytes: file chunks in on request, answer chunks out as the socket takes them. Where no worker script
// can be found (an unusual bundle), the read runs in this thread as before.
import type { Worker } from 'node:worker_threads';
import type { DatasetSchema, FileRecord } from '../model.js';
import type { Column } from './columns.js';
import { headerFits } from './csv-bytes.js';
import { learnedAny, learnedFits } from './csv-learner.js';
import { parquetModule } from './parquet-wasm.js';
import { parquetReadStarted } from './parquet-warmup.js';
import { fitKey, isPassthrough, knownFits, tableBytes, tabularFormat, type ByteSource, type TableFormat } from './read-table.js';
import { prepareHelper, shareable, splitRead } from './split-read.js';
import type { ReadJob } from './worker-protocol.js';
import { HELPER_TURN, startRun } from './worker-run.js';
import { acquire, hasParquet, idleWorker, release, tableWorkers, workerStats } from './worker-threads.js';

export { workerStats };

/** What a read may add to its columns: a row limit, a test's fault, and its client's signal. */
export interface ReadOptions {
  rowLimit?: number | undefined;
  /** Test-only: a failure the worker stages (worker-protocol.ts). */
  fault?: ReadJob['fault'];
  /** Aborts when the read's client is gone: a read still waiting for a worker then ends without running. */
  signal?: AbortSignal | undefined;
}

/** The answer's bytes, converted in a worker thread; the same bytes an in-thread tableBytes gives. */
export function readTableBytes(
  format: TableFormat,
  files: readonly FileRecord[],
  blobs: ByteSource,
  columns: readonly Column[],
  schema: DatasetSchema,
  { rowLimit, fault, signal }: ReadOptions = {},
): AsyncGenerator<Buffer> {
  if (!learnedAny() || !isPassthrough(format, columns, schema, rowLimit)) return readNow(format, files, blobs, columns, schema, rowLimit, fault, signal);
  // A passthrough read of files learned at upload (csv-learner.ts) sends those its schema fits as they are.
  return (async function* () {
    await learnedFits(
      files.flatMap((f) => (f.blobId && tabularFormat(f.path) === 'csv' ? [f.blobId] : [])),
      columns,
    );
    yield* readNow(format, files, blobs, columns, schema, rowLimit, fault, signal);
  })();
}

function readNow(
  format: TableFormat,
  files: readonly FileRecord[],
  blobs: ByteSource,
  columns: readonly Column[],
  schema: DatasetSchema,
  rowLimit: number | undefined,
  fault: ReadJob['fault'],
  signal: AbortSignal | undefined,
): AsyncGenerator<Buffer> {
  const fitted = files.flatMap((f) => (f.blobId && knownFits.has(fitKey(f.blobId, columns)) ? [fitKey(f.blobId, columns)] : []));
  // Every file known to fit and sent as it is: nothing to convert, so no thread to hand the bytes through.
  const tabular = files.filter((f) => tabularFormat(f.path) && f.blobId);
  const passthroughCsv = isPassthrough(format, columns, schema, rowLimit) && tabular.every((f) => tabularFormat(f.path) === 'csv');
  const copyOnly = passthroughCsv && tabular.every((f) => fitted.includes(fitKey(f.blobId!, columns)));
  if (!tableWorkers() || (copyOnly && !fault)) return tableBytes(format, files, blobs, columns, schema, rowLimit);
  const job: ReadJob = {
    format,
    files: files.map((f) => ({ path: f.path, size: f.size, ...(f.blobId ? { blobId: f.blobId } : {}) })),
    schema,
    columns: columns.map((c) => c.name),
    fitted,
    ...(rowLimit === undefined ? {} : { rowLimit }),
    ...(fault ? { fault } : {}),
  };
  if (passthroughCsv && !fault) {
    const unknown = tabular.filter((f) => !fitted.includes(fitKey(f.blobId!, columns)));
    return provenHere(unknown, blobs, columns, () => tableBytes(format, files, blobs, columns, schema, rowLimit), job, signal);
  }
  return inWorker(job, blobs, signal);
}

/** Bytes of a file's start read to find its header row. */
const HEADER_PEEK = 64 * 1024;

/**
 * A passthrough read of CSV files runs in this thread when every file's header row lets it send the file's own
 * bytes: proving them (csv-bytes.ts) costs under a millisecond per 64 KiB piece, about what sending them costs,
 * and less than handing each piece to a worker and back. A file whose header row differs would be converted
 * value by value: then the whole read goes to a worker. (docs/datasets.md, "Table reads off the event loop")
 */
async function* provenHere(
  files: readonly FileRecord[],
  blobs: ByteSource,
  columns: readonly Column[],
  here: () => AsyncGenerator<Buffer>,
  job: ReadJob,
  signal: AbortSignal | undefined,
): AsyncGenerator<Buffer> {
  for (const file of files) {
    const bytes = await blobs.open(file.blobId!, { start: 0, end: Math.min(file.size, HEADER_PEEK) }).catch(() => undefined);
    const parts: Buffer[] = [];
    try {
      for await (const part of (bytes ?? []) as AsyncIterable<Buffer>) parts.push(part);
    } catch {
      // The read in a worker meets the same failure and names it.
      parts.length = 0;
    } finally {
      bytes?.destroy();
    }
    if (!headerFits(Buffer.concat(parts), columns)) return yield* inWorker(job, blobs, signal);
  }
  yield* here();
}

async function* inWorker(job: ReadJob, blobs: ByteSource, signal: AbortSignal | undefined): AsyncGenerator<Buffer> {
  // Compiled here once (on V8's background threads) while a worker is taken or started; a failure is left to the
  // worker's own load, which names it.
  const parquet = job.files.some((f) => tabularFormat(f.path) === 'parquet');
  const [module, worker] = await Promise.all([parquet ? parquetModule().catch(() => undefined) : undefined, acquire(signal)]);
  // The client left while the read waited: nothing to send, and the worker goes to the next read.
  if (!worker) return;
  if (signal?.aborted) return release(worker);
  // A CSV read of Parquet files takes a second worker when one is idle now (split-read.ts); the one that holds
  // parquet-wasm leads (decodes), the other only writes text. Without one, a helper is made after this read.
  const share = shareable(job);
  const second = share ? idleWorker() : undefined;
  if (second) {
    const [lead, helper] = hasParquet.has(second) && !hasParquet.has(worker) ? [second, worker] : [worker, second];
    return yield* splitRead(withModule(job, lead, module), blobs, lead, helper);
  }
  const run = startRun(worker, withModule(job, worker, module), blobs);
  let ended = false;
  try {
    for (;;) {
      const item = await run.next();
      if (item === null) {
        ended = true;
        return;
      }
      if (item instanceof Error) throw item;
      if (item === HELPER_TURN) throw new Error('a read in one worker was given a helper');
      yield item;
      run.ack();
    }
  } finally {
    await run.close();
    if (share && ended) prepareHelper();
  }
}

/** The job for `worker`, with the compiled parquet-wasm module when the worker has not had it yet. */
function withModule(job: ReadJob, worker: Worker, module: WebAssembly.Module | undefined): ReadJob {
  if (!module || hasParquet.has(worker)) return job;
  hasParquet.add(worker);
  workerStats.moduleHanded += 1;
  parquetReadStarted();
  return { ...job, parquetModule: module };
}
