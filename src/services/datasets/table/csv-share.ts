// The two workers' sides of a CSV read of Parquet files split between them (split-read.ts, docs/datasets.md
// "Parquet to CSV in two workers"). The lead decodes every batch; it hands a batch to the helper while fewer than
// HELPER_BACKLOG handed ones are still being written, else writes it itself, so that the share each takes follows
// how fast each goes (a helper just started takes fewer). Neither writes the header row (the main thread does).
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { Column } from './columns.js';
import { csvBatch } from './column-text.js';
import { ipcColumns, parquetRawBatches } from './parquet-source.js';
import { readRange, tabularFormat, type ByteSource } from './read-table.js';

/** Batches handed to the helper and not yet written: enough to keep it busy, few to hold (about 0.5 MB each). */
const HELPER_BACKLOG = 2;

/** Where the lead's answer takes the helper's next chunk. */
export const HELPER_TURN = Symbol('the helper writes this batch');

/** Between the lead and the helper, over their own channel. */
type ToHelper = { kind: 'batch'; path: string; ipc: Uint8Array; seen: number } | { kind: 'done' };
type ToLead = { kind: 'written' };

/** A batch's CSV text: one buffer (empty for no rows). */
function batchText(path: string, ipc: Uint8Array, columns: readonly Column[], seen: number): Buffer[] {
  return ipcColumns(path, ipc, columns, seen)
    .filter((batch) => batch.length > 0)
    .map((batch) => csvBatch(columns, batch.columns, batch.length));
}

/** The lead: every Parquet file decoded in order; its batches' text, or HELPER_TURN where the helper writes one. */
export async function* csvLead(
  files: ReadonlyArray<{ path: string; blobId?: string; size: number }>,
  blobs: ByteSource,
  columns: readonly Column[],
  port: MessagePort,
): AsyncGenerator<Buffer | typeof HELPER_TURN> {
  let handed = 0;
  try {
    for (const file of files) {
      const blobId = file.blobId;
      // The main thread splits only reads whose files are all Parquet.
      if (tabularFormat(file.path) !== 'parquet' || !blobId) continue;
      const read = (start: number, end: number) => readRange(file.path, blobs, blobId, start, end);
      for await (const raw of parquetRawBatches(file.path, file.size, read, columns)) {
        // Taken here, not by an event: decoding resolves in microtasks, and events would wait for a macrotask.
        for (let told = receiveMessageOnPort(port); told; told = receiveMessageOnPort(port)) if ((told.message as ToLead).kind === 'written') handed -= 1;
        if (handed < HELPER_BACKLOG) {
          handed += 1;
          port.postMessage({ kind: 'batch', path: file.path, ipc: raw.ipc, seen: raw.seen } satisfies ToHelper, [raw.ipc.buffer as ArrayBuffer]);
          yield HELPER_TURN;
        } else yield* batchText(file.path, raw.ipc, columns, raw.seen);
      }
    }
  } finally {
    // Also after a failure: the helper writes what it was handed (the answer takes it up to the failure), then
    // ends. The helper closes the channel, once every batch has reached it.
    port.postMessage({ kind: 'done' } satisfies ToHelper);
  }
}

/** The helper: the text of each batch handed over, one chunk per batch (empty for no rows), until the lead is done. */
export async function* csvHelper(columns: readonly Column[], port: MessagePort): AsyncGenerator<Buffer> {
  const queue: Array<ToHelper | null> = [];
  let wake: (() => void) | undefined;
  const push = (item: ToHelper | null) => {
    queue.push(item);
    wake?.();
    wake = undefined;
  };
  port.on('message', push);
  // The lead's thread ended (a channel closes with its thread).
  port.once('close', () => push(null));
  try {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const message = queue.shift()!;
      if (message === null || message.kind === 'done') return;
      const texts = batchText(message.path, message.ipc, columns, message.seen);
      yield texts.length === 1 ? texts[0]! : Buffer.concat(texts);
      port.postMessage({ kind: 'written' } satisfies ToLead);
    }
  } finally {
    port.off('message', push);
    port.close();
  }
}
