// The table worker's thread (docs/datasets.md, "Table reads off the event loop"): it starts with only what a CSV
// upload's learning needs (learn-worker.ts), so that a worker lent to an upload learns its first megabytes at
// once; the reads' code (read-worker.ts: parquet-wasm, apache-arrow, the CSV readers) is loaded at the first
// message about a read or a warm-up, and those messages wait for it in order.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { learnMessage } from './learn-worker.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

/**
 * This thread runs at a lower priority than the main one (Linux keeps a nice value per thread), so that on a
 * busy machine the event loop answering other requests gets the cores first (the getCurrent p99 target).
 */
const WORKER_NICE = 10;
// Elsewhere the call would lower the whole process's priority.
if (process.platform === 'linux') {
  try {
    setPriority(0, WORKER_NICE);
  } catch {
    // Not allowed here: the thread runs at the process's priority.
  }
}

const port = parentPort!;
const post = (message: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

let reads: ((message: ToWorker) => void) | undefined;
const waiting: ToWorker[] = [];
let loading: Promise<void> | undefined;

/** Loads the reads' code once; messages that came meanwhile are then handled in their order. */
function loadReads(): Promise<void> {
  loading ??= import('./read-worker.js').then(
    (m) => {
      reads = m.readMessages(post);
      for (const queued of waiting.splice(0)) reads(queued);
    },
    (err: unknown) => {
      // As a failing import at the thread's start did: the worker dies, and the read using it says why.
      setImmediate(() => {
        throw err;
      });
    },
  );
  return loading;
}

port.on('message', (message: ToWorker) => {
  if (message.kind === 'learn' || message.kind === 'learn-end' || message.kind === 'learn-stop') {
    learnMessage(message, post);
    // A worker that learned an upload goes back to the pool: its reads' code is loaded now, while it is idle,
    // rather than in the first read it takes (where it counted in that read's memory and time).
    if (message.kind === 'learn-end') void loadReads();
    return;
  }
  if (reads) return reads(message);
  waiting.push(message);
  void loadReads();
});
