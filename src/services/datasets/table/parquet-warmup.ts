// The first Parquet read's one-time costs paid ahead (docs/datasets.md, "Parquet warm-up"): when the datasets API
// is first used in a process (../parquet-warmup.ts says when), parquet-wasm is compiled (on V8's background
// threads) and an idle table worker instantiates it and runs its read path (warm-read.ts), so that a later read
// finds it all compiled. Once per process; never waited on by a request; stopped by the app's close or reset.
import type { Worker } from 'node:worker_threads';
import { parquetModule } from './parquet-wasm.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';
import { acquireNow, discard, hasParquet, release, tableWorkers, workerFreed } from './worker-threads.js';

/**
 * How a warm-up ended: `warmed` (a worker holds the instance), `compiled` (no worker can be started here, an
 * unusual bundle: only the module was compiled, for the reads in this thread), `skipped` (done before, or a read
 * did it), `cancelled`, `failed` (the read that follows names the problem).
 */
export type WarmupOutcome = 'warmed' | 'compiled' | 'skipped' | 'cancelled' | 'failed';

/**
 * What the tests look at: warm-ups begun, and how they ended; `decoded` counts workers that then ran every warm-up
 * read (warm-read.ts: the decode path compiled and optimized), `decodeFailed` those whose reads failed (a bug).
 */
export const warmupStats = { started: 0, warmed: 0, compiled: 0, cancelled: 0, failed: 0, decoded: 0, decodeFailed: 0 };

/** Set once a warm-up finished or a Parquet read handed the module to a worker: nothing left to warm. */
let done = false;
let running: Promise<WarmupOutcome> | undefined;

/** Called by a read that hands a worker the module (worker-pool.ts): the read paid the costs itself. */
export function parquetReadStarted(): void {
  done = true;
}

export function parquetWarm(): boolean {
  return done;
}

/** Starts the warm-up unless one ran or runs; `signal` (the app's close or reset) stops it. */
export function warmParquet(signal: AbortSignal): Promise<WarmupOutcome> {
  if (done) return Promise.resolve('skipped');
  running ??= warm(signal).finally(() => (running = undefined));
  return running;
}

async function warm(signal: AbortSignal): Promise<WarmupOutcome> {
  warmupStats.started += 1;
  const end = (outcome: Exclude<WarmupOutcome, 'skipped'>): WarmupOutcome => {
    warmupStats[outcome] += 1;
    // A cancelled warm-up may be started again by a later commit; the others leave nothing to do.
    if (outcome !== 'cancelled') done = true;
    return outcome;
  };
  if (signal.aborted) return end('cancelled');
  let module: WebAssembly.Module;
  try {
    module = await parquetModule();
  } catch {
    return end('failed');
  }
  // The compile cannot be stopped; what it made is kept for the first read.
  if (signal.aborted) return end('cancelled');
  if (done) return 'skipped';
  if (!tableWorkers()) return end('compiled');
  // Takes a worker only when one is idle (or may be started): while every one is reading, it waits for one to be
  // left idle, behind any read waiting. A Parquet read meanwhile hands its worker the module itself.
  let worker = acquireNow();
  while (!worker) {
    if (!(await freedOrCancelled(signal))) return end('cancelled');
    if (done) return 'skipped';
    worker = acquireNow();
  }
  if (hasParquet.has(worker)) {
    release(worker);
    return end('warmed');
  }
  const outcome = await instantiateIn(worker, module, signal);
  if (outcome === 'warmed') {
    hasParquet.add(worker);
    release(worker);
  } else discard(worker);
  return end(outcome);
}

/** True when a worker may be free, false when `signal` stopped the wait first. */
function freedOrCancelled(signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    void workerFreed().then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    });
  });
}

/** Asks an idle worker to instantiate the module; a cancel ends the worker (an instantiation cannot be stopped). */
function instantiateIn(worker: Worker, module: WebAssembly.Module, signal: AbortSignal): Promise<'warmed' | 'cancelled' | 'failed'> {
  return new Promise((resolve) => {
    const finish = (outcome: 'warmed' | 'cancelled' | 'failed') => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onMessage = (message: FromWorker) => {
      if (message.kind === 'warmed') finish(message.error === undefined ? 'warmed' : 'failed');
    };
    const onExit = () => finish('failed');
    const onAbort = () => finish('cancelled');
    worker.on('message', onMessage);
    worker.on('exit', onExit);
    signal.addEventListener('abort', onAbort, { once: true });
    countWarmReads(worker);
    worker.postMessage({ kind: 'warm', module } satisfies ToWorker);
  });
}

/** The worker's reads after `warmed` end later, reads in between or not: counted when it says so. */
function countWarmReads(worker: Worker): void {
  const onMessage = (message: FromWorker) => {
    if (message.kind !== 'warm-read') return;
    if (message.error === undefined) warmupStats.decoded += 1;
    else warmupStats.decodeFailed += 1;
    off();
  };
  const off = () => {
    worker.off('message', onMessage);
    worker.off('exit', off);
  };
  worker.on('message', onMessage);
  worker.on('exit', off);
}
