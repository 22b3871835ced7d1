// The first Parquet read's one-time costs paid ahead (docs/datasets.md, "Parquet warm-up"): when a commit puts
// a Parquet file in a view of a process that has not read Parquet yet, parquet-wasm is compiled (on V8's
// background threads) and an idle table worker instantiates it, so that the read, which usually follows, finds
// both ready. Once per process; never waited on by the commit; stopped by the app's close or reset.
import type { Worker } from 'node:worker_threads';
import { parquetModule } from './parquet-wasm.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';
import { acquireNow, discard, hasParquet, release } from './worker-threads.js';

/**
 * How a warm-up ended: `warmed` (a worker holds the instance), `compiled` (every worker was busy reading, so only
 * the module was compiled: the next Parquet job takes it), `skipped` (done before, or a read did it), `cancelled`,
 * `failed` (the read that follows names the problem).
 */
export type WarmupOutcome = 'warmed' | 'compiled' | 'skipped' | 'cancelled' | 'failed';

/** What the tests look at: warm-ups begun, and how they ended. */
export const warmupStats = { started: 0, warmed: 0, compiled: 0, cancelled: 0, failed: 0 };

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
  // Never waits for a worker: a read holding each one would hand it the module itself.
  const worker = acquireNow();
  if (!worker) return end('compiled');
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
    worker.postMessage({ kind: 'warm', module } satisfies ToWorker);
  });
}
