// One read's conversation with one table worker (docs/datasets.md, "Table reads off the event loop"): the file
// bytes the worker asks for, the answer chunks it sends (queued here until taken, each acknowledged then: the
// worker sends at most its window ahead), its end, failure or death, and a cancel when the reader goes away.
import type { Readable } from 'node:stream';
import type { Transferable, Worker } from 'node:worker_threads';
import type { ByteRange } from '../../../blobs/index.js';
import { knownFits, storedRange, TableReadError, type ByteSource } from './read-table.js';
import { PIECE_BYTES, type FromWorker, type ReadJob, type ToWorker } from './worker-protocol.js';
import { CANCEL_WAIT_MS, STALL_MS, discard, release, resumed, stalled, workerStats } from './worker-threads.js';

/** The answer's next chunk is the helper's next (ReadJob.share). */
export const HELPER_TURN = Symbol('the helper writes the next chunk');

/** What a run gives, in the worker's order: answer bytes, HELPER_TURN, its failure, or null at its end. */
export type RunItem = Buffer | typeof HELPER_TURN | Error | null;

export interface WorkerRun {
  next(): Promise<RunItem>;
  /** The last bytes given were taken: the worker may send one more chunk. */
  ack(): void;
  /** Cancels the read if it has not ended (ending a worker that does not stop in time), then gives the worker back. */
  close(): Promise<void>;
}

/**
 * Sends `job` to `worker` (taken from the pool for this run alone) and serves it; `transfer` goes with the job.
 * `partner`: the other worker of a split read (split-read.ts). It waits on the same client, so a stall marks it
 * too: left counted, it kept the pool full on two cores, and a stalled Parquet -> CSV read held every other read.
 */
export function startRun(worker: Worker, job: ReadJob, blobs: ByteSource, transfer?: Transferable[], partner?: Worker): WorkerRun {
  const waitingOnClient = partner ? [worker, partner] : [worker];
  workerStats.running += 1;
  workerStats.started += 1;
  const streams = new Map<number, { bytes: Readable; chunks: AsyncIterator<Buffer> }>();
  const queue: RunItem[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  let dead = false;
  let closed = false;
  // The file the worker last asked bytes of: a fault that is not a table error (a WebAssembly trap on a file
  // broken mid-way) is named after it, as a table error names its file.
  let reading: string | undefined;
  const noteReading = (blobId: string) => void (reading = job.files.find((f) => f.blobId === blobId)?.path ?? reading);
  const fault = (what: string) => new TableReadError(`${reading === undefined ? '' : `${reading}: `}the table could not be read: ${what}`);
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const finish = () => {
    finished = true;
    settle();
  };
  const push = (item: RunItem) => {
    queue.push(item);
    wake?.();
    wake = undefined;
  };
  // A chunk handed out and not taken for STALL_MS: the client stalled, and the pool may start a worker for
  // another read meanwhile (worker-threads.ts).
  let stall: NodeJS.Timeout | undefined;
  const taken = () => {
    if (stall === undefined) return;
    clearTimeout(stall);
    stall = undefined;
    for (const w of waitingOnClient) resumed(w);
  };
  const send = (message: ToWorker, moved?: Transferable[]) => {
    if (!dead) worker.postMessage(message, moved);
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
        noteReading(message.blobId);
        return void openStream(message.stream, message.blobId, message.range);
      case 'pull':
        return void pull(message.stream);
      case 'range':
        noteReading(message.blobId);
        return void range(message.stream, message.blobId, message.start, message.end);
      case 'close':
        return closeStream(message.stream);
      case 'out':
        return push(Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength));
      case 'helper':
        return push(HELPER_TURN);
      case 'fitted':
        return knownFits.remember(message.key);
      case 'end':
      case 'cancelled':
        finish();
        return push(null);
      case 'fail':
        finish();
        // A fault outside the table's own checks may have left the worker unfit (a WebAssembly instance that
        // trapped can hang the next read): it is ended at close, and the pool starts a fresh one.
        if (!message.table) dead = true;
        return push(message.table ? new TableReadError(message.message) : fault(message.message));
    }
  };
  const onExit = (code: number) => {
    dead = true;
    if (!finished) push(fault(`its reader thread stopped (exit code ${code})`));
    finish();
  };
  const onError = (err: Error) => {
    dead = true;
    if (!finished) push(fault(err.message));
    finish();
  };
  worker.on('message', onMessage);
  worker.on('exit', onExit);
  worker.on('error', onError);
  send({ kind: 'job', job }, transfer);
  return {
    async next() {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift()!;
      if (Buffer.isBuffer(item)) stall = setTimeout(() => waitingOnClient.forEach(stalled), STALL_MS);
      return item;
    },
    ack() {
      taken();
      if (!finished) send({ kind: 'ack' });
    },
    async close() {
      if (closed) return;
      closed = true;
      taken();
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
    },
  };
}
