// Table reads off the event loop (docs/datasets.md, "Table reads off the event loop"): a small pool of worker
// threads runs the conversion (CSV checks, Parquet decoding, Arrow and CSV encoding) while the main thread only
// moves bytes: file chunks in on request, answer chunks out as the socket takes them. Where no worker script
// can be found (an unusual bundle), the read runs in this thread as before.
import type { Readable } from 'node:stream';
import type { ByteRange } from '../../../blobs/index.js';
import type { DatasetSchema, FileRecord } from '../model.js';
import type { Column } from './columns.js';
import { headerFits } from './csv-bytes.js';
import { parquetModule } from './parquet-wasm.js';
import { parquetReadStarted } from './parquet-warmup.js';
import { fitKey, isPassthrough, knownFits, storedRange, tableBytes, tabularFormat, TableReadError, type ByteSource, type TableFormat } from './read-table.js';
import { PIECE_BYTES, type FromWorker, type ReadJob, type ToWorker } from './worker-protocol.js';
import { acquire, CANCEL_WAIT_MS, discard, hasParquet, release, tableWorkers, workerStats } from './worker-threads.js';

export { workerStats };

/** The answer's bytes, converted in a worker thread; the same bytes an in-thread tableBytes gives. */
export function readTableBytes(
  format: TableFormat,
  files: readonly FileRecord[],
  blobs: ByteSource,
  columns: readonly Column[],
  schema: DatasetSchema,
  rowLimit?: number,
  fault?: ReadJob['fault'],
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
    return provenHere(unknown, blobs, columns, () => tableBytes(format, files, blobs, columns, schema, rowLimit), job);
  }
  return inWorker(job, blobs);
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
    if (!headerFits(Buffer.concat(parts), columns)) return yield* inWorker(job, blobs);
  }
  yield* here();
}

async function* inWorker(job: ReadJob, blobs: ByteSource): AsyncGenerator<Buffer> {
  // Compiled here once (on V8's background threads) while a worker is taken or started; a failure is left to the
  // worker's own load, which names it.
  const parquet = job.files.some((f) => tabularFormat(f.path) === 'parquet');
  const [module, worker] = await Promise.all([parquet ? parquetModule().catch(() => undefined) : undefined, acquire()]);
  if (module && !hasParquet.has(worker)) {
    job.parquetModule = module;
    hasParquet.add(worker);
    workerStats.moduleHanded += 1;
    parquetReadStarted();
  }
  workerStats.running += 1;
  const streams = new Map<number, { bytes: Readable; chunks: AsyncIterator<Buffer> }>();
  const queue: Array<Buffer | Error | null> = [];
  let wake: (() => void) | undefined;
  let finished = false;
  let dead = false;
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const finish = () => {
    finished = true;
    settle();
  };
  const push = (item: Buffer | Error | null) => {
    queue.push(item);
    wake?.();
    wake = undefined;
  };
  const send = (message: ToWorker, transfer?: ArrayBuffer[]) => {
    if (!dead) worker.postMessage(message, transfer);
  };
  const closeStream = (stream: number) => {
    const open = streams.get(stream);
    if (!open) return;
    streams.delete(stream);
    workerStats.openStreams -= 1;
    open.bytes.destroy();
  };
  const openStream = async (stream: number, blobId: string, range?: ByteRange) => {
    let bytes: Readable | undefined;
    try {
      bytes = await blobs.open(blobId, range);
    } catch {
      bytes = undefined;
    }
    if (bytes && (finished || dead)) bytes.destroy();
    else if (bytes) {
      streams.set(stream, { bytes, chunks: bytes[Symbol.asyncIterator]() as AsyncIterator<Buffer> });
      workerStats.openStreams += 1;
    }
    send({ kind: 'opened', stream, ok: bytes !== undefined });
  };
  const pull = async (stream: number) => {
    const open = streams.get(stream);
    if (!open) return send({ kind: 'chunk', stream, data: null, error: 'the file stream is closed' });
    try {
      const next = await open.chunks.next();
      if (next.done) {
        closeStream(stream);
        return send({ kind: 'chunk', stream, data: null });
      }
      // Copied: a store's chunk may be a view of memory the store keeps (a transfer would take it away). Copied
      // in pieces, each its own buffer, that the worker drops one by one (see PIECE_BYTES in worker-protocol.ts).
      const value = next.value as Buffer;
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < value.length; at += PIECE_BYTES) pieces.push(new Uint8Array(value.subarray(at, at + PIECE_BYTES)));
      workerStats.chunksSent += 1;
      send(
        { kind: 'chunk', stream, data: pieces },
        pieces.map((p) => p.buffer as ArrayBuffer),
      );
    } catch (err) {
      closeStream(stream);
      send({ kind: 'chunk', stream, data: null, error: `reading the stored bytes failed: ${(err as Error).message}` });
    }
  };
  // A range is copied once into a buffer of its own and transferred (not a stream of 64 KiB pieces): a Parquet
  // read asks for the footer and then each row group's column chunks, each read whole at once.
  const range = async (stream: number, blobId: string, start: number, end: number) => {
    let reply: ToWorker;
    try {
      reply = { kind: 'bytes', stream, data: (await storedRange(blobs, blobId, start, end)) ?? null };
    } catch (err) {
      reply = { kind: 'bytes', stream, data: null, error: `reading the stored bytes failed: ${(err as Error).message}` };
    }
    // A read that ended meanwhile (cancelled) has no use for them.
    if (finished) return;
    send(reply, reply.kind === 'bytes' && reply.data ? [reply.data] : undefined);
  };
  const onMessage = (message: FromWorker) => {
    switch (message.kind) {
      case 'open':
        return void openStream(message.stream, message.blobId, message.range);
      case 'pull':
        return void pull(message.stream);
      case 'range':
        return void range(message.stream, message.blobId, message.start, message.end);
      case 'close':
        return closeStream(message.stream);
      case 'out':
        return push(Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength));
      case 'fitted':
        return knownFits.remember(message.key);
      case 'end':
      case 'cancelled':
        finish();
        return push(null);
      case 'fail':
        finish();
        return push(new TableReadError(message.table ? message.message : `the table could not be read: ${message.message}`));
    }
  };
  const onExit = (code: number) => {
    dead = true;
    if (!finished) push(new TableReadError(`the table could not be read: its reader thread stopped (exit code ${code})`));
    finish();
  };
  const onError = (err: Error) => {
    dead = true;
    if (!finished) push(new TableReadError(`the table could not be read: ${err.message}`));
    finish();
  };
  worker.on('message', onMessage);
  worker.on('exit', onExit);
  worker.on('error', onError);
  try {
    send({ kind: 'job', job });
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift()!;
      if (item === null) return;
      if (item instanceof Error) throw item;
      yield item;
      if (!finished) send({ kind: 'ack' });
    }
  } finally {
    if (!finished && !dead) {
      // The reader went away: the worker stops at its next await; one that does not answer in time is ended.
      send({ kind: 'cancel' });
      let timer: NodeJS.Timeout | undefined;
      const stopped = await Promise.race([
        settled.then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CANCEL_WAIT_MS))),
      ]);
      clearTimeout(timer);
      if (!stopped) dead = true;
    }
    for (const stream of [...streams.keys()]) closeStream(stream);
    worker.off('message', onMessage);
    worker.off('exit', onExit);
    worker.off('error', onError);
    workerStats.running -= 1;
    if (dead) discard(worker);
    else release(worker);
  }
}
