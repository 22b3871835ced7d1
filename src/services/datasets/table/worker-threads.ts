// The table workers themselves (docs/datasets.md, "Table reads off the event loop"): started on demand, at most
// MAX_WORKERS, kept idle between reads, never holding the process open. Reads (worker-pool.ts) and the Parquet
// warm-up (parquet-warmup.ts) take one and give it back.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerSource } from './worker-source.js';

/** Two threads at most: the machines this runs on have few cores, and the main thread needs one. */
const MAX_WORKERS = Math.max(1, Math.min(2, availableParallelism() - 1));
/**
 * A CSV read of Parquet files may take one worker more (split-read.ts), even on two cores, where the main thread
 * only moves bytes and the workers run at a lower priority (table-worker.ts); other reads stay at MAX_WORKERS.
 */
const MAX_WITH_HELPER = 2;
/**
 * The worker's young generation, smaller than V8's default: a read makes short-lived garbage fast, and a large
 * nursery was tens of MB of resident memory for no gain in speed. 6 MB rather than 12 took about 10 MB off a
 * CSV -> ARROW read's RSS growth, at the same speed (docs/datasets.md, "Twelfth round"); 3 or 4 MB took more off
 * it but let a Parquet read's growth reach 67-98 MB ("Thirteenth round").
 */
const YOUNG_GENERATION_MB = 6;
/** How long a cancelled read may take to stop before its worker is ended instead. */
export const CANCEL_WAIT_MS = 5_000;
/**
 * How long a read may wait on its client (a chunk handed out, not yet taken) before its worker stops counting
 * against the pool: a client paused or stopped (a breakpoint, a consumer that reads lazily) would otherwise
 * hold the only worker, and every other worker read would wait as long (docs/datasets.md, "Stalled readers").
 */
export const STALL_MS = 1_000;

let source: ReturnType<typeof workerSource> | null = null;
const idle: Worker[] = [];
/** Workers already handed the compiled parquet-wasm module. */
export const hasParquet = new WeakSet<Worker>();
let live = 0;
const waiting: Array<(worker: Worker) => void> = [];
/** Workers whose read waits on a stalled client (STALL_MS): not counted against MAX_WORKERS while so. */
const stalledWorkers = new Set<Worker>();
/** The workers the pool keeps (idle ones included): a read's, and a split read's helper. */
const KEPT_WORKERS = Math.max(MAX_WORKERS, MAX_WITH_HELPER);
/** However many reads stall, at most this many threads in all: each may hold parquet-wasm, tens of MB. */
const MOST_WORKERS = KEPT_WORKERS + 2;
/** Room for a new worker for a read: fewer than MAX_WORKERS besides the stalled ones, and under MOST_WORKERS. */
const roomForRead = () => live - stalledWorkers.size < MAX_WORKERS && live < MOST_WORKERS;
/** Told when a worker is left idle or one ended (room for a new one): the warm-up waits so, behind any read. */
let idleWatchers: Array<() => void> = [];
/**
 * Reads running in a worker now (and `started` ever), and file streams they hold open: what the tests check for leaks. `moduleHanded`
 * counts reads that had to hand a worker parquet-wasm (none after a warm-up: parquet-warmup.ts).
 */
export const workerStats = { running: 0, started: 0, openStreams: 0, chunksSent: 0, moduleHanded: 0 };

/** Whether workers can be started here (false: no worker script, an unusual bundle; reads stay in this thread). */
export function tableWorkers(): boolean {
  if (source === null) source = workerSource();
  return source !== undefined;
}

function spawn(): Worker {
  const worker = new Worker(source!.script, { eval: source!.eval, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  live += 1;
  // An idle worker must not keep the process alive; a read in progress has its socket for that.
  worker.unref();
  worker.once('exit', () => {
    live -= 1;
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    // A read that came while an ended worker still counted (discard terminates it; its exit comes later) waits for
    // room: this is that room.
    stalledWorkers.delete(worker);
    const next = roomForRead() ? waiting.shift() : undefined;
    if (next) next(spawn());
    freed();
  });
  // An error is also reported to the read using the worker (below); this keeps an idle one's from throwing.
  worker.on('error', () => undefined);
  return worker;
}

/**
 * Workers lent to work that gives way to reads (a CSV upload's learning, csv-learner.ts), with how to ask for
 * each back: a read that would wait asks one, which gives the worker back through release().
 */
const lent = new Map<Worker, () => void>();

/**
 * A worker for a read: an idle one, a new one while there is room, or the next one given back. Undefined when
 * `signal` (the read's client gone) aborts first: a read abandoned while it waited never runs.
 */
export async function acquire(signal?: AbortSignal): Promise<Worker | undefined> {
  if (signal?.aborted) return undefined;
  const ready = idle.pop();
  if (ready) return ready;
  if (roomForRead()) return spawn();
  const taken = new Promise<Worker | undefined>((resolve) => {
    const entry = (worker: Worker) => {
      signal?.removeEventListener('abort', abandoned);
      resolve(worker);
    };
    const abandoned = () => {
      const at = waiting.indexOf(entry);
      if (at >= 0) waiting.splice(at, 1);
      resolve(undefined);
    };
    waiting.push(entry);
    signal?.addEventListener('abort', abandoned, { once: true });
  });
  const [worker, giveBack] = lent.entries().next().value ?? [];
  if (worker && giveBack) {
    lent.delete(worker);
    giveBack();
  }
  return taken;
}

/**
 * An idle worker, or a new one while there is room, for work that gives way to reads: `giveBack` is called
 * (once) when a read wants it; the borrower then stops and releases it. Undefined when none is free now.
 */
export function lend(giveBack: () => void): Worker | undefined {
  const worker = acquireNow();
  if (worker) lent.set(worker, giveBack);
  return worker;
}

/** The borrower is done with `worker` (it releases or discards it next): no read will ask for it back. */
export function returned(worker: Worker): void {
  lent.delete(worker);
}

/** An idle worker, or a new one while there is room; undefined when every worker is busy (no waiting). */
export function acquireNow(): Worker | undefined {
  if (!tableWorkers()) return undefined;
  return idle.pop() ?? (live < MAX_WORKERS ? spawn() : undefined);
}

/** An idle worker (no new one, no waiting): a split read's helper. */
export function idleWorker(): Worker | undefined {
  return idle.pop();
}

/** A new worker while there is room for a split read's helper (MAX_WITH_HELPER); undefined otherwise. */
export function spawnHelper(): Worker | undefined {
  if (!tableWorkers()) return undefined;
  return live < KEPT_WORKERS ? spawn() : undefined;
}

export function release(worker: Worker): void {
  stalledWorkers.delete(worker);
  const next = waiting.shift();
  if (next) next(worker);
  // One more than the pool keeps, started while a read stalled: ended, not kept idle.
  else if (live - stalledWorkers.size > KEPT_WORKERS) void worker.terminate();
  else {
    idle.push(worker);
    freed();
  }
}

/** A read on `worker` has waited STALL_MS on its client: a read waiting for a worker may get a new one. */
export function stalled(worker: Worker): void {
  stalledWorkers.add(worker);
  while (waiting.length > 0 && roomForRead()) waiting.shift()!(spawn());
}

/** The client took its chunk after all: the worker counts again. */
export function resumed(worker: Worker): void {
  stalledWorkers.delete(worker);
}

function freed(): void {
  const watchers = idleWatchers;
  idleWatchers = [];
  for (const watcher of watchers) watcher();
}

/** Resolves when a worker may be free for acquireNow (reads waiting are served first); never holds one. */
export function workerFreed(): Promise<void> {
  return new Promise((resolve) => idleWatchers.push(resolve));
}

/** A worker ended or broken: the next waiting read gets a new one. */
export function discard(worker: Worker): void {
  void worker.terminate();
  const next = waiting.shift();
  if (next) next(spawn());
}
